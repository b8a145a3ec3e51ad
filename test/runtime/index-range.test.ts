// Index ranges as PyTorch has them: negative indices count from the end in x.index / x.at
// (advanced indexing) and are errors in indexSelect, gather, scatterAdd, embedding and oneHot;
// out of range is an error everywhere. Indices the host uploaded itself are checked at the
// call; computed indices (device data) fail on the device, and other tensors stay usable.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => tpu.mode('strict'));
const F = tpu.nn.functional;
const ints = (v: number[] | number[][]) => tpu.tensor(v, { dtype: 'int32' });
/** The same values as device data the host does not know (computed on the device). */
const computed = (v: number[] | number[][]) => ints(v).add(0);

describe.each(MODES)('%s mode', (mode) => {
  const x = () => tpu.arange(12, { dtype: 'float32' }).reshape([3, 4]); // rows [0..3], [4..7], [8..11]

  it('negative indices count from the end in index() and at(), host-known or computed', () => {
    tpu.mode(mode);
    for (const make of [ints, computed]) {
      expect(x().index(make([-1, 0])).array()).toEqual([[8, 9, 10, 11], [0, 1, 2, 3]]);
      expect(x().at(':', make([-1, 1])).array()).toEqual([[3, 1], [7, 5], [11, 9]]);
    }
  });

  it('host-known bad indices are errors at the call, naming the op, the value and the range', () => {
    tpu.mode(mode);
    const cases: [string, () => Tensor, string][] = [
      ['indexSelect -1', () => x().indexSelect(0, ints([-1])), 'indexSelect: index -1 at position 0 is out of range [0, 2] (negative indices are errors here, as in PyTorch)'],
      ['indexSelect 3', () => x().indexSelect(0, ints([0, 3])), 'indexSelect: index 3 at position 1 is out of range [0, 2]'],
      ['gather -1', () => x().gather(1, ints([[0], [-1], [0]])), 'gather: index -1 at position 1 is out of range [0, 3]'],
      ['scatterAdd 4', () => tpu.zeros([3, 4]).scatterAdd(1, ints([[4], [0], [0]]), tpu.ones([3, 1])), 'scatterAdd: index 4 at position 0 is out of range [0, 3]'],
      ['embedding -1', () => F.embedding(ints([1, -1]), x()), 'embedding: index -1 at position 1 is out of range [0, 2]'],
      ['oneHot 3', () => F.oneHot(ints([3]), 3), 'oneHot: class 3 at position 0 is out of range [0, 2]'],
      ['index -4', () => x().index(ints([-4])), 'index: index -4 at position 0 is out of range [-3, 2]'],
      ['crossEntropy -1', () => tpu.nn.crossEntropy(x(), ints([0, -1, 2])), 'crossEntropy: target -1 at position 1 is out of range [0, 3]'],
    ];
    for (const [, call, message] of cases) expect(call).toThrow(message);
    // crossEntropy's ignoreIndex is allowed
    expect(Number.isFinite(tpu.nn.crossEntropy(x(), ints([0, -100, 2])).item())).toBe(true);
  });

  it('host-known int64 indices are checked as int32 ones, values beyond 2^53 too', () => {
    tpu.mode(mode);
    const longs = (v: bigint[]) => tpu.tensor(BigInt64Array.from(v), { dtype: 'int64' });
    expect(() => x().indexSelect(0, longs([0n, 2n ** 60n + 1n]))).toThrow('indexSelect: index 1152921504606847000 at position 1 is out of range [0, 2]');
    expect(() => x().indexSelect(0, longs([-(2n ** 60n)]))).toThrow('indexSelect: index -1152921504606847000 at position 0 is out of range [0, 2]');
    expect(() => tpu.nn.crossEntropy(x(), longs([0n, 4n, 1n]))).toThrow('crossEntropy: target 4 at position 1 is out of range [0, 3]');
    expect(x().indexSelect(0, longs([2n, 0n])).array()).toEqual([[8, 9, 10, 11], [0, 1, 2, 3]]);
    // float64 reference: mean over the kept rows of logsumexp(row) - row[target]
    const nll = (labels: number[]) => {
      const kept = labels.map((c, r) => [c, r]).filter(([c]) => c !== -100);
      return kept.reduce((s, [c, r]) => {
        const row = [0, 1, 2, 3].map((j) => 4 * r! + j);
        return s + Math.log(row.reduce((a, v) => a + Math.exp(v), 0)) - row[c!]!;
      }, 0) / kept.length;
    };
    expect(tpu.nn.crossEntropy(x(), longs([3n, 0n, 1n])).item()).toBeCloseTo(nll([3, 0, 1]), 5);
    expect(tpu.nn.crossEntropy(x(), longs([0n, -100n, 1n])).item()).toBeCloseTo(nll([0, -100, 1]), 5);
  });

  it('computed bad indices fail on the device; unrelated tensors stay usable', async () => {
    tpu.mode(mode);
    const kept = tpu.tensor([1, 2, 3]).mul(2);
    await kept.data(); // computed before: not in a failing region (same region: the test below)
    const bad: (() => Tensor)[] = [
      () => x().indexSelect(0, computed([-1])),
      () => x().gather(1, computed([[0], [-1], [0]])),
      () => tpu.zeros([3, 4]).scatterAdd(1, computed([[-1], [0], [0]]), tpu.ones([3, 1])),
      () => F.embedding(computed([-1]), x()),
      () => F.oneHot(computed([-1]), 3),
      () => F.oneHot(computed([3]), 3),
      () => x().index(computed([3])),
      () => tpu.nn.crossEntropy(x(), computed([0, -1, 2])),
    ];
    for (const call of bad) {
      await expect(async () => {
        const t = call();
        await t.data();
      }).rejects.toThrow(/failed on the device|out of data bounds/);
      await tpu.sync().catch(() => undefined);
    }
    expect(await kept.array()).toEqual([2, 4, 6]);
    expect(await x().indexSelect(0, computed([2, 0])).array()).toEqual([[8, 9, 10, 11], [0, 1, 2, 3]]);
  });

  // Fused mode: the tensor is recorded in the region of the failing op; it must not share its fate.
  it('a tensor of the same region as a failing index op stays readable', async () => {
    tpu.mode(mode);
    const kept = tpu.tensor([1, 2, 3]).mul(2);
    await expect(async () => {
      await x().indexSelect(0, computed([-1])).data();
    }).rejects.toThrow(/failed on the device|out of data bounds/);
    await tpu.sync().catch(() => undefined);
    expect(await kept.array()).toEqual([2, 4, 6]);
  });
});

describe('debug mode', () => {
  it('a device error is reported at the op (composed or not), not by the next one', () => {
    tpu.mode('debug');
    const logits = tpu.arange(12, { dtype: 'float32' }).reshape([3, 4]);
    const targets = computed([0, -1, 2]);
    const failing: (() => Tensor)[] = [
      () => tpu.nn.crossEntropy(logits, targets),
      () => logits.indexSelect(0, computed([-1])),
      () => logits.gather(1, computed([[0], [-1], [0]])),
      () => F.embedding(computed([-1]), logits),
    ];
    for (const call of failing) {
      expect(call).toThrow(/failed on the device/);
      // nothing stays pending: an unrelated op and its read work at once
      expect(tpu.tensor([1, 2, 3]).mul(2).array()).toEqual([2, 4, 6]);
    }
    expect(tpu.nn.crossEntropy(logits, computed([3, 0, 1])).item()).toBeCloseTo(
      // float64 reference: mean over rows of logsumexp(row) - row[target]
      [3, 0, 1].reduce((s, c, r) => {
        const row = [0, 1, 2, 3].map((j) => 4 * r + j);
        const lse = Math.log(row.reduce((a, v) => a + Math.exp(v), 0));
        return s + (lse - row[c]!) / 3;
      }, 0),
      5,
    );
  });
});

describe('fused mode, a loop cut at the region size cap', () => {
  it('values that read no device index stay readable after an index error in the same loop', async () => {
    const { setRegionCap } = await import('tpu-kernel/runtime');
    tpu.mode('fused');
    const before = setRegionCap(8);
    try {
      const x = tpu.arange(12, { dtype: 'float32' }).reshape([3, 4]);
      const idx = computed([0, -1]);
      await idx.data();
      let acc = tpu.zeros([2]);
      const bad: Tensor[] = [];
      for (let i = 0; i < 10; i++) {
        acc = acc.add(1);
        bad.push(x.indexSelect(0, idx).sum());
      }
      await expect(tpu.sync()).rejects.toThrow(/failed on the device/);
      expect(await acc.array()).toEqual([10, 10]);
      await expect(bad[9]!.data()).rejects.toThrow(/failed on the device|out of data bounds/);
    } finally {
      setRegionCap(before);
    }
  });
});
