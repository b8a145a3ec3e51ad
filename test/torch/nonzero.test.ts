// The indices of nonzero values against PyTorch, in debug, strict and fused mode: nonzero (rows
// of a [count, ndim] int64 tensor, and { asTuple: true }), argwhere and one-argument where, of
// every dtype, 0-d and empty inputs, their strides (PyTorch writes the rows column by column) and
// errors. The count is read from the device: in fused mode the pending region runs first, and
// the ops recorded around the read keep their values.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, seq, torchTier, type TorchCase } from './torch-tier.js';

const X = f32([[0, 1, NaN], [-0, 2, 0]]);
const stride = (t: Tensor) => tpu.tensor(t.stride(), { dtype: 'int32' });
const PY_STRIDE = (r: string) => `torch.tensor(${r}.stride(), dtype=torch.int32)`;

const cases: TorchCase[] = [
  { name: 'nonzero: rows of indices in row-major order; NaN counts, -0 does not', inputs: [X], js: (x) => x.nonzero(), py: 'x0.nonzero()' },
  { name: 'nonzero of a 3-d input', inputs: [f32([[[1, 0], [0, 2], [3, 0]], [[0, 0], [4, 5], [0, 6]]])], js: (x) => tpu.nonzero(x), py: 'torch.nonzero(x0)' },
  { name: 'nonzero of bool, int32, int64 and bfloat16 inputs', inputs: [bool([true, false, true]), i32([0, -3, 0, 4]), i64([5, 0, -6]), bf16([0, 0.5, -1.5])],
    js: (a, b, c, d) => [a.nonzero(), b.nonzero(), c.nonzero(), d.nonzero()], py: '(x0.nonzero(), x1.nonzero(), x2.nonzero(), x3.nonzero())' },
  { name: 'nonzero of a 0-d input: [1, 0] or [0, 0]', inputs: [f32(5), f32(0)], js: (a, b) => [a.nonzero(), b.nonzero()], py: '(x0.nonzero(), x1.nonzero())' },
  { name: 'nonzero with nothing nonzero, and of an empty input', inputs: [f32([[0, 0], [0, 0]])], js: (x) => [x.nonzero(), tpu.zeros([2, 0, 3]).nonzero()], py: '(x0.nonzero(), torch.zeros(2, 0, 3).nonzero())' },
  { name: 'nonzero of a transposed view reads its logical order', inputs: [f32([[1, 0, 2], [0, 3, 4]])], js: (x) => x.T.nonzero(), py: 'x0.T.nonzero()' },
  { name: 'nonzero asTuple: one index tensor per dim', inputs: [X], js: (x) => x.nonzero({ asTuple: true }), py: 'x0.nonzero(as_tuple=True)' },
  { name: 'nonzero asTuple of a 0-d input reads it as one element', inputs: [f32(5), f32(0)], js: (a, b) => [...tpu.nonzero(a, { asTuple: true }), ...tpu.nonzero(b, { asTuple: true })], py: 'torch.nonzero(x0, as_tuple=True) + torch.nonzero(x1, as_tuple=True)' },
  { name: 'nonzero asTuple false is the rows', inputs: [X], js: (x) => x.nonzero({ asTuple: false }), py: 'x0.nonzero(as_tuple=False)' },
  { name: 'argwhere is nonzero\'s rows', inputs: [X], js: (x) => [x.argwhere(), tpu.argwhere(x.gt(0))], py: '(x0.argwhere(), torch.argwhere(x0 > 0))' },
  { name: 'where(condition) with the condition alone is nonzero as a tuple', inputs: [X, i32([[0, 1], [2, 0]])], js: (x, c) => [...tpu.where(x.gt(0)), ...tpu.where(c)], py: 'torch.where(x0 > 0) + torch.where(x1)' },
  { name: 'where(condition, input) without other is an error', inputs: [X], js: (x) => tpu.where(x.gt(0), x as never, undefined as never), py: 'torch.where(x0 > 0, x0)' },
  { name: 'the rows\' strides are PyTorch\'s, column by column', inputs: [X, f32(3), f32([[0, 0]])],
    js: (x, s, z) => [stride(x.nonzero()), stride(x.argwhere()), stride(s.nonzero()), stride(z.nonzero()), ...x.nonzero({ asTuple: true }).map(stride)],
    py: `(${PY_STRIDE('x0.nonzero()')}, ${PY_STRIDE('x0.argwhere()')}, ${PY_STRIDE('x1.nonzero()')}, ${PY_STRIDE('x2.nonzero()')}, *[${PY_STRIDE('t')} for t in x0.nonzero(as_tuple=True)])` },
  { name: 'the rows cannot be viewed flat, as PyTorch\'s', inputs: [X], js: (x) => x.nonzero().view(-1), py: 'x0.nonzero().view(-1)' },
  { name: 'pending work before and after the read keeps its values',
    inputs: [seq('float32', [3, 4], 0.5, -3)],
    js: (x) => { const y = x.mul(2).sub(1).relu(); const e = y.exp(); const n = y.nonzero(); return [n, e.add(1), n.sum(), y.neg()]; },
    py: '(lambda y: (y.nonzero(), y.exp() + 1, y.nonzero().sum(), -y))((x0 * 2 - 1).relu())' },
  { name: 'indices from nonzero pick the values, as x[mask]', inputs: [f32([[0, 1.5, 0], [-2, 0, 3]])],
    js: (x) => { const [r, c] = x.nonzero({ asTuple: true }); return x.index(r!).gather(1, c!.unsqueeze(1)).reshape([-1]); },
    py: '(lambda r, c: x0[r].gather(1, c.unsqueeze(1)).reshape(-1))(*x0.nonzero(as_tuple=True))' },
];

torchTier('nonzero, argwhere and where(condition) vs PyTorch', cases);

describe('nonzero: options, autograd and tpu.compile', () => {
  const x = tpu.tensor([[0, 1], [2, 0]]);

  it('an options typo or a non-boolean asTuple is an error naming the key, as other ops', () => {
    expect(() => x.nonzero({ as_tuple: true } as never)).toThrow("nonzero: unknown option 'as_tuple' (did you mean 'asTuple'?); nonzero accepts 'asTuple'");
    expect(() => tpu.nonzero(x, { asTuple: 1 } as never)).toThrow('nonzero: asTuple must be true or false; got 1');
    expect(() => tpu.nonzero(x, true as never)).toThrow("nonzero: options must be an object with keys 'asTuple'; got boolean true");
    expect(() => tpu.nonzero([1, 0] as never)).toThrow('nonzero: input must be a tensor; got an object of type Array');
    expect(() => tpu.where(x.gt(0), 1 as never, undefined as never)).toThrow('where: expected where(condition, input, other), or where(condition) for the indices of its nonzero values; got no other');
  });

  it('the indices need no gradient, as PyTorch\'s', () => {
    const w = tpu.tensor([0, 3, 0, 4], { requiresGrad: true });
    expect(w.nonzero().requiresGrad).toBe(false);
    expect(w.nonzero().array()).toEqual([[1], [3]]);
  });

  it('under tpu.compile, which has no values while it traces, names what to use', () => {
    expect(() => tpu.compile((t: Tensor) => t.nonzero())(x)).toThrow(/nonzero: the result's length is the count of nonzero values, which tpu\.compile does not have while tracing.*x\.ne\(0\)/);
    expect(() => tpu.compile((t: Tensor) => tpu.where(t.gt(0))[0]!)(x)).toThrow(/where: the result's length is the count of nonzero values/);
  });
});
