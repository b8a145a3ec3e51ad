// Tensors a compiled function makes from host values inside its body (tpu.tensor literals) and
// then updates in place are made afresh by every replay, as every eager call makes them: the
// update does not add up across calls, and the results of two calls are two tensors. Values
// hand-computed; every mode.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('an in-place update of a tensor made inside starts from its made value at each call', () => tpu.withMode(mode, () => {
    const f = tpu.compile((x: Tensor) => {
      const t = tpu.tensor([1, 2]);
      t.add_(x);
      return t;
    });
    const x = tpu.tensor([10, 20]);
    const results = [f(x), f(x), f(x)];
    expect(results.map((r) => r.tolist())).toEqual([[11, 22], [11, 22], [11, 22]]);
    expect(new Set(results).size).toBe(3);
  }));

  it('an accumulator made inside and updated twice, with a value read from an argument', () => tpu.withMode(mode, () => {
    const f = tpu.compile((x: Tensor) => {
      const total = tpu.tensor([0, 0, 0]);
      total.add_(x);
      total.mul_(2);
      return total.sum();
    });
    expect([f(tpu.tensor([1, 2, 3])).item(), f(tpu.tensor([1, 1, 1])).item(), f(tpu.tensor([1, 2, 3])).item()]).toEqual([12, 6, 12]);
  }));

  it('a made tensor updated in place but not returned leaves the result as eager', () => tpu.withMode(mode, () => {
    const f = tpu.compile((x: Tensor) => {
      const scratch = tpu.tensor([5, 5]);
      scratch.sub_(x);
      return scratch.mul(x);
    });
    const x = tpu.tensor([1, 2]);
    expect([f(x).tolist(), f(x).tolist()]).toEqual([[4, 6], [4, 6]]);
  }));
});
