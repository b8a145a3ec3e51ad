// int32 sums, products and cumulative sums: PyTorch gives int64, which the TPU session does not
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
  });
});
