// searchsorted bucketize bincount histc unique against PyTorch 2.13 in every mode: ties on
// either side, NaN values and NaN boundaries, N-D boundaries, weights and minlength, values
// outside histc's range, inverse indices and counts, and PyTorch's errors for bad input.
// Under tpu.compile only searchsorted and bucketize (static shapes) run; the others' result
// size is read from the device, which a traced function cannot do (checked below).
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const N = NaN;

const staticShapes: TorchCase[] = [
  { name: 'searchsorted left and right with ties', inputs: [f32([1, 3, 3, 5]), f32([0, 1, 3, 4, 5, 6, -0])], js: (s, v) => [tpu.searchsorted(s, v), tpu.searchsorted(s, v, { right: true }), tpu.searchsorted(s, v, { side: 'right' }), tpu.searchsorted(s, v, { side: 'left' })], py: "(torch.searchsorted(x0, x1), torch.searchsorted(x0, x1, right=True), torch.searchsorted(x0, x1, side='right'), torch.searchsorted(x0, x1, side='left'))" },
  { name: 'searchsorted of NaN values and NaN boundaries', inputs: [f32([1, 3, N, N]), f32([0, 3, 6, N, Infinity, -Infinity])], js: (s, v) => [tpu.searchsorted(s, v), tpu.searchsorted(s, v, { right: true }), tpu.searchsorted(s.slice(0, 0, 2), v)], py: '(torch.searchsorted(x0, x1), torch.searchsorted(x0, x1, right=True), torch.searchsorted(x0[:2], x1))' },
  { name: 'searchsorted with N-D boundaries', inputs: [f32([[1, 3, 5], [2, 4, 6]]), f32([[3, 0], [3, 7]])], js: (s, v) => [tpu.searchsorted(s, v), tpu.searchsorted(s, v, { right: true, outInt32: true })], py: '(torch.searchsorted(x0, x1), torch.searchsorted(x0, x1, right=True, out_int32=True))' },
  { name: 'searchsorted of ints, a number and a 2-D input', inputs: [i64([1, 3, 5, 2 ** 40]), i32([[0, 5], [6, 1]])], js: (s, v) => [tpu.searchsorted(s, v), tpu.searchsorted(s, 3, { right: true }), tpu.searchsorted(s, 2 ** 40)], py: '(torch.searchsorted(x0, x1), torch.searchsorted(x0, 3, right=True), torch.searchsorted(x0, 2 ** 40))' },
  { name: 'searchsorted of bf16', inputs: [bf16([0.1, 0.5, 2.5]), bf16([0.1, 1, 3])], js: (s, v) => tpu.searchsorted(s, v), py: 'torch.searchsorted(x0, x1)' },
  { name: 'bucketize left and right, as a method and of a number', inputs: [f32([0, 1, 3, 6, N]), f32([1, 3, 5])], js: (v, b) => [v.bucketize(b), tpu.bucketize(v, b, { right: true }), tpu.bucketize(3, b), v.bucketize(b, { outInt32: true })], py: '(torch.bucketize(x0, x1), torch.bucketize(x0, x1, right=True), torch.bucketize(3, x1), torch.bucketize(x0, x1, out_int32=True))' },
  { name: 'searchsorted with mismatched leading dims is an error', inputs: [f32([[1, 3, 5], [2, 4, 6]]), f32([3])], js: (s, v) => tpu.searchsorted(s, v), py: 'torch.searchsorted(x0, x1)' },
  { name: 'bucketize by 2-D boundaries is an error', inputs: [f32([0, 3]), f32([[1, 3, 5]])], js: (v, b) => tpu.bucketize(v, b), py: 'torch.bucketize(x0, x1)' },
  { name: 'searchsorted with side left and right true is an error', inputs: [f32([1, 3]), f32([3])], js: (s, v) => tpu.searchsorted(s, v, { side: 'left', right: true }), py: "torch.searchsorted(x0, x1, side='left', right=True)" },
];

const readSizes: TorchCase[] = [
  { name: 'bincount counts, with minlength and of int32', inputs: [i64([1, 3, 1, 0, 5]), i32([2, 2, 0])], js: (x, y) => [x.bincount(), tpu.bincount(x, { minlength: 8 }), y.bincount(), x.bincount({ minlength: 2 })], py: '(x0.bincount(), torch.bincount(x0, minlength=8), x1.bincount(), x0.bincount(minlength=2))' },
  { name: 'bincount with float32 weights', inputs: [i64([1, 3, 1, 0, 5]), f32([0.5, 1, 2, 3, -4])], js: (x, w) => [x.bincount({ weights: w }), x.bincount({ weights: w, minlength: 7 })], py: '(x0.bincount(x1), x0.bincount(x1, minlength=7))' },
  { name: 'bincount of an empty input', inputs: [i64([])], js: (x) => [x.bincount(), x.bincount({ minlength: 3 })], py: '(x0.bincount(), x0.bincount(minlength=3))' },
  { name: 'bincount of a negative value is an error', inputs: [i64([1, -1])], js: (x) => x.bincount(), py: 'x0.bincount()' },
  { name: 'bincount of floats is an error', inputs: [f32([1, 2])], js: (x) => x.bincount(), py: 'x0.bincount()' },
  { name: 'bincount of 2-D input is an error', inputs: [i64([[1, 2]])], js: (x) => x.bincount(), py: 'x0.bincount()' },
  { name: 'bincount with weights of another length is an error', inputs: [i64([1, 2, 3]), f32([1, 2])], js: (x, w) => x.bincount({ weights: w }), py: 'x0.bincount(x1)' },
  { name: 'bincount with a negative minlength is an error', inputs: [i64([1])], js: (x) => x.bincount({ minlength: -1 }), py: 'x0.bincount(minlength=-1)' },
  { name: 'histc with a range: outside values and NaN are dropped, max is in the last bin', inputs: [f32([1, 2, 1, 4, N, -1, 4.5, 0, 3.999])], js: (x) => [x.histc(4, 0, 4), tpu.histc(x, { bins: 2, min: 1, max: 3 })], py: '(x0.histc(4, 0, 4), torch.histc(x0, bins=2, min=1, max=3))' },
  { name: 'histc of the data range, and of equal values', inputs: [f32([1, 2, 1, 4, 2.5, 3.25]), f32([3, 3])], js: (x, y) => [x.histc(4), y.histc(4), tpu.histc(x), x.histc({ bins: 3 })], py: '(x0.histc(4), x1.histc(4), torch.histc(x0), x0.histc(bins=3))' },
  { name: 'histc of fractions at bin edges', inputs: [f32([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1])], js: (x) => [x.histc(10, 0, 1), x.histc(3, 0, 1), x.histc(7, 0.1, 0.8)], py: '(x0.histc(10, 0, 1), x0.histc(3, 0, 1), x0.histc(7, 0.1, 0.8))' },
  { name: 'histc of the data range with NaN is an error', inputs: [f32([1, N, 3])], js: (x) => x.histc(4), py: 'x0.histc(4)' },
  { name: 'histc of the data range with inf is an error', inputs: [f32([1, Infinity])], js: (x) => x.histc(4), py: 'x0.histc(4)' },
  { name: 'histc of infinities in a range, of 2-D and of an empty input', inputs: [f32([1, Infinity, -Infinity]), f32([[1, 2], [3, 4]]), f32([])], js: (x, y, e) => [x.histc(4, 0, 2), y.histc(2), e.histc(4)], py: '(x0.histc(4, 0, 2), x1.histc(2), x2.histc(4))' },
  { name: 'histc of bf16', inputs: [bf16([1, 2, 0.5, 2.5])], js: (x) => x.histc(4, 0, 3), py: 'x0.histc(4, 0, 3)' },
  { name: 'histc of ints is an error', inputs: [i64([1, 2])], js: (x) => x.histc(4), py: 'x0.histc(4)' },
  { name: 'histc with max below min is an error', inputs: [f32([1, 2])], js: (x) => x.histc(4, 3, 1), py: 'x0.histc(4, 3, 1)' },
  { name: 'histc with no bins is an error', inputs: [f32([1, 2])], js: (x) => x.histc(-1), py: 'x0.histc(-1)' },
  { name: 'unique values, inverse and counts', inputs: [i64([3, 1, 3, 2, 2 ** 40, 3])], js: (x) => [x.unique(), ...tpu.unique(x, { returnInverse: true, returnCounts: true }), ...x.unique({ returnCounts: true }), ...x.unique({ returnInverse: true, sorted: false })], py: '(x0.unique(), *torch.unique(x0, return_inverse=True, return_counts=True), *x0.unique(return_counts=True), *x0.unique(return_inverse=True, sorted=False))' },
  { name: 'unique of a 2-D tensor: inverse of its shape', inputs: [i32([[3, 1], [1, 3], [0, 3]])], js: (x) => x.unique({ returnInverse: true, returnCounts: true }), py: 'x0.unique(return_inverse=True, return_counts=True)' },
  { name: 'unique of floats: each NaN apart, -0 and 0 one value', inputs: [f32([3, N, 1, N, -0, 0, -Infinity, 1])], js: (x) => x.unique({ returnInverse: true, returnCounts: true }), py: 'x0.unique(return_inverse=True, return_counts=True)' },
  { name: 'unique of bools and bf16', inputs: [bf16([0.1, 0.1, 3, -2]), f32([1])], js: (h, f) => [h.unique(), f.gt(0).unique(), f.lt(0).unique({ returnCounts: true })[1]!], py: '(x0.unique(), (x1 > 0).unique(), (x1 < 0).unique(return_counts=True)[1])' },
  { name: 'unique along a dim', inputs: [i64([[1, 2], [1, 2], [0, 5], [1, 0]]), f32([[2, 1, 2], [5, 0, 5]])], js: (x, y) => [...x.unique({ dim: 0, returnInverse: true, returnCounts: true }), ...y.unique({ dim: 1, returnInverse: true, returnCounts: true }), x.unique({ dim: -1 })], py: '(*x0.unique(dim=0, return_inverse=True, return_counts=True), *x1.unique(dim=1, return_inverse=True, return_counts=True), x0.unique(dim=-1))' },
  { name: 'unique of an empty tensor', inputs: [f32([])], js: (x) => x.unique({ returnInverse: true, returnCounts: true }), py: 'x0.unique(return_inverse=True, return_counts=True)' },
];

torchTier('searchsorted and bucketize follow PyTorch', staticShapes, { compile: true });
torchTier('bincount histc and unique follow PyTorch', readSizes);

describe('the counting ops whose result size the device knows', () => {
  it('say under tpu.compile what to use instead, and run outside it', async () => {
    const x = tpu.tensor(new Int32Array([1, 3, 1]));
    expect(() => tpu.compile((t: typeof x) => t.bincount())(x)).toThrow(/bincount: the result's length is the largest input value \+ 1, which tpu.compile does not have/);
    expect(() => tpu.compile((t: typeof x) => t.unique())(x)).toThrow(/unique: the result's length is the number of distinct values/);
    expect(() => tpu.compile((t: typeof x) => t.to('float32').histc(4))(x)).toThrow(/histc: .*give min and max/);
    expect(await tpu.compile((t: typeof x) => t.to('float32').histc(4, 0, 4))(x).array()).toEqual([0, 2, 0, 1]);
    expect(await x.bincount().array()).toEqual([0, 2, 0, 1]);
  });
});
