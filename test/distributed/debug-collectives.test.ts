// Debug mode checks the results of collectives for NaN/Inf as it checks every op's: a sum over
// chips of large finite float32 values overflows to Inf, and the error names the collective, the
// chips that got it and the calling line; the session and every tensor survive it. Strict mode
// returns the Inf, as PyTorch does.
import { describe, expect, it } from 'vitest';
import { tpu, NonFiniteError, type Tensor } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });
const BIG = 3e38; // float32's largest is 3.4028235e38: two of them sum to Inf

/** The error fn throws, and the line it was called from in this file. */
function thrown(fn: () => unknown): { error: Error; line: number } {
  const line = Number(new Error().stack!.split('\n')[2]!.match(/debug-collectives\.test\.ts:(\d+)/)![1]);
  try {
    fn();
  } catch (error) {
    return { error: error as Error, line };
  }
  throw new Error('expected an error');
}

describe('debug mode: NaN/Inf in a collective result', () => {
  it('an all-reduce over every chip that overflows throws naming all_reduce, the chips and the line', () => {
    const xs = mesh.chips.map((chip) => tpu.full([3], BIG, { chip }));
    const { error, line } = thrown(() => tpu.withMode('debug', () => tpu.distributed.allReduce(xs, { mesh })));
    expect(error).toBeInstanceOf(NonFiniteError);
    expect(error.message).toMatch(new RegExp(`^all_reduce produced NaN or Inf on chips 0, 1, 2, 3 \\(output \\[3\\] float32\\) at .*debug-collectives\\.test\\.ts:${line}:`));
    // The session goes on: the inputs are intact and the next collective runs.
    expect(Array.from(xs[3]!.dataSync())).toEqual([BIG, BIG, BIG].map(Math.fround));
    const ok = tpu.withMode('debug', () => tpu.distributed.allReduce(xs.map((x) => x.div(1e30)), { mesh, op: 'mean' }));
    expect(Array.from(ok[2]!.dataSync())).toEqual([3e8, 3e8, 3e8].map(Math.fround));
  });

  it("within the groups of an axis: only the chips whose group overflowed are named", () => {
    // 'tp' groups [0, 1] and [2, 3]: chips 2 and 3 hold BIG, 0 and 1 hold 1.
    const xs = mesh.chips.map((chip) => tpu.full([2, 2], chip >= 2 ? BIG : 1, { chip }));
    const { error } = thrown(() => tpu.withMode('debug', () => tpu.distributed.allReduce(xs, { mesh, axis: 'tp' })));
    expect(error.message).toMatch(/^all_reduce produced NaN or Inf on chips 2, 3 \(output \[2, 2\] float32\)/);
  });

  it('strict mode returns the Inf (the value PyTorch gives)', async () => {
    const xs = mesh.chips.map((chip) => tpu.full([1], BIG, { chip }));
    const sums = tpu.withMode('strict', () => tpu.distributed.allReduce(xs, { mesh }));
    for (const s of sums) expect(Array.from(await s.data())).toEqual([Infinity]);
  });

  it("a collective of backward (an all-gather's reduce-scatter) that overflows throws at the backward() line", () => {
    tpu.withMode('debug', () => {
      const shards = mesh.chips.map((chip) => tpu.full([1], 1e-30, { chip, requiresGrad: true }));
      const full = tpu.distributed.allGather(shards, { mesh, dim: 0 });
      // Each chip's loss is 3e30 · Σ of the 4 rows (finite); their gradients, BIG per row on every chip, sum to Inf.
      const loss = full.map((f) => f.mul(BIG).sum().toChip(0)).reduce((a: Tensor, b) => a.add(b));
      expect(loss.item()).toBeCloseTo(4 * 4 * 1e-30 * BIG, -25);
      const { error, line } = thrown(() => loss.backward());
      expect(error.message).toMatch(new RegExp(`^reduce_scatter produced NaN or Inf on chips 0, 1, 2, 3 \\(output \\[1\\] float32\\) at .*debug-collectives\\.test\\.ts:${line}:`));
      expect(shards[0]!.grad).toBeNull();
    });
  });
});
