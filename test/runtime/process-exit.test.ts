// A script that ends with device work still queued exits cleanly: ending the process while
// the device thread is inside ONNX Runtime aborts it (Napi::Error), so the work finishes
// first. Without that, about half of these runs abort.
import { expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';

it('exits with status 0 after queued strict work, without any sync', () => {
  const code = `import { tpu } from 'tpu-kernel/runtime';
    const x = tpu.ones([8]);
    let y = x;
    for (let i = 0; i < 12000; i++) { const n = y.add(x); if (y !== x) y.dispose(); y = n; }
    console.log('dispatched');`;
  for (let run = 0; run < 4; run++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('dispatched');
    expect(r.status).toBe(0);
  }
});
