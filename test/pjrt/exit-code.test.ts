// libtpu arms SIGPROF timers that kill a Node process at exit (signal 27) unless the addon
// quiets them: a process that compiled something must end with its own exit code.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/exit-code.test.ts: ${status.reason}`);

const script = fileURLToPath(new URL('./compile-then-exit.mjs', import.meta.url));
const run = (how: string) => spawnSync(process.execPath, [script, how], { encoding: 'utf8', timeout: 60_000 });

describe.skipIf(!status.available)('a process that used libtpu', () => {
  it.each([
    ['natural', 7],
    ['exit', 5],
    ['mid-compile', 4],
  ])('ends with its own exit code (%s)', (how, code) => {
    for (let i = 0; i < 3; i++) {
      const r = run(how);
      expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({ status: code, signal: null, stderr: '' });
    }
  }, 120_000);
});
