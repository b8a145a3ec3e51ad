// Tensor methods and functions PyTorch code reaches for, against PyTorch 2.13 in every mode:
// x.type_as, view_as, clamp_min/clamp_max, new_zeros/new_ones/new_full/new_empty/new_tensor (x's dtype),
// torch.max/torch.min in their three forms, in-place unary ops (relu_, exp_, ...), and iterating
// a tensor over its first dim. Random fills and nn.init are checked in test/training/nn-init.test.ts.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  { name: 'typeAs truncates to an int dtype and widens back', inputs: [f32([1.5, -2.5, 3.9]), i32([1]), i64([1])], js: (x, a, b) => [x.typeAs(a), x.typeAs(b), a.typeAs(x)], py: '(x0.type_as(x1), x0.type_as(x2), x1.type_as(x0))' },
  { name: 'viewAs is a view: a write through it reaches x', inputs: [f32([1, 2, 3, 4, 5, 6])], js: (x) => { const v = x.clone(); const w = v.viewAs(tpu.zeros([2, 3])); w.at(0, 1).fill_(100); return [w, v]; }, py: 'v = x0.clone(); w = v.view_as(torch.zeros(2, 3)); w[0, 1] = 100\nresult = (w, v)' },
  { name: 'clampMin and clampMax, by numbers and tensors, NaN kept', inputs: [f32([-1, 0.5, 2, NaN]), f32([0, 1, 1, 0])], js: (x, b) => [x.clampMin(0), x.clampMax(1), x.clampMin(b), tpu.tensor(new Int32Array([-3, 4])).clampMax(2)], py: '(x0.clamp_min(0), x0.clamp_max(1), x0.clamp_min(x1), torch.tensor([-3, 4], dtype=torch.int32).clamp_max(2))' },
  { name: "newZeros newOnes newEmpty newFull newTensor take x's dtype", inputs: [i32([1, 2]), f32([0.5])], js: (a, x) => [a.newZeros(2, 3), a.newOnes([2]), a.newEmpty([1]).fill_(7), a.newFull([2], 7), a.newTensor([3, 4]), x.newFull([1, 2], 0.25), x.newZeros([2], { dtype: 'int64' })], py: '(x0.new_zeros(2, 3), x0.new_ones([2]), x0.new_empty([1]).fill_(7), x0.new_full([2], 7), x0.new_tensor([3, 4]), x1.new_full([1, 2], 0.25), x1.new_zeros([2], dtype=torch.int64))' },
  { name: 'tpu.max and tpu.min: whole, along a dim, elementwise', inputs: [f32([[1, 5], [7, 2]]), f32([[3, 3], [3, 3]])], js: (x, y) => [tpu.max(x), tpu.min(x), tpu.max(x, 1).values, tpu.max(x, 1).indices, tpu.min(x, 0, true).values, tpu.max(x, y), tpu.min(x, y)], py: '(torch.max(x0), torch.min(x0), torch.max(x0, 1).values, torch.max(x0, 1).indices, torch.min(x0, 0, True).values, torch.max(x0, x1), torch.min(x0, x1))' },
  { name: 'in-place unary ops write the value into x, also through a view', inputs: [f32([-1.5, 0.25, 2, -4]), f32([0.5, 0.25, 2, 4])], js: (x, p) => { const signed = ['relu_', 'sigmoid_', 'tanh_', 'exp_', 'abs_', 'neg_', 'floor_', 'round_', 'reciprocal_', 'square_', 'sin_'] as const; const positive = ['sqrt_', 'log1p_', 'log_', 'rsqrt_'] as const; const y = x.clone(); y.at('1:3').exp_(); return [...signed.map((n) => x.clone()[n]()), ...positive.map((n) => p.clone()[n]()), y]; }, py: "y = x0.clone(); y[1:3].exp_()\nresult = tuple(getattr(x0.clone(), n)() for n in ['relu_', 'sigmoid_', 'tanh_', 'exp_', 'abs_', 'neg_', 'floor_', 'round_', 'reciprocal_', 'square_', 'sin_']) + tuple(getattr(x1.clone(), n)() for n in ['sqrt_', 'log1p_', 'log_', 'rsqrt_']) + (y,)" },
  { name: 'the gradient through an in-place unary op of a non-leaf', inputs: [f32([-1, 0.5, 2])], js: (x) => { const w = x.clone().requiresGrad_(); const y = w.mul(2); y.relu_(); y.exp_(); y.sum().backward(); return w.grad!; }, py: 'w = x0.clone().requires_grad_(); y = w * 2; y.relu_(); y.exp_(); y.sum().backward(); result = w.grad' },
  { name: 'an in-place unary op of a leaf that requires grad is an error', inputs: [f32([1])], js: (x) => x.clone().requiresGrad_().exp_(), py: 'x0.clone().requires_grad_().exp_()' },
  { name: 'iterating a tensor gives its rows', inputs: [f32([[1, 2], [3, 4], [5, 6]])], js: (x) => [...x], py: 'tuple(x0)' },
  { name: 'iterating a 1-D tensor gives 0-d tensors, and a destructuring takes the first', inputs: [i64([7, 8, 9])], js: (x) => { const [first, second] = x; return [...x, first!, second!]; }, py: '(*x0, x0[0], x0[1])' },
  { name: 'iterating a 0-d tensor is an error', inputs: [f32(3)], js: (x) => [...x], py: 'tuple(x0)' },
];

torchTier('PyTorch tensor habits follow PyTorch', cases);

describe('PyTorch tensor habits', () => {
  it('a gradient flows through the rows a loop over a tensor reads, and through newTensor it does not', () => {
    const w = tpu.tensor([[1, 2], [3, 4]], { requiresGrad: true });
    let total = tpu.zeros([]);
    for (const row of w) total = total.add(row.mul(row).sum());
    total.backward();
    expect(w.grad!.tolist()).toEqual([[2, 4], [6, 8]]); // d/dw Σ w² = 2w
    expect(w.newTensor([1, 2]).requiresGrad).toBe(false);
    expect(w.newZeros([2], { requiresGrad: true }).requiresGrad).toBe(true);
  });

  it('errors name the method and the argument', () => {
    const x = tpu.ones([2]);
    expect(() => x.newZeros([2], { dtpye: 'int32' } as never)).toThrow(/x\.newZeros: unknown option 'dtpye'/);
    expect(() => x.typeAs('int32' as never)).toThrow("typeAs: other must be a tensor; got string \"int32\"");
    expect(() => tpu.max(3 as never)).toThrow('tpu.max: input must be a tensor; got number 3');
  });
});
