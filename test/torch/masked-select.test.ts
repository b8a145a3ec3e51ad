// Reading with a bool mask against PyTorch, in debug, strict and fused mode: x[mask] (a mask of
// x's shape or of its leading dims; x.at(mask) and x.index(mask)) and masked_select (mask and x broadcast), their shapes,
// dtypes, errors and gradients. The count of true values is read from the device: in fused
// mode the pending region runs first, and the ops recorded around the read keep their values.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, seq, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const X = seq('float32', [3, 4], 0.5, -5); // -2.5 .. 3
const ROWS = bool([true, false, true]);

const cases: TorchCase[] = [
  { name: 'x[x > 0]: a mask of x\'s shape gives the selected elements in row-major order', inputs: [X], js: (x) => x.at(x.gt(0)), py: 'x0[x0 > 0]' },
  { name: 'x[mask] over the leading dim picks rows', inputs: [X, ROWS], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x[mask] over two leading dims of three', inputs: [seq('float32', [2, 3, 2]), bool([[true, false, true], [false, false, true]])], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x[mask] of a 0-d true mask adds a dim of 1', inputs: [X, bool(true)], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x[mask] of a 0-d false mask adds a dim of 0', inputs: [X, bool(false)], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x[mask] with nothing selected is empty', inputs: [X, bool([false, false, false])], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x[mask] of a transposed view reads its logical order', inputs: [X], js: (x) => x.T.at(x.T.gt(-1)), py: 'x0.T[x0.T > -1]' },
  { name: 'x[mask] keeps int64, int32, bool and bfloat16', inputs: [i64([5, -6, 7]), i32([1, 2, 3]), bool([true, false, true]), bf16([1.5, -2.25, 3.125]), bool([false, true, true])],
    js: (a, b, c, d, m) => [a.at(m), b.at(m), c.at(m), d.at(m)], py: '(x0[x4], x1[x4], x2[x4], x3[x4])' },
  { name: 'x[mask] with a mask of another length is an error', inputs: [X, bool([true, false])], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x[mask] with a mask of more dims is an error', inputs: [f32([1, 2]), bool([[true], [false]])], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x[mask] with a mask of the wrong trailing size is an error', inputs: [X, bool([[true, false, true], [true, false, true], [true, false, true]])], js: (x, m) => x.at(m), py: 'x0[x1]' },
  { name: 'x.index(mask) is x[mask]: a mask of x\'s shape, over the leading dim, 0-d', inputs: [X, ROWS, bool(false)],
    js: (x, m, z) => [x.index(x.gt(0)), x.index(m), x.index(z)], py: '(x0[x0 > 0], x0[x1], x0[x2])' },
  { name: 'x.index(mask) with a mask of another length is an error', inputs: [X, bool([true, false])], js: (x, m) => x.index(m), py: 'x0[x1]' },
  { name: 'x.index(mask) with a mask of more dims is an error', inputs: [f32([1, 2]), bool([[true], [false]])], js: (x, m) => x.index(m), py: 'x0[x1]' },
  { name: 'gradient of x.index(mask) over the leading dim', inputs: [X, ROWS],
    js: (x, m) => { x.requiresGrad_(); x.index(m).mul(tpu.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])).sum().backward(); return x.grad!; },
    py: 'x = x0.requires_grad_()\n(x[x1] * torch.tensor([[1., 2, 3, 4], [5, 6, 7, 8]])).sum().backward()\nresult = x.grad' },
  { name: 'maskedSelect broadcasts the mask', inputs: [X, bool([true, false, false, true])], js: (x, m) => x.maskedSelect(m), py: 'x0.masked_select(x1)' },
  { name: 'maskedSelect broadcasts the input', inputs: [f32([1, 2]), bool([[true, false], [true, true]])], js: (x, m) => tpu.maskedSelect(x, m), py: 'torch.masked_select(x0, x1)' },
  { name: 'maskedSelect of shapes that do not broadcast is an error', inputs: [X, bool([[true, false, true, true], [false, false, true, true]])], js: (x, m) => x.maskedSelect(m), py: 'x0.masked_select(x1)' },
  { name: 'maskedSelect of a float mask is an error', inputs: [X, f32([1, 0, 0, 1])], js: (x, m) => x.maskedSelect(m), py: 'x0.masked_select(x1)' },
  { name: 'pending work before and after the mask read keeps its values',
    inputs: [X],
    js: (x) => { const y = x.mul(2).add(1); const e = y.exp(); const s = y.at(y.gt(0)); return [s.mul(s).sum(), e.add(1), s.neg()]; },
    py: '(lambda y: ((y[y > 0] ** 2).sum(), y.exp() + 1, -y[y > 0]))(x0 * 2 + 1)' },
  weightedGrad('gradient of x[x > 0] scatters into zeros of x\'s shape', X, (x) => x.at(x.gt(0)), 'x[x > 0]', [1, 2, 3, 4, 5, 6]),
  { name: 'gradient of x[mask] over the leading dim', inputs: [X, ROWS],
    js: (x, m) => { x.requiresGrad_(); x.at(m).mul(tpu.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])).sum().backward(); return x.grad!; },
    py: 'x = x0.requires_grad_()\n(x[x1] * torch.tensor([[1., 2, 3, 4], [5, 6, 7, 8]])).sum().backward()\nresult = x.grad' },
  { name: 'gradient of maskedSelect sums over a broadcast input', inputs: [f32([1, 2]), bool([[true, false], [true, true]])],
    js: (x, m) => { x.requiresGrad_(); x.maskedSelect(m).mul(tpu.tensor([2, 3, 5])).sum().backward(); return x.grad!; },
    py: 'x = x0.requires_grad_()\n(x.masked_select(x1) * torch.tensor([2., 3, 5])).sum().backward()\nresult = x.grad' },
];

torchTier('reading with a bool mask vs PyTorch', cases);

describe('reading with a bool mask: messages', () => {
  const x = tpu.arange(12).reshape([3, 4]);

  it('a mismatched mask names both shapes and the dim, as PyTorch', () => {
    expect(() => x.at(tpu.tensor([true, false]))).toThrow('x[mask]: the shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0');
    expect(() => x.maskedSelect(tpu.ones([2, 4]).gt(0))).toThrow('maskedSelect: shapes [3, 4] (input) and [2, 4] (mask) cannot be broadcast: dimension -2 is 3 vs 2');
    expect(() => x.maskedSelect(tpu.ones([4]))).toThrow('maskedSelect: mask must be a bool tensor; got float32');
    expect(() => x.at(tpu.tensor([true, false, true]), 0)).toThrow('at: a bool mask must be the only index (x[mask])');
    expect(() => x.index(tpu.tensor([true, false]))).toThrow('index(mask): the shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0');
    expect(() => x.index(tpu.ones([3, 4, 1]).gt(0))).toThrow('index(mask): too many indices: the mask [3, 4, 1] has 3 dims, the indexed tensor [3, 4] has 2');
  });

  it('under tpu.compile, which has no mask values while it traces, names what to use', () => {
    const f = tpu.compile((t: typeof x) => t.at(t.gt(3)));
    expect(() => f(x)).toThrow(/x\[mask\]: the result's length is the mask's count of true values, which tpu\.compile does not have while tracing.*x\.where\(mask, 0\)/);
    expect(() => tpu.compile((t: typeof x) => t.index(t.gt(3)))(x)).toThrow(/index\(mask\): the result's length is the mask's count of true values/);
  });
});
