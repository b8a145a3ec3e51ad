// indexPut / indexPut_ (torch.index_put), setItem (x[items] = v, Python's __setitem__), indexCopy
// and the in-place indexAdd_ indexCopy_ indexFill_ against PyTorch 2.13: repeated indices (added
// with accumulate; without it the last write is kept, PyTorch CPU's order), negative indices,
// indices broadcast together, values broadcast to the selection, bool masks, dtypes, errors (out
// of range at the call for indices the host uploaded, on the device for computed ones), and
// gradients for x and values.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, gradsOf, i32, i64, ids, seq, torchTier, type TorchCase } from './torch-tier.js';
import { expectThrowInEveryMode } from '../support/throws-in-every-mode.js';

const N = NaN;
const M34 = seq('float32', [3, 4], 0.5, -3);

const cases: TorchCase[] = [
  // indexPut: one index
  { name: 'indexPut of repeated and negative indices, written and accumulated', inputs: [f32([0, 0, 0, 0, 0]), ids([1, -4, 3, -1]), f32([1, 2, 3, 4])], js: (x, i, v) => [x.indexPut([i], v), x.indexPut([i], v, true), tpu.indexPut(x, [i], v, { accumulate: true }), x.indexPut([i], 7)], py: '(x0.index_put((x1,), x2), x0.index_put((x1,), x2, accumulate=True), torch.index_put(x0, (x1,), x2, accumulate=True), x0.index_put((x1,), torch.tensor(7.)))' },
  { name: 'indexPut of rows: values broadcast to [count, ...rest]', inputs: [M34, ids([2, 0]), f32([10, 20, 30, 40]), f32([[-1], [-2]])], js: (x, i, row, col) => [x.indexPut([i], row), x.indexPut([i], col), x.indexPut([i], col, true), x.indexPut([i.at(0)], row)], py: '(x0.index_put((x1,), x2), x0.index_put((x1,), x3), x0.index_put((x1,), x3, True), x0.index_put((x1[0],), x2))' },
  { name: 'indexPut of two indices broadcast together, and of all dims', inputs: [M34, ids([[0], [2]]), ids([1, -1, 1]), f32([5, 6, 7])], js: (x, a, b, v) => [x.indexPut([a, b], v), x.indexPut([a, b], v, true), x.indexPut([a.reshape([-1]), b.narrow(0, 0, 2)], 9), x.unsqueeze(0).indexPut([b.remainder(1), b.remainder(3), b], v)], py: '(x0.index_put((x1, x2), x3), x0.index_put((x1, x2), x3, True), x0.index_put((x1.reshape(-1), x2[:2]), torch.tensor(9.)), x0.unsqueeze(0).index_put((x2.remainder(1), x2.remainder(3), x2), x3))' },
  { name: 'indexPut of repeated pairs keeps the last write, or adds them all', inputs: [f32([[0, 0], [0, 0]]), ids([1, 0, 1, 1]), ids([0, 1, 0, 0]), f32([1, 2, 3, 4])], js: (x, a, b, v) => [x.indexPut([a, b], v), x.indexPut([a, b], v, true)], py: '(x0.index_put((x1, x2), x3), x0.index_put((x1, x2), x3, True))' },
  { name: 'indexPut of ints, bools and bf16 with int32 indices', inputs: [i64([[1, 2], [3, 4]]), bool([false, false, false]), bf16([1.5, 2.5, 3.5]), i32([1, -1])], js: (a, b, h, i) => [a.indexPut([i], a.neg().at(0), true), b.indexPut([i], true), h.indexPut([i], tpu.tensor([0.1, 256], { dtype: 'bfloat16' }), true), a.indexPut([i, i], 9)], py: '(x0.index_put((x3,), -x0[0], True), x1.index_put((x3,), torch.tensor(True)), x2.index_put((x3,), torch.tensor([0.1, 256], dtype=torch.bfloat16), True), x0.index_put((x3, x3), torch.tensor(9)))' },
  { name: 'indexPut of NaN values and into NaN', inputs: [f32([N, 1, 2]), ids([0, 2]), f32([N, -0])], js: (x, i, v) => [x.indexPut([i], v), x.indexPut([i], v, true)], py: '(x0.index_put((x1,), x2), x0.index_put((x1,), x2, True))' },
  { name: 'indexPut of computed indices (argmax, arithmetic)', inputs: [M34], js: (x) => [x.indexPut([tpu.arange(3), x.argmax(1)], 0), x.indexPut([x.argmin(0).remainder(3).sub(3)], 1, true)], py: '(x0.index_put((torch.arange(3), x0.argmax(1)), torch.tensor(0.)), x0.index_put((x0.argmin(0).remainder(3) - 3,), torch.tensor(1.), True))' },
  { name: 'indexPut_ writes x in place and returns it; views of x see it', inputs: [M34, ids([0, 2])], js: (x, i) => { const row = x.at(2); const out = x.indexPut_([i], 1, true); return [out, row, tpu.tensor(out === x ? 1 : 0)]; }, py: 'row = x0[2]\nout = x0.index_put_((x1,), torch.tensor(1.), accumulate=True)\nresult = (out, row, torch.tensor(1. if out is x0 else 0.))' },
  { name: 'indexPut_ through a view writes the base', inputs: [M34, ids([1, -1])], js: (x, i) => { x.T.indexPut_([i], tpu.tensor([7, 8, 9])); return x; }, py: 'x0.T.index_put_((x1,), torch.tensor([7., 8, 9]))\nresult = x0' },
  // errors
  { name: 'indexPut out of range (uploaded indices) is an error', inputs: [M34, ids([0]), ids([4])], js: (x, a, b) => x.indexPut([a, b], 1), py: 'x0.index_put((x1, x2), torch.tensor(1.))' },
  { name: 'indexPut below the range is an error', inputs: [M34, ids([-4])], js: (x, a) => x.indexPut([a], 1, true), py: 'x0.index_put((x1,), torch.tensor(1.), True)' },
  { name: 'indexPut of a computed index out of range fails on the device', inputs: [M34, ids([0, 3])], js: (x, a) => x.indexPut([a.add(0)], 1), py: 'x0.index_put((x1 + 0,), torch.tensor(1.))' },
  { name: 'indexPut of a computed index in a later dim out of range fails on the device', inputs: [M34, ids([0, 4])], js: (x, b) => x.indexPut([tpu.zeros([2], { dtype: 'int64' }), b.mul(1)], 1, true), py: 'x0.index_put((torch.zeros(2, dtype=torch.int64), x1 * 1), torch.tensor(1.), True)' },
  { name: 'indexPut of a computed negative index below the range fails on the device', inputs: [M34, ids([-1, -5])], js: (x, b) => x.indexPut([tpu.ones([2], { dtype: 'int64' }), b.add(0)], 1), py: 'x0.index_put((torch.ones(2, dtype=torch.int64), x1 + 0), torch.tensor(1.))' },
  { name: 'indexPut of values of another dtype is an error', inputs: [M34, ids([0]), i64([1, 2, 3, 4])], js: (x, i, v) => x.indexPut([i], v), py: 'x0.index_put((x1,), x2)' },
  { name: 'indexPut of values that do not broadcast is an error', inputs: [M34, ids([0, 1]), f32([1, 2, 3])], js: (x, i, v) => x.indexPut([i], v), py: 'x0.index_put((x1,), x2)' },
  { name: 'indexPut of indices that do not broadcast is an error', inputs: [M34, ids([0, 1]), ids([0, 1, 2])], js: (x, a, b) => x.indexPut([a, b], 1), py: 'x0.index_put((x1, x2), torch.tensor(1.))' },
  { name: 'indexPut of too many indices is an error', inputs: [f32([1, 2]), ids([0])], js: (x, i) => x.indexPut([i, i], 1), py: 'x0.index_put((x1, x1), torch.tensor(1.))' },
  { name: 'indexPut of a float index is an error', inputs: [f32([1, 2]), f32([0])], js: (x, i) => x.indexPut([i], 1), py: 'x0.index_put((x1,), torch.tensor(1.))' },
  { name: 'indexPut_ of a leaf that requires grad is an error', inputs: [f32([1, 2]), ids([0])], js: (x, i) => x.requiresGrad_().indexPut_([i], 5), py: 'x0.requires_grad_().index_put_((x1,), torch.tensor(5.))' },
  // setItem: Python's x[items] = v
  { name: 'setItem of an index tensor after a slice and a number', inputs: [seq('float32', [2, 3, 4]), ids([0, -1]), f32([[1, 2], [3, 4], [5, 6]])], js: (x, i, v) => x.setItem([0, ':', i], v).setItem([1, '1:', i], -1), py: 'x0[0, :, x1] = x2\nx0[1, 1:, x1] = -1\nresult = x0' },
  { name: 'setItem of indices split by a slice: the broadcast dims first', inputs: [seq('float32', [2, 3, 4]), ids([1, 0]), ids([3, 3]), f32([[7, 8, 9], [10, 11, 12]])], js: (x, a, b, v) => x.setItem([a, ':', b], v), py: 'x0[x1, :, x2] = x3\nresult = x0' },
  { name: 'setItem of lists swaps rows and columns', inputs: [M34], js: (x) => x.setItem([[0, 2]], x.at([2, 0])).setItem([':', [1, -1]], x.at(':', [-1, 1])), py: 'x0[[0, 2]] = x0[[2, 0]]\nx0[:, [1, -1]] = x0[:, [-1, 1]]\nresult = x0' },
  { name: 'setItem of a value with leading dims of size 1, as Python\'s x[idx] = v', inputs: [M34, ids([2, 0]), f32([[[1, 2, 3, 4], [5, 6, 7, 8]]])], js: (x, i, v) => x.setItem([i], v).setItem([1], v.at(':', 0)), py: 'x0[x1] = x2\nx0[1] = x2[:, 0]\nresult = x0' },
  { name: 'setItem with a new dim and an ellipsis', inputs: [M34, ids([2])], js: (x, i) => x.setItem([null, '...', i], 5), py: 'x0[None, ..., x1] = 5\nresult = x0' },
  // indexCopy and the in-place forms
  { name: 'indexCopy along each dim, with repeated indices', inputs: [M34, ids([2, 0]), f32([[1, 2, 3, 4], [5, 6, 7, 8]]), ids([3, 3, 1]), seq('float32', [3, 3], 1, 1)], js: (x, i, s, j, t) => [x.indexCopy(0, i, s), tpu.indexCopy(x, 1, j, t), x.indexCopy(-1, j.at(0), t.at(':', 0))], py: '(x0.index_copy(0, x1, x2), torch.index_copy(x0, 1, x3, x4), x0.index_copy(-1, x3[0], x4[:, 0]))' },
  { name: 'indexCopy of a negative index is an error', inputs: [M34, ids([-1]), f32([[1, 2, 3, 4]])], js: (x, i, s) => x.indexCopy(0, i, s), py: 'x0.index_copy(0, x1, x2)' },
  { name: 'indexCopy of a source of the wrong shape is an error', inputs: [M34, ids([0]), f32([[1, 2, 3]])], js: (x, i, s) => x.indexCopy(0, i, s), py: 'x0.index_copy(0, x1, x2)' },
  { name: 'indexAdd_ indexCopy_ indexFill_ write x in place', inputs: [M34, ids([1, 1])], js: (x, i) => { const a = x.clone(); const b = x.clone(); const c = x.clone(); a.indexAdd_(1, i, tpu.ones([3, 2]), { alpha: 2 }); b.indexCopy_(0, i.narrow(0, 0, 1), tpu.ones([1, 4])); const v = c.at(0); c.indexFill_(1, i, -1); return [a, b, c, v]; }, py: 'a = x0.clone(); b = x0.clone(); c = x0.clone()\na.index_add_(1, x1, torch.ones(3, 2), alpha=2)\nb.index_copy_(0, x1[:1], torch.ones(1, 4))\nv = c[0]\nc.index_fill_(1, x1, -1)\nresult = (a, b, c, v)' },
  // gradients
  gradsOf('indexPut gradients: x none where written, values read there (repeats each)', [M34, ids([2, 0, 2]), f32([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])], [0, 2], (x, i, v) => x.indexPut([i], v), 'x0.index_put((x1,), x2)'),
  gradsOf('indexPut accumulate gradients, values broadcast', [M34, ids([[1], [-1]]), ids([0, 0, 3]), f32([[2], [3]])], [0, 3], (x, a, b, v) => x.indexPut([a, b], v, true), 'x0.index_put((x1, x2), x3, True)'),
  gradsOf('indexPut_ of a non-leaf: the gradient through the write', [M34, ids([1]), f32([5, 6, 7, 8])], [0, 2], (x, i, v) => x.mul(2).indexPut_([i], v.mul(3)), '(x0 * 2).index_put_((x1,), x2 * 3)'),
  gradsOf('setItem gradients through a slice', [seq('float32', [2, 3, 4]), ids([3, 0]), f32([1, 2])], [0, 2], (x, i, v) => x.mul(1).setItem([1, ':', i], v), '(lambda y: (y.__setitem__((1, slice(None), x1), x2), y)[1])(x0 * 1)'),
  gradsOf('indexCopy gradients', [M34, ids([2, 0]), f32([[1, 2, 3, 4], [5, 6, 7, 8]])], [0, 2], (x, i, s) => x.indexCopy(0, i, s), 'x0.index_copy(0, x1, x2)'),
];

torchTier('indexPut, setItem, indexCopy and the in-place index ops follow PyTorch', cases, { compile: true });

// A bool index is its nonzero positions, as PyTorch's: their count is read from the device (a sync), which tpu.compile refuses
const maskCases: TorchCase[] = [
  { name: 'indexPut of a bool mask: values per element, broadcast, accumulated', inputs: [M34, bool([[true, false, false, true], [false, false, false, false], [false, true, false, false]]), f32([1, 2, 3])], js: (x, m, v) => [x.indexPut([m], v), x.indexPut([m], 5, true), x.indexPut([m.at(':', 0)], v.narrow(0, 0, 1))], py: '(x0.index_put((x1,), x2), x0.index_put((x1,), torch.tensor(5.), True), x0.index_put((x1[:, 0],), x2[:1]))' },
  { name: 'indexPut of a mask and an index together', inputs: [M34, bool([true, false, true]), ids([3, -3])], js: (x, m, i) => [x.indexPut([m, i], tpu.tensor([8, 9])), x.indexPut([m, i.at(0)], -1, true)], py: '(x0.index_put((x1, x2), torch.tensor([8., 9])), x0.index_put((x1, x2[0]), torch.tensor(-1.), True))' },
  { name: 'indexPut of a mask of the wrong shape is an error', inputs: [M34, bool([true, false])], js: (x, m) => x.indexPut([m], 1), py: 'x0.index_put((x1,), torch.tensor(1.))' },
  gradsOf('indexPut gradients through a mask', [M34, bool([[true, false, false, true], [false, false, false, false], [false, true, false, false]]), f32([1, 2, 3])], [0, 2], (x, m, v) => x.indexPut([m], v), 'x0.index_put((x1,), x2)'),
];

torchTier('indexPut through bool masks follows PyTorch', maskCases);

describe('indexPut errors name the index, its dim and the dim size', () => {
  const idx = (v: number[]) => tpu.tensor(v, { dtype: 'int64' });
  it.each([
    ['out of range', () => tpu.zeros([3, 4]).indexPut([idx([0]), idx([1, 4])], 1), /indexPut: indices\[1\] \(for dim 1 of size 4\): 4 at position 1 is out of range \[-4, 3\]/],
    ['below the range, in place', () => tpu.zeros([3]).indexPut_([idx([-4])], 1), /indexPut_: indices\[0\] \(for dim 0 of size 3\): -4 at position 0 is out of range \[-3, 2\]/],
    ['a list in setItem', () => tpu.zeros([3]).setItem([[0, 3]], 1), /setItem: the index list \[0,3\] must hold integers in \[-3, 2\] for dim 0 of size 3/],
    ['values', () => tpu.zeros([3, 4]).indexPut([idx([0, 1])], tpu.ones([3])), /indexPut: values of shape \[3\] cannot be broadcast to the indexed shape \[2, 4\]/],
    ['indices', () => tpu.zeros([3, 4]).indexPut([idx([0, 1]), idx([0, 1, 2])], 1), /indexPut: shapes \[2\] \(the indices before indices\[1\]\) and \[3\] \(indices\[1\]\) cannot be broadcast/],
    ['dtype', () => tpu.zeros([3]).indexPut([idx([0])], idx([1])), /indexPut: values must have x's dtype float32, as PyTorch's index_put requires; got int64/],
    ['mask', () => tpu.zeros([3, 4]).indexPut([tpu.tensor([true, false])], 1), /indexPut: the bool mask indices\[0\] of shape \[2\] must match the dims it covers from dim 0, \[3\]/],
    ['not a list', () => tpu.zeros([3]).indexPut(idx([0]) as never, 1), /indexPut: indices must be a list of tensors/],
    ['accumulate', () => tpu.zeros([3]).indexPut([idx([0])], 1, 'yes' as never), /indexPut: accumulate must be true or false/],
  ])('%s', (_name, call, message) => expectThrowInEveryMode(call, message));

  it('a computed index out of range fails on the device in every mode, leaving x as it was', async () => {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.mode(mode);
      const x = tpu.zeros([3]);
      try {
        await expect(async () => {
          x.indexPut_([idx([0, 3]).add(0)], 1);
          await x.data();
        }).rejects.toThrow(/indices element out of data bounds/);
        expect(await x.array()).toEqual([0, 0, 0]);
      } finally {
        tpu.mode('strict');
      }
    }
  });
});

it('indexPut is one program under tpu.compile, its uploaded index checked on each call', async () => {
  const put = tpu.compile((x: Tensor, i: Tensor, v: Tensor) => x.indexPut([i], v, true));
  const x = tpu.zeros([4]);
  expect(await put(x, tpu.tensor([1, 1, -1], { dtype: 'int64' }), tpu.tensor([1, 2, 3])).array()).toEqual([0, 3, 0, 3]);
  expect(() => put(x, tpu.tensor([1, 4, 0], { dtype: 'int64' }), tpu.tensor([1, 2, 3]))).toThrow(/indexPut: indices\[0\] \(for dim 0 of size 4\): 4 at position 1/);
});
