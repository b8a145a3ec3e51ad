// Natural code drops large tensors without dispose(): device allocations pace full GCs, so
// the dead ones are freed while the loop runs instead of piling up until V8 collects on its
// own (its JS heap barely grows, so without pacing nothing is freed here at all).
import { expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const MiB = 2 ** 20;

it('frees dropped large tensors during a loop that never disposes', async () => {
  const x = tpu.full([MiB], 1.5); // 4 MiB
  await tpu.sync();
  const before = tpu.memory().liveBytes;
  let highest = 0;
  let y = x;
  for (let i = 0; i < 160; i++) {
    // 640 MiB made in all, one 4 MiB result kept at a time
    y = x.mul(2).add(i);
    await tpu.sync();
    highest = Math.max(highest, tpu.memory().liveBytes - before);
  }
  expect(Array.from((await y.data()).subarray(0, 2))).toEqual([3 + 159, 3 + 159]);
  // Paced every 256 MiB of allocations: dead bytes stay under that plus what a GC finds alive.
  expect(highest).toBeLessThan(320 * MiB);
});
