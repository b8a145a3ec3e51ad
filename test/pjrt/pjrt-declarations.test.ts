// The addon's own declarations of the PJRT C API (native/pjrt-c-api.h) against the libtpu
// installed here: every argument struct of the execute path (client, transfers, execute,
// release) has the size the plugin expects. Checked without chips: see pjrt-struct-sizes.cc.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';

const status = await tpuCompilerInfo();
const gpp = spawnSync('g++', ['--version']).status === 0;
if (!status.available || !gpp) console.warn(`SKIPPED test/pjrt/pjrt-declarations.test.ts: ${status.available ? 'no g++' : status.reason}`);
const dir = mkdtempSync(join(tmpdir(), 'pjrt-sizes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!status.available || !gpp)('the PJRT declarations against libtpu', () => {
  it('give every struct of the execute path the size libtpu expects', () => {
    const probe = join(dir, 'pjrt-struct-sizes');
    const build = spawnSync('g++', ['-std=c++17', '-I', resolve('runtime/device/pjrt/native'), resolve('test/pjrt/pjrt-struct-sizes.cc'), '-ldl', '-o', probe], { encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const env = { ...process.env, TPU_SKIP_MDS_QUERY: '1', TPU_WORKER_HOSTNAMES: 'localhost', TPU_ACCELERATOR_TYPE: 'v5litepod-4' };
    const run = spawnSync(probe, [status.available ? status.libtpuPath : ''], { encoding: 'utf8', env, timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const rows = run.stdout.trim().split('\n').map((line) => {
      const [name, ours] = line.split(' ');
      return { name, ours: Number(ours), expected: Number(/expected (\d+), got 1/.exec(line)?.[1]) };
    });
    expect(rows.map((r) => r.name)).toEqual([
      'ClientCreate', 'ClientPlatformVersion', 'ClientAddressableDevices', 'ClientCompile', 'ClientBufferFromHostBuffer',
      'DeviceGetDescription', 'ExecutableNumOutputs', 'LoadedExecutableDestroy', 'LoadedExecutableGetExecutable',
      'LoadedExecutableExecute', 'BufferDestroy', 'BufferDimensions', 'BufferToHostBuffer', 'EventAwait', 'EventDestroy',
      'ExecuteOptions',
    ]);
    for (const r of rows) expect({ name: r.name, size: r.ours }).toEqual({ name: r.name, size: r.expected });
  });
});
