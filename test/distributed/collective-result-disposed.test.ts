// A collective's result disposed before its fused region runs is still written out (every chip
// runs a collective or none does), then freed. A value computed from it that the region reads
// only once is left as a recipe, not written out, and must still find that result when read:
// x.max(0, true)'s indices (read once, by the gather picking the values) and a product read by
// one add. Found as DTensor.max(0, true) over Shard(0), whose indices failed in fused mode ("its
// input [10, 6] float32 was disposed before it was computed"). In every mode, against values
// worked out by hand; once the values are read and disposed, no gathered buffer is left.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });

/** Chip c's row. Gathered: a [4, 3] tensor whose column maxima are in rows 1, 0 and 2. */
const ROWS = [[1, 8, 3], [5, 2, 0], [4, 6, 9], [0, 7, 2]];
const host = (t: Tensor) => Array.from(t.dataSync(), Number);
const liveBytes = () => tpu.memory().chips.map((c) => c.liveBytes);

describe.each(['debug', 'strict', 'fused'] as const)('a collective result disposed before its region runs, in %s mode', (mode) => {
  /** What `fn` makes from each chip's gathered rows, which are disposed at once: read, then disposed. */
  function readFromGathered(fn: (gathered: Tensor) => Tensor[]): number[][][] {
    const rows = ROWS.map((row, chip) => tpu.tensor([row], { chip }));
    tpu.syncBlocking();
    const before = liveBytes();
    const read = tpu.withMode(mode, () => {
      const gathered = tpu.distributed.allGather(rows, { dim: 0, mesh });
      const made = gathered.map(fn);
      gathered.forEach((g) => g.dispose());
      const values = made.map((ts) => ts.map(host));
      made.flat().forEach((t) => t.dispose());
      return values;
    });
    expect(liveBytes(), 'every gathered buffer freed').toEqual(before);
    return read;
  }

  it('max(0, true): the indices, read only by the gather picking the values', () => {
    const read = readFromGathered((g) => {
      const { values, indices } = g.max(0, true);
      return [indices, values];
    });
    expect(read).toEqual(ROWS.map(() => [[1, 0, 2], [5, 8, 9]]));
  });

  it('a product read by one add', () => {
    const read = readFromGathered((g) => {
      const doubled = g.mul(2);
      return [doubled, doubled.add(1)];
    });
    const doubled = ROWS.flat().map((v) => 2 * v);
    expect(read).toEqual(ROWS.map(() => [doubled, doubled.map((v) => v + 1)]));
  });
});
