// libtpu arms SIGPROF timers that kill a Node process at exit (signal 27) unless the addon
// quiets them: a process that compiled something must end with its own exit code.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/exit-code.test.ts: ${status.reason}`);

const script = fileURLToPath(new URL('./compile-then-exit.mjs', import.meta.url));
// Its own TMPDIR: XLA's dump folders (optimized HLO text) must be gone when it has ended
// (except one XLA may still be writing when the process exits mid-compile).
function run(how: string) {
  const tmp = mkdtempSync(join(tmpdir(), 'pjrt-exit-'));
  try {
    const r = spawnSync(process.execPath, [script, how], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, TMPDIR: tmp } });
    return { status: r.status, signal: r.signal, stderr: r.stderr, leftInTmp: readdirSync(tmp) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

describe.skipIf(!status.available)('a process that used libtpu', () => {
  it.each([
    ['natural', 7],
    ['exit', 5],
    ['mid-compile', 4],
  ])('ends with its own exit code (%s)', (how, code) => {
    for (let i = 0; i < 3; i++) {
      const r = run(how);
      expect({ ...r, leftInTmp: how === 'mid-compile' ? [] : r.leftInTmp }).toEqual({ status: code, signal: null, stderr: '', leftInTmp: [] });
    }
  }, 120_000);
});
