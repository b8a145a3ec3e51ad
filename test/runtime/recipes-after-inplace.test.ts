// A value a fused region left as a recipe keeps the value it had when it was made, after an
// input it reads through another live recipe is updated in place, as every value in PyTorch
// does. Natural code: a mask of y, a count read from it (the region runs, y and the mask stay
// recipes), then y updated in place, then the mask read. The recipe used to read y's new value
// (a wrong mask in fused mode) or, where the new value read the mask, loop (a stack overflow).
// Expected values are hand-computed from the inputs.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const MODES = ['debug', 'strict', 'fused'] as const;

describe.each(MODES)('recipes of values read before an in-place update, %s mode', (mode) => {
  it('copy_ and add_ of y leave the mask made from y before them as it was', () => {
    tpu.withMode(mode, () => {
      const y = tpu.tensor([1, -2, 3]).mul(1);
      const m = y.gt(0);
      expect(m.to('int32').sum().item()).toBe(2);
      y.copy_(tpu.tensor([-1, 5, -3]));
      expect(m.array()).toEqual([true, false, true]);
      expect(y.array()).toEqual([-1, 5, -3]);

      const z = tpu.tensor([1, -2, 3]).mul(1);
      const positive = z.gt(0);
      const doubled = z.mul(2);
      expect(positive.any().item()).toBe(true);
      z.add_(10);
      expect(positive.array()).toEqual([true, false, true]);
      expect(doubled.array()).toEqual([2, -4, 6]);
      expect(z.array()).toEqual([11, 8, 13]);
    });
  });

  it('an optimizer-like update of w leaves a mask of w as it was', () => {
    tpu.withMode(mode, () => {
      const w = tpu.tensor([0.5, -0.05, 0.25]).mul(1);
      const active = w.abs().gt(0.1);
      expect(active.to('int32').sum().item()).toBe(2);
      w.sub_(w.mul(0.5)); // 0.25, -0.025, 0.125: all exact in float32
      expect(active.array()).toEqual([true, false, true]);
      expect(w.array()).toEqual([0.25, -0.025, 0.125].map(Math.fround));
    });
  });

  it('a new value of y computed from a mask of y is written into y', () => {
    tpu.withMode(mode, () => {
      const y = tpu.tensor([1, -2, 3]).mul(1);
      const m = y.gt(0); // [true, false, true]
      expect(m.to('int32').sum().item()).toBe(2);
      const rank = m.to('int32').cumsum(0).sub(1).clamp(0); // [0, 0, 1]
      y.copy_(tpu.tensor([5, 6]).indexSelect(0, rank).where(m, y)); // [5, 5, 6] where m, else y
      expect(y.array()).toEqual([5, -2, 6]);
    });
  });
});
