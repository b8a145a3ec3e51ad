// A tensor's shape cannot be changed through the array it hands out, as PyTorch's torch.Size is
// immutable: `x.shape.reverse()` (JavaScript reverses in place) or `const s = x.shape; s[0] = 1`
// rewrote x's own shape, and the next op read its buffer as another shape (a device error, or
// wrong values where the sizes matched). Nor by assigning x.shape or x.dtype (an untyped cell can),
// which relabeled x's buffer the same way: that throws what to write instead.
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

  it('assigning x.shape or x.dtype throws what to write instead, and x keeps its shape, dtype and values', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    expect(() => { (x as any).shape = [3, 2]; }).toThrow(new TypeError('x.shape is read-only (as in PyTorch): x.reshape(...) or x.view(...) gives a tensor of another shape'));
    expect(() => { (x as any).dtype = 'int32'; }).toThrow(new TypeError("x.dtype is read-only (as in PyTorch): x.to('bfloat16'), x.float(), x.int() or x.bool() gives a tensor of another dtype"));
    expect([x.shape, x.dtype]).toEqual([[2, 3], 'float32']);
    expect(x.sum(0).tolist()).toEqual([5, 7, 9]);
    expect(x.reshape([3, 2]).tolist()).toEqual([[1, 2], [3, 4], [5, 6]]);
    tpu.mode('strict');
  });
});

it("a DTensor's shape and dtype are read-only too", () => {
  const d = tpu.distributeTensor(tpu.tensor([[1, 2, 3], [4, 5, 6]]), tpu.initDeviceMesh([1]), [tpu.Replicate()]);
  expect(() => { (d as any).shape = [3, 2]; }).toThrow(new TypeError('x.shape is read-only (as in PyTorch): x.reshape(...) or x.view(...) gives a tensor of another shape'));
  expect(() => { (d as any).dtype = 'int32'; }).toThrow(/^x\.dtype is read-only \(as in PyTorch\)/);
  expect([d.shape, d.dtype]).toEqual([[2, 3], 'float32']);
  expect(d.fullTensor().sum(0).tolist()).toEqual([5, 7, 9]);
});
