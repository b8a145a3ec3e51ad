// kthvalue, mode, nanmedian, quantile and nanquantile against PyTorch 2.13: ties, NaN, ±inf,
// empty dims, negative dims, option forms, integer and bool inputs, errors and gradients.
// Where equal elements tie, PyTorch leaves which index it names to its selection algorithm
// (kthvalue, nanmedian, and nanmedian's row of NaN alone): there the values are compared, and the indices must point at
// elements of that value. mode names the last index of its value, as PyTorch's CPU kernel does
// in rows of up to 16 elements (its std::sort is then an insertion sort, which keeps equal
// elements in order; longer rows' introsort does not, and there the indices must point at the
// value). Rows holding NaN: PyTorch's answer is whatever its sort leaves (known-failures.ts);
// here each NaN is a value of its own, sorted last, checked against hand-worked values.
import { expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, seq, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
/** The values at the indices a (values, indices) pair names: equal to its values when the indices are right. */
const pointed = (x: Tensor, r: { values: Tensor; indices: Tensor }, dim: number) => x.gather(dim, r.indices.unsqueeze(dim)).squeeze(dim);
const DISTINCT = f32([[3, 1, 4, 1.5, 9], [2, 8, 5, -1, 0], [-INF, 7, INF, 6, -0]]);

const cases: TorchCase[] = [
  // kthvalue
  { name: 'kthvalue along the last dim by default, along dims, with keepdim', inputs: [DISTINCT], js: (x) => { const a = x.kthvalue(2); const b = tpu.kthvalue(x, 3, 0, true); const c = x.kthvalue(5, { dim: -1, keepdim: true }); const d = x.kthvalue(1, -2, { keepdim: false }); return [a.values, a.indices, b.values, b.indices, c.values, c.indices, d.values, d.indices]; }, py: 'a = x0.kthvalue(2)\nb = torch.kthvalue(x0, 3, 0, True)\nc = x0.kthvalue(5, dim=-1, keepdim=True)\nd = x0.kthvalue(1, -2, keepdim=False)\nresult = (a.values, a.indices, b.values, b.indices, c.values, c.indices, d.values, d.indices)' },
  { name: 'kthvalue counts NaN above everything', inputs: [f32([[1, N, 3, 2], [N, 5, -INF, 0]])], js: (x) => [x.kthvalue(3, 1).values, x.kthvalue(3, 1).indices, x.kthvalue(4, 1).values, x.kthvalue(4, 1).indices], py: '(x0.kthvalue(3, 1).values, x0.kthvalue(3, 1).indices, x0.kthvalue(4, 1).values, x0.kthvalue(4, 1).indices)' },
  { name: 'kthvalue with ties: values, and indices of equal elements', inputs: [f32([[2, 1, 2, 1, 3], [5, 5, 4, 4, 4], [N, 1, N, 1, 2]])], js: (x) => [2, 3, 5].flatMap((k) => { const r = x.kthvalue(k, 1); return [r.values, pointed(x, r, 1)]; }), py: '[t for k in (2, 3, 5) for t in (x0.kthvalue(k, 1).values, x0.kthvalue(k, 1).values)]' },
  { name: 'kthvalue of ints, int64, bf16 and a 0-d tensor', inputs: [i32([[5, -2, 9], [0, 3, -7]]), i64([7, -3, 2 ** 40]), bf16([0.5, 3.25, -2]), f32(4)], js: (i, l, h, s) => { const a = i.kthvalue(2, 1); const b = l.kthvalue(3); const c = h.kthvalue(1, 0); const d = s.kthvalue(1, 0); return [a.values, a.indices, b.values, b.indices, c.values, c.indices, d.values, d.indices]; }, py: 'a = x0.kthvalue(2, 1)\nb = x1.kthvalue(3)\nc = x2.kthvalue(1, 0)\nd = x3.kthvalue(1, 0)\nresult = (a.values, a.indices, b.values, b.indices, c.values, c.indices, d.values, d.indices)' },
  { name: 'kthvalue along a non-empty dim of an empty tensor', inputs: [seq('float32', [0, 3])], js: (x) => { const r = x.kthvalue(2, 1); return [r.values, r.indices]; }, py: 'r = x0.kthvalue(2, 1)\nresult = (r.values, r.indices)' },
  { name: 'kthvalue with k out of range is an error', inputs: [seq('float32', [2, 3])], js: (x) => x.kthvalue(4, 1).values, py: 'x0.kthvalue(4, 1).values' },
  { name: 'kthvalue with k 0 is an error', inputs: [seq('float32', [2, 3])], js: (x) => x.kthvalue(0).values, py: 'x0.kthvalue(0).values' },
  { name: 'kthvalue over an empty dim is an error', inputs: [seq('float32', [2, 0])], js: (x) => x.kthvalue(1, 1).values, py: 'x0.kthvalue(1, 1).values' },
  { name: 'kthvalue of bools is an error', inputs: [bool([true, false])], js: (x) => x.kthvalue(1).values, py: 'x0.kthvalue(1).values' },
  { name: 'kthvalue with a dim out of range is an error', inputs: [seq('float32', [2, 3])], js: (x) => x.kthvalue(1, 2).values, py: 'x0.kthvalue(1, 2).values' },
  // mode
  { name: 'mode: the smallest of the most frequent values, at its last index', inputs: [f32([[2, 1, 2, 1, 3], [5, 5, 4, 4, 4], [-INF, 7, INF, 7, -INF], [9, 8, 7, 6, 5]])], js: (x) => { const a = x.mode(); const b = x.mode(1, true); const c = x.mode({ dim: -1 }); return [a.values, a.indices, b.values, b.indices, c.indices]; }, py: 'a = x0.mode()\nb = x0.mode(1, True)\nc = x0.mode(dim=-1)\nresult = (a.values, a.indices, b.values, b.indices, c.indices)' },
  { name: 'mode along dim 0 and with keepdim options', inputs: [f32([[1, 2, 3], [1, 3, 3], [2, 3, 1], [2, 2, 1]])], js: (x) => { const a = x.mode(0); const b = x.mode(-2, { keepdim: true }); return [a.values, a.indices, b.values, b.indices]; }, py: 'a = x0.mode(0)\nb = x0.mode(-2, keepdim=True)\nresult = (a.values, a.indices, b.values, b.indices)' },
  { name: 'mode of ints, int64, bools, bf16 and a 0-d tensor', inputs: [i32([[3, -1, 3, -1], [0, 0, 7, 7]]), i64([2 ** 40, 5, 2 ** 40]), bool([true, false, true, false]), bf16([0.5, 0.25, 0.25]), f32(3)], js: (i, l, b, h, s) => [i.mode(1).values, i.mode(1).indices, l.mode().values, l.mode().indices, b.mode().values, b.mode().indices, h.mode().values, h.mode().indices, s.mode().values, s.mode().indices], py: '(x0.mode(1).values, x0.mode(1).indices, x1.mode().values, x1.mode().indices, x2.mode().values, x2.mode().indices, x3.mode().values, x3.mode().indices, x4.mode().values, x4.mode().indices)' },
  { name: 'mode of rows holding NaN', inputs: [f32([[N, 1, N, 1, 2]])], js: (x) => [x.mode(1).values, x.mode(1).indices], py: '(x0.mode(1).values, x0.mode(1).indices)' },
  { name: 'mode along a non-empty dim of an empty tensor', inputs: [seq('float32', [0, 3])], js: (x) => { const r = x.mode(1); return [r.values, r.indices]; }, py: 'r = x0.mode(1)\nresult = (r.values, r.indices)' },
  { name: 'mode over an empty dim is an error', inputs: [seq('float32', [2, 0])], js: (x) => x.mode(1).values, py: 'x0.mode(1).values' },
  { name: 'mode with a misspelt option is an error', inputs: [seq('float32', [2, 3])], js: (x) => x.mode({ dimm: 1 } as never).values, py: 'x0.mode(dimm=1).values' },
  // nanmedian
  { name: 'nanmedian of all elements skips NaN', inputs: [f32([[3, N, 1], [N, 4, 2]]), f32([N, N]), f32([-INF, N, INF, 5]), i32([5, -3, 8, 0]), bf16([0.5, N, 3])], js: (a, b, c, d, e) => [a.nanmedian(), tpu.nanmedian(b), c.nanmedian(), d.nanmedian(), e.nanmedian()], py: '(x0.nanmedian(), torch.nanmedian(x1), x2.nanmedian(), x3.nanmedian(), x4.nanmedian())' },
  { name: 'nanmedian of an empty float tensor is NaN', inputs: [seq('float32', [0, 3])], js: (x) => x.nanmedian(), py: 'x0.nanmedian()' },
  { name: 'nanmedian along a dim with its indices', inputs: [f32([[3, N, 4, 1.5], [2, 8, 5, N], [N, 1, N, N], [N, N, 7, N]])], js: (x) => { const a = x.nanmedian(1); const b = tpu.nanmedian(x, -1, true); const c = x.nanmedian({ dim: 0 }); return [a.values, a.indices, b.values, b.indices, c.values, c.indices]; }, py: 'a = x0.nanmedian(1)\nb = torch.nanmedian(x0, -1, True)\nc = x0.nanmedian(dim=0)\nresult = (a.values, a.indices, b.values, b.indices, c.values, c.indices)' },
  { name: 'nanmedian with ties: values, and indices of equal elements', inputs: [f32([[2, 1, 2, 1, 3], [5, 5, 4, 4, 4], [N, 1, N, 1, 2], [N, N, 3, 3, N], [N, N, N, N, N]])], js: (x) => { const r = x.nanmedian(1); return [r.values, pointed(x, r, 1)]; }, py: 'r = x0.nanmedian(1)\nresult = (r.values, r.values)' },
  { name: 'nanmedian along a dim of ints and a 0-d tensor', inputs: [i64([[5, -2, 9], [0, 3, -7]]), f32(N)], js: (i, s) => [i.nanmedian(1).values, i.nanmedian(1).indices, s.nanmedian(0).values, s.nanmedian(0).indices], py: '(x0.nanmedian(1).values, x0.nanmedian(1).indices, x1.nanmedian(0).values, x1.nanmedian(0).indices)' },
  { name: 'nanmedian over an empty dim is an error', inputs: [seq('float32', [2, 0])], js: (x) => x.nanmedian(1).values, py: 'x0.nanmedian(1).values' },
  { name: 'nanmedian of bools is an error', inputs: [bool([true, false])], js: (x) => x.nanmedian(), py: 'x0.nanmedian()' },
  // quantile nanquantile
  { name: 'quantile of all elements with each interpolation', inputs: [f32([[3, 1, 4, 1.5], [9, 2, 6, 5]]), f32([0, 0.1, 0.25, 0.5, 0.75, 1 / 3, 0.9, 1])], js: (x, q) => ['linear', 'lower', 'higher', 'midpoint', 'nearest'].map((m) => x.quantile(q, { interpolation: m as 'linear' })), py: '[x0.quantile(x1, interpolation=m) for m in ("linear", "lower", "higher", "midpoint", "nearest")]' },
  { name: 'quantile with a number q along dims, keepdim, and ranks that round', inputs: [seq('float32', [3, 11], 0.5, -4)], js: (x) => [x.quantile(0.3, 1), tpu.quantile(x, 0.7, 0, true), x.quantile(0.3, -1, { interpolation: 'higher' }), x.quantile(0.5, { keepdim: true }), x.quantile(0.45, { dim: 1, interpolation: 'nearest' }), x.quantile(0.25, 0, { interpolation: 'lower', keepdim: true })], py: '(x0.quantile(0.3, 1), torch.quantile(x0, 0.7, 0, True), x0.quantile(0.3, -1, interpolation="higher"), x0.quantile(0.5, keepdim=True), x0.quantile(0.45, dim=1, interpolation="nearest"), x0.quantile(0.25, 0, interpolation="lower", keepdim=True))' },
  { name: 'quantile with a 1-d q along a dim puts q first; a 0-d q adds no dim', inputs: [f32([[3, 1, 4, 1.5, 2], [9, 2, 6, 5, 3]]), f32([0.2, 0.5, 0.95]), f32(0.4)], js: (x, q, s) => [x.quantile(q, 1), x.quantile(q, 0, true), x.quantile(q, { keepdim: true }), x.quantile(s, 1), x.quantile(q, 1, { interpolation: 'midpoint' })], py: '(x0.quantile(x1, 1), x0.quantile(x1, 0, True), x0.quantile(x1, keepdim=True), x0.quantile(x2, 1), x0.quantile(x1, 1, interpolation="midpoint"))' },
  { name: 'quantile is NaN where a row holds NaN; nanquantile skips NaN', inputs: [f32([[1, N, 3, 2], [N, N, N, N], [-INF, 4, INF, 0], [5, 1, 5, 2]]), f32([0, 0.4, 1])], js: (x, q) => [x.quantile(q, 1), x.nanquantile(q, 1), tpu.nanquantile(x, 0.5, { dim: 1, interpolation: 'lower' }), x.nanquantile(0.5), x.quantile(0.5)], py: '(x0.quantile(x1, 1), x0.nanquantile(x1, 1), torch.nanquantile(x0, 0.5, dim=1, interpolation="lower"), x0.nanquantile(0.5), x0.quantile(0.5))' },
  { name: 'quantile of a 0-d tensor and of one element', inputs: [f32(3), f32([[7]])], js: (s, o) => [s.quantile(0.5), s.quantile(0.2, 0), o.quantile(0.9, 1, true)], py: '(x0.quantile(0.5), x0.quantile(0.2, 0), x1.quantile(0.9, 1, True))' },
  { name: 'quantile with q above 1 is an error', inputs: [f32([1, 2])], js: (x) => x.quantile(1.5), py: 'x0.quantile(1.5)' },
  { name: 'quantile with a negative q is an error', inputs: [f32([1, 2])], js: (x) => x.nanquantile(-0.1), py: 'x0.nanquantile(-0.1)' },
  { name: 'quantile with a q tensor holding a value above 1 is an error', inputs: [f32([1, 2]), f32([0.5, 1.2])], js: (x, q) => x.quantile(q), py: 'x0.quantile(x1)' },
  { name: 'quantile with a q of another dtype is an error', inputs: [f32([1, 2]), i64([0])], js: (x, q) => x.quantile(q), py: 'x0.quantile(x1)' },
  { name: 'quantile of ints is an error', inputs: [i32([1, 2])], js: (x) => x.quantile(0.5), py: 'x0.quantile(0.5)' },
  { name: 'quantile of bf16 is an error', inputs: [bf16([1, 2])], js: (x) => x.quantile(0.5), py: 'x0.quantile(0.5)' },
  { name: 'quantile of an empty tensor is an error', inputs: [seq('float32', [0])], js: (x) => x.quantile(0.5), py: 'x0.quantile(0.5)' },
  { name: 'quantile with an unknown interpolation is an error', inputs: [f32([1, 2])], js: (x) => x.quantile(0.5, { interpolation: 'lin' as never }), py: 'x0.quantile(0.5, interpolation="lin")' },
  { name: 'quantile with a 2-d q is an error', inputs: [f32([1, 2]), f32([[0.5]])], js: (x, q) => x.quantile(q), py: 'x0.quantile(x1)' },
  // gradients
  weightedGrad('kthvalue gradient goes to its index', f32([[3, 1, 4, 1.5], [2, 8, 5, -1]]), (x) => x.kthvalue(2, 1).values, 'x.kthvalue(2, 1).values', [1, -2]),
  { name: 'mode of rows longer than 16 elements: the value, and an index holding it', inputs: [f32([Array.from({ length: 33 }, (_, k) => k % 3), Array.from({ length: 33 }, (_, k) => (k * 7) % 5 - 2)])], js: (x) => { const r = x.mode(1); return [r.values, pointed(x, r, 1)]; }, py: '(x0.mode(1).values, x0.mode(1).values)' },
  weightedGrad('mode gradient goes to its index', f32([[3, 1, 3, 1.5], [2, 2, 5, 5]]), (x) => x.mode(1).values, 'x.mode(1).values', [1, -2]),
  weightedGrad('nanmedian gradient is shared among equal elements', f32([[1, N, 2, 2], [3, 2, N, 0]]), (x) => x.nanmedian(), 'x.nanmedian()', 3),
  weightedGrad('nanmedian gradient of all NaN goes to the NaNs', f32([N, N, N]), (x) => x.nanmedian(), 'x.nanmedian()', 3),
  weightedGrad('nanmedian along a dim: the gradient to its index', f32([[3, N, 4, 1.5], [2, 8, 5, -1]]), (x) => x.nanmedian(1).values, 'x.nanmedian(1).values', [1, -2]),
  weightedGrad('quantile gradient interpolates between its neighbours', f32([[3, 1, 4, 1.5, 2], [9, 2, 6, 5, 3]]), (x) => x.quantile(tpu.tensor([0.1, 0.6]), 1), 'x.quantile(torch.tensor([0.1, 0.6]), 1)', [[1, -2], [0.5, 3]]),
  weightedGrad('nanquantile gradient', f32([[3, N, 4, 1.5], [2, 8, 5, N]]), (x) => x.nanquantile(0.7, 1, { interpolation: 'midpoint' }), 'x.nanquantile(0.7, 1, interpolation="midpoint")', [1, -2]),
];

torchTier('kthvalue, mode, nanmedian and quantiles follow PyTorch', cases, { compile: true });

it('mode of rows holding NaN: each NaN a value of its own, sorted last (hand-worked)', () => {
  const x = tpu.tensor([[3, N, 3, N, N, 3], [N, N, N, 1, 1, N], [N, 2, N, 2, N, 5], [N, 4, N, 1, 2, N], [N, N, N, N, N, N]]);
  const r = x.mode(1);
  // 3 three times; 1 twice; 2 twice; 4, 1, 2 once each, 1 the smallest; only NaNs: the first
  expect(r.values.tolist()).toEqual([3, 1, 2, 1, N]);
  expect(r.indices.tolist()).toEqual([5, 4, 3, 3, 0]);
});
