// A tensor's shape cannot be changed through the array it hands out, as PyTorch's torch.Size is
// immutable: `x.shape.reverse()` (JavaScript reverses in place) or `const s = x.shape; s[0] = 1`
// rewrote x's own shape, and the next op read its buffer as another shape (a device error, or
// wrong values where the sizes matched).
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('a mutation of x.shape throws and x keeps its shape and values', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    expect(() => (x.shape as number[]).reverse()).toThrow(TypeError);
    expect(() => { (x.shape as number[])[0] = 3; }).toThrow(TypeError);
    expect(x.shape).toEqual([2, 3]);
    // the reversed dims as JavaScript writes them without mutating: a copy
    expect(x.permute([...x.shape].map((_, i) => x.ndim - 1 - i)).tolist()).toEqual([[1, 4], [2, 5], [3, 6]]);
    expect(x.sum(1).tolist()).toEqual([6, 15]);
    tpu.mode('strict');
  });
});
