// TPU_KERNEL_BACKEND picks the session's backend; without TPU chips the tpu backend fails at
// the first op with one line and the process keeps running.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasTpuChips, tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';

const status = await tpuCompilerInfo();
const script = `
import { tpu } from ${JSON.stringify(new URL('../../dist/runtime/index.js', import.meta.url).href)};
try { tpu.ones([2]); console.log('started'); } catch (e) { console.log('ERR ' + e.message); }
delete process.env.TPU_KERNEL_BACKEND;
console.log('onnx ' + JSON.stringify(await tpu.tensor([1, 2]).add(1).array()));
`;
function run(backend: string) {
  const env = { ...process.env, TPU_KERNEL_BACKEND: backend };
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 60_000 });
}

describe('TPU_KERNEL_BACKEND', () => {
  it('an unknown value names the variable and the accepted values', () => {
    const r = run('gpu');
    expect(r.stdout).toContain(`ERR TPU_KERNEL_BACKEND must be one of 'onnx', 'tpu'; got "gpu"`);
    expect(r.stdout).toContain('onnx [2,3]');
    expect(r.status).toBe(0);
  });
  it.skipIf(!status.available || hasTpuChips())('tpu without chips: the first op throws one line, the process goes on', () => {
    const r = run('tpu');
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('ERR'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ERR no TPU chips on this machine: libtpu's PJRT client says PJRT NOT_FOUND: /);
    expect(r.stdout).toContain('onnx [2,3]'); // unset: the next op opens an ONNX session
    expect(r.status).toBe(0);
  });
});

if (!hasTpuChips()) console.warn('SKIPPED the tpu backend execute test: no TPU chips on this machine');
describe.skipIf(!status.available || !hasTpuChips())('TPU_KERNEL_BACKEND=tpu on a TPU host', () => {
  it('runs x * 3 + 0.5 summed over rows against a float64 reference', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
import { tpu } from ${JSON.stringify(new URL('../../dist/runtime/index.js', import.meta.url).href)};
const x = tpu.arange(12).reshape([3, 4]);
console.log(JSON.stringify(await x.mul(3).add(0.5).sum(1).array()));`], { env: { ...process.env, TPU_KERNEL_BACKEND: 'tpu' }, encoding: 'utf8', timeout: 120_000 });
    const want = [0, 1, 2].map((i) => { let s = 0; for (let j = 0; j < 4; j++) s += (i * 4 + j) * 3 + 0.5; return s; });
    const got = JSON.parse(r.stdout.trim().split('\n').pop()!) as number[];
    got.forEach((g, i) => expect(g).toBeCloseTo(want[i]!, 4));
  });
});
