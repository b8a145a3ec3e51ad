// Without TPU chips, libtpu's work (its start, compiles for the profile's figures) runs at idle
// CPU priority, so the CPU executor's threads keep their cores; on a TPU host it runs the
// user's programs and keeps the normal priority. Read from each thread's scheduling policy
// (/proc, field 41: 0 SCHED_OTHER, 5 SCHED_IDLE).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileForTpu, hasTpuChips, tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';
import { MATMUL_TANH } from './programs.js';

const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

function policyOf(statPath: string): number {
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const afterName = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
  return Number(afterName[41 - 3]);
}

const threadPolicies = () => readdirSync('/proc/self/task').map((tid) => policyOf(`/proc/self/task/${tid}/stat`));

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/idle-priority.test.ts: ${status.reason}`);

describe.skipIf(!status.available || process.platform !== 'linux')('libtpu CPU priority', () => {
  it('runs libtpu threads at idle priority without chips, normal with chips; the calling thread keeps its own', async () => {
    await compileForTpu(MATMUL_TANH, { topology: 'v5e:1x1' });
    const idle = threadPolicies().filter((p) => p === SCHED_IDLE).length;
    if (hasTpuChips()) expect(idle).toBe(0);
    else expect(idle).toBeGreaterThan(0);
    expect(policyOf('/proc/thread-self/stat')).toBe(SCHED_OTHER);
  });
});
