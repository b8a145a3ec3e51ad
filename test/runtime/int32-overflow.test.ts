// int32 sums, products, cumulative sums and products: PyTorch gives int64, which the TPU session does not
// have; a result outside int32 is a device error, never a wrapped number.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => tpu.mode('strict'));
const ints = (v: number[]) => tpu.tensor(v, { dtype: 'int32' });
const MAX = 2 ** 31 - 1;

describe.each(MODES)('%s mode', (mode) => {
  it('results beyond int32 fail on the device', async () => {
    tpu.mode(mode);
    const overflowing: (() => Tensor)[] = [
      () => ints([MAX, 1]).sum(),
      () => ints([-MAX, -2]).sum(),
      () => ints([65536, 65536]).prod(),
      () => ints([MAX, 1, -5]).cumsum(0),
      () => ints([2 ** 30, 2 ** 30, 2 ** 30, 2 ** 30]).reshape([2, 2]).sum(1),
      () => ints([65536, 65536, 2]).cumprod(0),
      () => ints([46341, 46341]).cumprod(0), // just beyond: 2147488281
      () => ints([-(2 ** 30), -2]).cumprod(0), // +2^31
      () => ints([65536, 65536, 0]).cumprod(0), // a later zero does not undo the overflow before it
      () => ints([1, 3, 1, 1, 1, 2, 5, 2]).reshape([2, 4]).mul(1 << 15).cumprod(1),
    ];
    for (const make of overflowing) {
      await expect(async () => {
        await make().data();
      }).rejects.toThrow(/failed on the device/);
      await tpu.sync().catch(() => undefined);
    }
  });

  it('results that fit are exact, even when partial sums do not', async () => {
    tpu.mode(mode);
    expect(await ints([MAX, 1, -2]).sum().item()).toBe(MAX - 1);
    expect(await ints([MAX, -MAX, 7]).cumsum(0).array()).toEqual([MAX, 0, 7]);
    expect(await ints([46340, 46340]).prod().item()).toBe(46340 * 46340);
    expect(await ints([-(2 ** 31), 1]).sum().item()).toBe(-(2 ** 31) + 1);
    expect(await tpu.tensor([true, true, false]).sum().item()).toBe(2);
    expect(await ints([46340, 46340]).cumprod(0).array()).toEqual([46340, 46340 * 46340]);
    expect(await ints([-(2 ** 30), 2, 1]).cumprod(0).array()).toEqual([-(2 ** 30), -(2 ** 31), -(2 ** 31)]);
    expect(await ints([0, 65536, 65536]).cumprod(0).array()).toEqual([0, 0, 0]);
  });

  it('cumprod is the exact running product, or a device error where it leaves int32', async () => {
    tpu.mode(mode);
    let seed = 7;
    const outcomes = new Set<boolean>();
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let k = 0; k < 12; k++) {
      // factors that cross 2^31 at varied places, some zeros and negatives
      const values = Array.from({ length: 9 }, () => (next() % 2 === 0 ? -1 : 1) * (next() % 23 === 0 ? 0 : next() % (k < 6 ? 40 : 400)));
      const exact: bigint[] = [];
      values.reduce((p, v) => { const q = p * BigInt(v); exact.push(q); return q; }, 1n);
      const fits = exact.every((p) => p >= -(2n ** 31n) && p < 2n ** 31n);
      const run = async () => ints(values).cumprod(0).array();
      if (fits) expect(await run(), `cumprod of ${values}`).toEqual(exact.map(Number));
      else await expect(run(), `cumprod of ${values}`).rejects.toThrow(/failed on the device/);
      await tpu.sync().catch(() => undefined);
      outcomes.add(fits);
    }
    expect(outcomes.size, 'both outcomes drawn').toBe(2);
  });
});
