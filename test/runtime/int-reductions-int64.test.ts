// Sums, products, cumulative sums and products of int32, bool and int64 tensors give int64, as
// in PyTorch: int32 results beyond int32 are exact, and int64 results wrap modulo 2^64 as
// PyTorch's do. The references are BigInt loops written here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { int64Values } from '../support/int64-values.js';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => tpu.mode('strict'));
const ints = (v: number[]) => tpu.tensor(v, { dtype: 'int32' });
const longs = (v: bigint[]) => tpu.tensor(BigInt64Array.from(v));
const MAX = 2 ** 31 - 1;
const wrap = (v: bigint) => BigInt.asIntN(64, v);
const total = (v: readonly bigint[]) => wrap(v.reduce((a, b) => a + b, 0n));
const product = (v: readonly bigint[]) => wrap(v.reduce((a, b) => a * b, 1n));
const running = (v: readonly bigint[], f: (p: readonly bigint[]) => bigint) => v.map((_, i) => f(v.slice(0, i + 1)));

describe.each(MODES)('%s mode', (mode) => {
  it('int32 sums and products beyond int32 are exact int64', async () => {
    tpu.mode(mode);
    const rows: number[][] = [[MAX, 1], [-MAX, -2], [65536, 65536], [46341, 46341], [-(2 ** 30), -2], [2 ** 30, 2 ** 30, 2 ** 30, 2 ** 30]];
    for (const r of rows) {
      const big = r.map(BigInt);
      expect(await int64Values(ints(r).sum()), `sum of ${r}`).toEqual([total(big)]);
      expect(await int64Values(ints(r).prod()), `prod of ${r}`).toEqual([product(big)]);
      expect(await int64Values(ints(r).cumsum(0)), `cumsum of ${r}`).toEqual(running(big, total));
      expect(await int64Values(ints(r).cumprod(0)), `cumprod of ${r}`).toEqual(running(big, product));
    }
    const m = ints([1, 3, 1, 1, 1, 2, 5, 2]).reshape([2, 4]).mul(1 << 15);
    expect(await int64Values(m.cumprod(1))).toEqual([[1, 3, 1, 1], [1, 2, 5, 2]].flatMap((r) => running(r.map((v) => BigInt(v << 15)), product)));
    expect(await int64Values(m.sum(1))).toEqual([[1, 3, 1, 1], [1, 2, 5, 2]].map((r) => total(r.map((v) => BigInt(v << 15)))));
  });

  it('bool sums count in int64', async () => {
    tpu.mode(mode);
    const b = tpu.tensor([true, true, false, true]);
    expect(await int64Values(b.sum())).toEqual([3n]);
    expect(await int64Values(b.cumsum(0))).toEqual([1n, 2n, 2n, 3n]);
    expect(await int64Values(b.prod())).toEqual([0n]);
  });

  it('int64 sums and products wrap modulo 2^64 as PyTorch', async () => {
    tpu.mode(mode);
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let k = 0; k < 6; k++) {
      // factors and terms up to ~2^40: products leave int64 after a few steps, sums near its ends
      const values = Array.from({ length: 7 }, () => BigInt(next() % 2 === 0 ? -1 : 1) * (BigInt(next()) << BigInt(next() % 12)));
      values[0] = k % 2 ? 2n ** 63n - 1n : -(2n ** 63n);
      expect(await int64Values(longs(values).sum()), `sum of ${values}`).toEqual([total(values)]);
      expect(await int64Values(longs(values).cumsum(0)), `cumsum of ${values}`).toEqual(running(values, total));
      expect(await int64Values(longs(values.slice(1)).prod()), `prod of ${values}`).toEqual([product(values.slice(1))]);
      expect(await int64Values(longs(values.slice(1)).cumprod(0)), `cumprod of ${values}`).toEqual(running(values.slice(1), product));
    }
  });

  it('mean of integers is an error, as in PyTorch', async () => {
    tpu.mode(mode);
    expect(() => longs([1n, 2n]).mean()).toThrow(/mean/);
    expect(() => ints([1, 2]).mean()).toThrow(/mean/);
  });
});

describe('tpu.compile', () => {
  it('int32 sums beyond int32 come out int64, on every replay', async () => {
    const f = tpu.compile((x: Tensor) => [x.sum(), x.cumprod(0)]);
    for (const r of [[MAX, 1, 3], [65536, 65536, -2]]) {
      const [s, p] = f(ints(r)) as Tensor[];
      expect(await int64Values(s!)).toEqual([total(r.map(BigInt))]);
      expect(await int64Values(p!)).toEqual(running(r.map(BigInt), product));
    }
  });
});
