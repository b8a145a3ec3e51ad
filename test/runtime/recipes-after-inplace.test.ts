// A value keeps the value it had when it was made, whatever happens later to the tensors it
// was computed from, as every value in PyTorch does. In fused mode a value a region did not
// write out is a recipe, recomputed when read: natural code reads a count of a mask of y (the
// region runs, y and the mask stay recipes), then updates y in place (copy_, add_, an optimizer
// step, a write through a view) or reads and disposes it, then reads the mask. The recipe must
// not read y's new value, loop where y's new value reads the mask, or lose y's old value.
// Expected values are hand-computed from the inputs (all exact in float32).
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { gc } from '../support/settle-gc.js';

const MODES = ['debug', 'strict', 'fused'] as const;

describe.each(MODES)('values computed before their inputs changed, %s mode', (mode) => {
  it('copy_ and add_ of y leave the mask and the product made from y before them as they were', () => {
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
      z.add_(-2);
      expect(positive.array()).toEqual([true, false, true]);
      expect(doubled.array()).toEqual([2, -4, 6]);
      expect(z.array()).toEqual([-1, -4, 1]);
    });
  });

  it('y read, then updated in place: the mask of y made before keeps its value', () => {
    tpu.withMode(mode, () => {
      const y = tpu.tensor([1, -2, 3]).mul(1);
      const m = y.gt(0);
      expect(m.to('int32').sum().item()).toBe(2);
      expect(y.array()).toEqual([1, -2, 3]);
      y.copy_(tpu.tensor([-1, 5, -3]));
      expect(m.array()).toEqual([true, false, true]);
    });
  });

  it('u read, then disposed: the half of u made before keeps its value', () => {
    tpu.withMode(mode, () => {
      const u = tpu.tensor([4, -5, 6]).mul(1);
      const half = u.div(2);
      expect(half.sum().item()).toBe(2.5);
      expect(u.array()).toEqual([4, -5, 6]);
      u.dispose();
      expect(half.array()).toEqual([2, -2.5, 3]);
    });
  });

  it('a mask left a recipe by fused mode keeps its value when y is updated in place in this mode', () => {
    const [y, m] = tpu.withMode('fused', () => {
      const y = tpu.tensor([1, -2, 3]).mul(1);
      const m = y.gt(0);
      expect(m.to('int32').sum().item()).toBe(2);
      return [y, m];
    });
    tpu.withMode(mode, () => {
      y.copy_(tpu.tensor([-1, 5, -3]));
      expect(m.array()).toEqual([true, false, true]);
      expect(y.array()).toEqual([-1, 5, -3]);
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
      expect(m.array()).toEqual([true, false, true]);
    });
  });

  it('a write through a view of y leaves a mask of that view as it was', () => {
    tpu.withMode(mode, () => {
      const y = tpu.tensor([[1, -2], [3, -4]]).mul(1);
      const v = y.T; // [[1, 3], [-2, -4]]
      const m = v.gt(0);
      expect(m.to('int32').sum().item()).toBe(2);
      v.mul_(-1);
      expect(m.array()).toEqual([[true, true], [false, false]]);
      expect(y.array()).toEqual([[-1, 2], [-3, 4]]);
    });
  });

  it('an SGD step on a parameter leaves the mask of the parameter made before it as it was', () => {
    tpu.withMode(mode, () => {
      const w = tpu.tensor([0.5, -0.0625, 0.25]).mul(1).requiresGrad_();
      const active = w.abs().gt(0.3); // [true, false, false]
      expect(active.to('int32').sum().item()).toBe(1);
      w.mul(w).sum().backward(); // w.grad = 2w = [1, -0.125, 0.5]
      const opt = new tpu.optim.SGD([w], { lr: 0.25 });
      opt.step(); // w - 0.25 * 2w = [0.25, -0.03125, 0.125]: none above 0.3 now
      expect(active.array()).toEqual([true, false, false]);
      expect(w.array()).toEqual([0.25, -0.03125, 0.125]);
    });
  });

  it('backward through a relu whose input was written in place since uses the relu\'s result, as PyTorch', () => {
    tpu.withMode(mode, () => {
      const x = tpu.tensor([1, -2, 3]).requiresGrad_();
      const y = x.mul(1);
      const z = y.relu(); // [1, 0, 3]: its gradient rule reads it
      expect(z.gt(0).any().item()).toBe(true);
      tpu.noGrad(() => y.copy_(tpu.tensor([-1, 5, -3])));
      z.sum().backward();
      expect(x.grad!.array()).toEqual([1, 0, 1]);
      expect(z.array()).toEqual([1, 0, 3]);
    });
  });

  it('a value read from a transposed weight in a later region keeps the old weight after copy_, past a collection', async () => {
    const [w, t, p] = tpu.withMode(mode, () => {
      const w = tpu.tensor([[1, -2], [3, -4]]);
      const t = w.T; // a rearrangement of w's buffer: left a recipe, recomputed where read
      expect(t.sum().item()).toBe(-2);
      const p = t.mul(2); // [[2, 6], [-4, -8]], a recipe of the next region reading t
      expect(p.sum().item()).toBe(-4);
      w.copy_(tpu.tensor([[5, 6], [7, 8]]));
      expect(t.array()).toEqual([[5, 7], [6, 8]]); // t follows its base
      return [w, t, p];
    });
    // the old weight is kept for p alone now: a full collection must not free it
    gc();
    await new Promise((r) => setTimeout(r, 10));
    tpu.withMode(mode, () => {
      expect(p.array()).toEqual([[2, 6], [-4, -8]]);
      expect(w.array()).toEqual([[5, 6], [7, 8]]);
      expect(t.array()).toEqual([[5, 7], [6, 8]]);
    });
  });
});
