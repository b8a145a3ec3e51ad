// JSON.stringify of an object holding tensors, as a notebook logs metrics: each tensor is
// written as its values (tolist()), in every mode. Expected strings are written by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('writes a tensor as its values: 0-d a number, n-d nested arrays, bool as booleans, NaN as null', () => {
    tpu.mode(mode);
    const loss = tpu.tensor([0.25, 0.75]).mean();
    const record = { step: 3, loss, weights: tpu.tensor([[1, 2], [3, 4]]).mul(0.5), seen: tpu.tensor([1, -1]).gt(0), bad: tpu.tensor([NaN]), ids: tpu.tensor([7, 8], { dtype: 'int64' }) };
    expect(JSON.stringify(record)).toBe('{"step":3,"loss":0.5,"weights":[[0.5,1],[1.5,2]],"seen":[true,false],"bad":[null],"ids":[7,8]}');
  });
});
