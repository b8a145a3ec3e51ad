// Layout, slicing/indexing, gather/scatter, scans, sort and triangular ops in every mode,
// against references computed here (row-major loops) or exact values.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectRef, permuteRef, ravel, refOf, sliceRef, unravel, type Ref } from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
const T = (r: Ref): Tensor => tpu.tensor(r.data, { dtype: 'float32' }).reshape(r.shape);
const iota = (shape: number[]) => tpu.arange(shape.reduce((a, b) => a * b, 1)).reshape(shape);

afterEach(() => tpu.mode('strict'));

describe.each(MODES)('%s mode', (mode) => {
  const a = refOf([3, 4, 5], 41);

  it('slice(dim, start, end, step) follows Python rules, negative steps included', () => {
    tpu.mode(mode);
    const x = T(a);
    expectRef(x.slice(1, 1, 3), sliceRef(a, [0, 1, 0], [1, 1, 1], [3, 2, 5]), 0, 0);
    expectRef(x.slice(-1, null, null, 2), sliceRef(a, [0, 0, 0], [1, 1, 2], [3, 4, 3]), 0, 0);
    expectRef(x.slice(2, -2), sliceRef(a, [0, 0, 3], [1, 1, 1], [3, 4, 2]), 0, 0);
    expectRef(x.flip(0), sliceRef(a, [2, 0, 0], [-1, 1, 1], [3, 4, 5]), 0, 0);
    expectRef(x.flip(2).slice(2, 0, null, 3), sliceRef(a, [0, 0, 4], [1, 1, -3], [3, 4, 2]), 0, 0);
    // PyTorch has no negative strides: a negative or zero step is its error, pointing to flip()
    expect(() => x.slice(2, 4, 0, -3)).toThrow(/^slice: step must be greater than zero \(as in PyTorch\); got step -3\. To reverse the elements, use flip\(dims\)/);
    expect(() => x.slice(0, null, null, 0)).toThrow(/^slice: step must be greater than zero \(as in PyTorch\); got step 0$/);
    expect(x.slice(1, 10, 20).shape).toEqual([3, 0, 5]);
    expect(x.narrow(1, -2, 2).shape).toEqual([3, 2, 5]);
  });

  it('at(): integers drop dims, slice strings, ..., null, an int32 tensor; the one-string form', () => {
    tpu.mode(mode);
    const x = T(a);
    expectRef(x.at(1), { shape: [4, 5], data: a.data.slice(20, 40) }, 0, 0);
    expectRef(x.at(-1, 2), { shape: [5], data: a.data.slice(50, 55) }, 0, 0);
    expect(x.at(0, 0, -1).item()).toBe(a.data[4]);
    expectRef(x.at(':', '1:3'), sliceRef(a, [0, 1, 0], [1, 1, 1], [3, 2, 5]), 0, 0);
    expectRef(x.flip(-1).at('...', '::2'), sliceRef(a, [0, 0, 4], [1, 1, -2], [3, 4, 3]), 0, 0);
    expectRef(x.at('0, :, :').flip(-1), { ...sliceRef(a, [0, 0, 4], [1, 1, -1], [1, 4, 5]), shape: [4, 5] }, 0, 0);
    expect(() => x.at('0, :, ::-1')).toThrow(/^at: step must be greater than zero \(as in PyTorch\); got '::-1' for dim 2\. To reverse the elements, use flip\(dims\), e\.g\. x\.flip\(0\)/);
    expect(() => x.at(':', '3:0:-2')).toThrow(/got '3:0:-2' for dim 1/);
    expect(x.at(null, 0).shape).toEqual([1, 4, 5]);
    expect(x.at('..., None').shape).toEqual([3, 4, 5, 1]);
    const idx = tpu.tensor([[2, 0], [-1, 1]], { dtype: 'int32' });
    const picked = x.at(':', idx);
    expect(picked.shape).toEqual([3, 2, 2, 5]);
    const want = Array.from({ length: 60 }, (_, k) => {
      const [i, p, q, j] = unravel(k, [3, 2, 2, 5]);
      const r = [[2, 0], [3, 1]][p!]![q!]!;
      return a.data[ravel([i!, r, j!], a.shape)]!;
    });
    expectRef(picked, { shape: [3, 2, 2, 5], data: want }, 0, 0);
    expect(x.at('1').shape).toEqual([4, 5]);
    expectRef(x.at([1, -1]), { shape: [2, 4, 5], data: [...a.data.slice(20, 40), ...a.data.slice(40, 60)] }, 0, 0);
    expectRef(x.at(0, [0, 3], -1), { shape: [2], data: [a.data[4]!, a.data[19]!] }, 0, 0);
  });

  it('index(), indexSelect, gather, scatterAdd, oneHot', () => {
    tpu.mode(mode);
    const m = tpu.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], { dtype: 'int32' });
    expect(m.index(tpu.tensor([2, -3, 2], { dtype: 'int32' })).array()).toEqual([[7, 8, 9], [1, 2, 3], [7, 8, 9]]);
    expect(m.indexSelect(-1, tpu.tensor([2, 0], { dtype: 'int32' })).array()).toEqual([[3, 1], [6, 4], [9, 7]]);
    expect(m.gather(1, tpu.tensor([[0, 0], [2, 1], [1, 1]], { dtype: 'int32' })).array()).toEqual([[1, 1], [6, 5], [8, 8]]);
    expect(m.gather(0, tpu.tensor([[2, 0, 1]], { dtype: 'int32' })).array()).toEqual([[7, 2, 6]]);
    const z = tpu.zeros([2, 4]);
    const src = tpu.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' });
    expect(z.scatterAdd(1, tpu.tensor([[0, 0, 3], [1, 2, 1]], { dtype: 'int32' }), src).array()).toEqual([[3, 0, 0, 3], [0, 10, 5, 0]]);
    // src larger than index: only the index's extent is used
    expect(z.scatterAdd(1, tpu.tensor([[3], [0]], { dtype: 'int32' }), src).array()).toEqual([[0, 0, 0, 1], [4, 0, 0, 0]]);
    expect(tpu.nn.functional.oneHot(tpu.tensor([[0, 2], [1, 1]], { dtype: 'int32' }), 3).array()).toEqual([[[1, 0, 0], [0, 0, 1]], [[0, 1, 0], [0, 1, 0]]]);
    const bf = tpu.tensor([[1.5, 2.5], [3.5, 4.5]], { dtype: 'bfloat16' });
    expect(bf.index(tpu.tensor([1], { dtype: 'int32' })).dtype).toBe('bfloat16');
    expect(bf.index(tpu.tensor([1], { dtype: 'int32' })).array()).toEqual([[3.5, 4.5]]);
  });

  it('concat, stack, split, chunk, roll, flip with negative dims and mixed dtypes', () => {
    tpu.mode(mode);
    const x = iota([2, 3]);
    const y = tpu.tensor([[0.5], [1.5]]);
    const c = tpu.concat([x, y], -1);
    expect(c.dtype).toBe('float32');
    expect(c.array()).toEqual([[0, 1, 2, 0.5], [3, 4, 5, 1.5]]);
    expect(tpu.cat([x, x], 0).shape).toEqual([4, 3]);
    expect(tpu.stack([x, x.neg()], -1).array()).toEqual([[[0, 0], [1, -1], [2, -2]], [[3, -3], [4, -4], [5, -5]]]);
    expect(tpu.stack([tpu.tensor(1), tpu.tensor(2)]).array()).toEqual([1, 2]);
    const parts = iota([7]).split(3);
    expect(parts.map((p) => p.array())).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(iota([2, 5]).split([1, 4], 1).map((p) => p.shape)).toEqual([[2, 1], [2, 4]]);
    expect(iota([5]).chunk(2).map((p) => p.array())).toEqual([[0, 1, 2], [3, 4]]);
    expect(iota([2, 3]).roll(1, -1).array()).toEqual([[2, 0, 1], [5, 3, 4]]);
    expect(iota([2, 3]).roll(-4).array()).toEqual([[4, 5, 0], [1, 2, 3]]);
    expect(iota([2, 3]).roll([1, 1], [0, 1]).array()).toEqual([[5, 3, 4], [2, 0, 1]]);
    expect(iota([2, 3]).flip([0, -1]).array()).toEqual([[5, 4, 3], [2, 1, 0]]);
  });

  it('squeeze, unsqueeze, flatten, movedim, permute, repeat, tile, expand', () => {
    tpu.mode(mode);
    const x = T(a);
    expect(x.unsqueeze(-1).shape).toEqual([3, 4, 5, 1]);
    expect(x.unsqueeze(0).squeeze().shape).toEqual([3, 4, 5]);
    expect(tpu.zeros([1, 2, 1]).squeeze(-1).shape).toEqual([1, 2]);
    expect(tpu.zeros([1, 2, 1]).squeeze(1).shape).toEqual([1, 2, 1]);
    expect(x.flatten(1).shape).toEqual([3, 20]);
    expect(tpu.tensor(3).flatten().shape).toEqual([1]);
    expectRef(x.movedim(0, -1), permuteRef(a, [1, 2, 0]), 0, 0);
    expectRef(x.permute(2, 0, 1), permuteRef(a, [2, 0, 1]), 0, 0);
    const s = tpu.tensor([[1, 2], [3, 4]], { dtype: 'int32' });
    expect(s.repeat(2, 1).array()).toEqual([[1, 2], [3, 4], [1, 2], [3, 4]]);
    expect(s.repeat(1, 2, 2).shape).toEqual([1, 4, 4]);
    expect(s.repeat([1, 2, 2]).array()).toEqual([[[1, 2, 1, 2], [3, 4, 3, 4], [1, 2, 1, 2], [3, 4, 3, 4]]]);
    expect(s.tile([2]).array()).toEqual([[1, 2, 1, 2], [3, 4, 3, 4]]);
    expect(s.at(0).expand([2, -1]).array()).toEqual([[1, 2], [1, 2]]);
  });

  it('pad: constant value, several dims, negative amounts crop', () => {
    tpu.mode(mode);
    const F = tpu.nn.functional;
    const x = tpu.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'int32' });
    expect(F.pad(x, [1, 0]).array()).toEqual([[0, 1, 2, 3], [0, 4, 5, 6]]);
    expect(F.pad(x, [0, 1, 1, 0], { value: 9 }).array()).toEqual([[9, 9, 9, 9], [1, 2, 3, 9], [4, 5, 6, 9]]);
    expect(F.pad(x, [-1, 1]).array()).toEqual([[2, 3, 0], [5, 6, 0]]);
    expect(F.pad(x.to('float32'), [1, 1], { value: 0.5 }).array()).toEqual([[0.5, 1, 2, 3, 0.5], [0.5, 4, 5, 6, 0.5]]);
  });

  it('cumsum and cumprod along negative dims, int32 and zeros', () => {
    tpu.mode(mode);
    const x = T(a);
    const cum = (r: Ref, dim: number, f: (p: number, q: number) => number) => ({
      shape: r.shape,
      data: r.data.map((_, k) => {
        const idx = unravel(k, r.shape);
        let acc = r.data[ravel(idx.map((v, d) => (d === dim ? 0 : v)), r.shape)]!;
        for (let t = 1; t <= idx[dim]!; t++) acc = f(acc, r.data[ravel(idx.map((v, d) => (d === dim ? t : v)), r.shape)]!);
        return acc;
      }),
    });
    expectRef(x.cumsum(-1), cum(a, 2, (p, q) => p + q), 1e-6, 1e-6);
    expectRef(x.cumprod({ dim: 1 }), cum(a, 1, (p, q) => p * q), 1e-5, 1e-7);
    expect(tpu.tensor([1, 2, 0, 4, 5], { dtype: 'int32' }).cumprod(0).array()).toEqual([1, 2, 0, 0, 0]);
    expect(tpu.tensor([true, true, false]).cumsum(0).array()).toEqual([1, 2, 2]);
    expect(tpu.tensor([[3, -1], [2, 5]], { dtype: 'int32' }).cumsum(0).array()).toEqual([[3, -1], [5, 4]]);
  });

  it('sort, argsort and topk: values and int64 indices (PyTorch\'s dtype), ties in index order', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[3, 1, 2, 1], [0, 5, 4, 9]], { dtype: 'int32' });
    const s = x.sort();
    expect(s.values.array()).toEqual([[1, 1, 2, 3], [0, 4, 5, 9]]);
    expect(s.indices.array()).toEqual([[1, 3, 2, 0], [0, 2, 1, 3]]);
    expect(s.indices.dtype).toBe('int64');
    expect(x.sort({ dim: 0, descending: true }).values.array()).toEqual([[3, 5, 4, 9], [0, 1, 2, 1]]);
    expect(x.argsort({ descending: true }).array()).toEqual([[0, 2, 1, 3], [3, 1, 2, 0]]);
    const t = T(a).topk(2, { dim: 1, largest: false });
    expect(t.values.shape).toEqual([3, 2, 5]);
    const col = [0, 1, 2, 3].map((i) => a.data[ravel([1, i, 3], a.shape)]!);
    const order = [0, 1, 2, 3].sort((p, q) => col[p]! - col[q]!);
    expect(t.indices.at(1, ':', 3).array()).toEqual(order.slice(0, 2));
    expect(t.values.at(1, ':', 3).array()).toEqual(order.slice(0, 2).map((i) => col[i]));
  });

  it('tril and triu with diagonal offsets, batched, int32/bool/float', () => {
    tpu.mode(mode);
    const x = iota([2, 3, 4]).add(1);
    const tri = (upper: boolean, k: number) => ({
      shape: [2, 3, 4],
      data: Array.from({ length: 24 }, (_, n) => {
        const [, i, j] = unravel(n, [2, 3, 4]);
        return (upper ? j! - i! >= k : j! - i! <= k) ? n + 1 : 0;
      }),
    });
    expectRef(x.tril(), tri(false, 0), 0, 0);
    expectRef(x.triu(1), tri(true, 1), 0, 0);
    expectRef(x.to('float32').tril({ diagonal: -1 }), tri(false, -1), 0, 0);
    expect(tpu.ones([2, 2], { dtype: 'bool' }).triu().array()).toEqual([[true, true], [false, true]]);
  });

  it('empty and 0-d tensors', () => {
    tpu.mode(mode);
    const e = tpu.zeros([0, 3]);
    expect(tpu.concat([e, tpu.ones([2, 3])]).array()).toEqual([[1, 1, 1], [1, 1, 1]]);
    expect(e.flip(0).shape).toEqual([0, 3]);
    expect(e.cumsum(0).shape).toEqual([0, 3]);
    expect(e.sort(0).values.shape).toEqual([0, 3]);
    expect(e.at(':', 1).shape).toEqual([0]);
    expect(tpu.tensor(4).unsqueeze(0).array()).toEqual([4]);
    expect(tpu.tensor(4).cumsum(0).item()).toBe(4);
    expect(tpu.tensor(5).at().item()).toBe(5);
  });

  it('bad calls name the op, the argument and the shapes', () => {
    tpu.mode(mode);
    const x = tpu.ones([2, 3]);
    expect(() => x.at(2)).toThrow('at: index 2 is out of range for dim 0 of size 2 (input [2, 3])');
    expect(() => x.at(0, 0, 0)).toThrow('at: 3 indices for a tensor of 2 dims [2, 3]');
    expect(() => x.at('1:x')).toThrow(`at: '1:x' is not a slice; write start:stop:step with integers`);
    expect(() => x.at([0, 2])).toThrow('at: the index list [0,2] must hold integers in [-2, 1] for dim 0 of size 2');
    expect(() => x.at(tpu.tensor([0]))).toThrow('at: a tensor index must be int32 or int64, or a bool mask; got float32 (number arrays make float32 tensors');
    expect(() => x.at(x.gt(0), 0)).toThrow('at: a bool mask must be the only index (x[mask]); got 2 indices');
    expect(() => x.slice(0, 0, 2, 0)).toThrow('slice: step must be greater than zero (as in PyTorch); got step 0');
    expect(() => x.narrow(1, 2, 2)).toThrow('narrow: start 2 and length 2 do not fit dim 1 of size 3 (input [2, 3])');
    expect(() => tpu.concat([x, tpu.ones([3, 2])])).toThrow("concat: tensor 1 has shape [3, 2], which does not match tensor 0's [2, 3] outside dim 0");
    expect(() => tpu.stack([x, tpu.ones([3])])).toThrow('stack: tensor 1 has shape [3] but tensor 0 has [2, 3]; all must match');
    expect(() => tpu.concat([])).toThrow('concat: tensors must be a non-empty array of tensors');
    expect(() => x.split([1, 2])).toThrow("split: sizes [1, 2] must be non-negative integers summing to dim 0's size 2");
    expect(() => x.index(tpu.tensor([0.5]))).toThrow(/^indexSelect: index must be an int32 or int64 tensor; got float32/);
    expect(() => x.gather(1, tpu.tensor([0, 1], { dtype: 'int32' }))).toThrow('gather: index [2] must have as many dims as the input [2, 3]');
    expect(() => x.topk(4)).toThrow('topk: k (4) is larger than dim 1 of the input [2, 3]');
    expect(() => tpu.ones([3]).tril()).toThrow('tril: input must have at least 2 dims; got [3]');
    expect(() => tpu.nn.functional.pad(x, [1])).toThrow('pad: padding must be an even-length array of integers; got [1]');
    expect(() => tpu.nn.functional.pad(x, [-2, -2])).toThrow(/pad: padding .* crops more than the input \[2, 3\] has/);
    expect(() => tpu.nn.functional.oneHot(tpu.tensor([1], { dtype: 'int32' }), 0)).toThrow('oneHot: numClasses must be a positive integer, or -1 to infer it from the largest index; got 0');
    expect(() => x.repeat(2)).toThrow('repeat: 1 sizes given for an input of 2 dims [2, 3]');
    expect(() => x.movedim(0, 5)).toThrow('movedim: destination must be an integer in [-2, 1] for a tensor of rank 2; got 5');
    expect(() => x.flatten(1, 0)).toThrow('flatten: startDim 1 comes after endDim 0 for input [2, 3]');
    expect(x.sum().item()).toBe(6);
  });
});
