// Strict mode enqueues each chip's part of a collective as it is dispatched. In backward, a
// collective's rules run chip after chip: every chip must have room for its part (memory and a
// queue slot) before the first is enqueued, as forward collectives do, else the chips enqueued
// first wait on the interconnect for a part that never comes. Checked with a chip that is full
// when backward reaches an allGather: out-of-memory before any chip starts, and after freeing
// room the same backward gives the gradient a float64 reference says.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { mesh } from '../support/meshes.js';

const ROWS = 64; // 64×1024 float32 pieces: 256 KiB each
const COLS = 1024;
const seedValue = (i: number) => (i % 7) - 3;

describe('strict mode: backward through a collective with a full chip', () => {
  it('throws out-of-memory naming the chip before any chip enqueues its part; the retried backward gives the float64 gradient', () => tpu.withMode('strict', () => {
    const xs = mesh.chips.map((chip) => tpu.full([ROWS, COLS], chip + 1, { chip }).requiresGrad_());
    const gathered = tpu.distributed.allGather(xs, { dim: 0, mesh });
    const seed = tpu.tensor(Float32Array.from({ length: 4 * ROWS * COLS }, (_, i) => seedValue(i)), { chip: 2 }).reshape([4 * ROWS, COLS]);
    tpu.syncBlocking();
    // The other chips get zero seeds (1 MiB) and a 256 KiB result: 2 MiB more than the fullest chip holds is room for them.
    const capacity = Math.max(...tpu.memory().chips.map((c) => c.liveBytes)) + 2 ** 21;
    tpu.setDevice({ hbmBytes: capacity });
    try {
      // Chip 2 keeps 128 KiB free: not room for its 256 KiB part of the reduce-scatter.
      const filler = tpu.tensor(new Float32Array((capacity - tpu.memory().chips[2]!.liveBytes - 2 ** 17) / 4), { chip: 2 });
      expect(() => gathered[2]!.backward(seed, { retainGraph: true })).toThrow(/out of device memory: .* on chip 2 are live/);
      expect(xs.every((x) => x.grad === null)).toBe(true);
      filler.dispose();
      gathered[2]!.backward(seed);
      // float64: piece c's gradient is rows [c·ROWS, (c+1)·ROWS) of the seed (the other chips' results got no gradient).
      xs.forEach((x, c) => {
        const want = Float64Array.from({ length: ROWS * COLS }, (_, i) => seedValue(c * ROWS * COLS + i));
        expect(Array.from(x.grad!.dataSync() as Float32Array)).toEqual(Array.from(want));
      });
      // No part was left waiting: the next collective adds the right values (1 + 2 + 3 + 4).
      const sums = tpu.distributed.allReduce(xs.map((x) => x.detach()), { mesh });
      sums.forEach((t) => expect(new Set(t.dataSync())).toEqual(new Set([10])));
    } finally {
      tpu.setDevice({ hbmBytes: null });
    }
  }), 40_000);
});
