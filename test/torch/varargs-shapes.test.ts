// PyTorch's everyday shape forms: sizes as integers (torch.zeros(2, 3), x.view(-1),
// x.reshape(1, 4), x.expand(2, 2, 4), x.flip(0, 1)) as well as one list, with a trailing
// options object where PyTorch takes keywords (torch.zeros(2, 3, dtype=...)); the functions
// that take one list only (torch.reshape(x, shape), torch.permute(x, dims)); x.size(),
// x.size(d), x.size({ dim }), x.dim() and x.tolist(). Against PyTorch in every mode (size()
// and tolist() as tensors made from what they return), then the words of the errors.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i64, seq, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const X = seq('float32', [2, 3, 4]);
const M = f32([[1.5, -2, 3.25], [4, 0.5, -1]]);
const COLUMN = f32([[1], [2], [3]]);

const cases: TorchCase[] = [
  {
    name: 'zeros ones empty as integers, with options',
    inputs: [],
    js: () => [tpu.zeros(2, 3), tpu.ones(3), tpu.zeros(2, 3, { dtype: 'int32' }), tpu.ones(2, 1, { dtype: 'int64' }), tpu.zeros(0, 3), tpu.empty(2, 3).fill_(1), tpu.empty(4, { dtype: 'bool' }).fill_(true)],
    py: '(torch.zeros(2, 3), torch.ones(3), torch.zeros(2, 3, dtype=torch.int32), torch.ones(2, 1, dtype=torch.int64), torch.zeros(0, 3), torch.empty(2, 3).fill_(1), torch.empty(4, dtype=torch.bool).fill_(True))',
  },
  {
    // the generators differ: shapes and dtypes compared, values through mul(0)
    name: 'rand randn as integers, with options',
    inputs: [],
    js: () => [tpu.rand(2, 3).mul(0), tpu.randn(4, 5).mul(0), tpu.randn(3, { dtype: 'bfloat16' }).mul(0), tpu.rand([2, 2], { dtype: 'bfloat16' }).mul(0)],
    py: '(torch.rand(2, 3).mul(0), torch.randn(4, 5).mul(0), torch.randn(3, dtype=torch.bfloat16).mul(0), torch.rand([2, 2], dtype=torch.bfloat16).mul(0))',
    signedZeros: false,
  },
  {
    name: 'view and reshape as integers, -1 inferred',
    inputs: [X],
    js: (x) => [x.view(-1), x.view(4, -1), x.view(2, 12), x.reshape(1, 24), x.reshape(-1, 3, 2), x.view(24).view([2, -1]), x.reshape(6, 4).T.reshape(-1)],
    py: '(x0.view(-1), x0.view(4, -1), x0.view(2, 12), x0.reshape(1, 24), x0.reshape(-1, 3, 2), x0.view(24).view([2, -1]), x0.reshape(6, 4).T.reshape(-1))',
  },
  {
    name: 'a view made with integers writes through to its base',
    inputs: [X],
    js: (x) => { x.view(-1).narrow(0, 0, 5).fill_(7); x.view(6, 4).mul_(2); return x; },
    py: 'x0.view(-1).narrow(0, 0, 5).fill_(7)\nx0.view(6, 4).mul_(2)\nresult = x0',
  },
  weightedGrad('gradient through view(-1) and reshape(3, 2)', M, (x) => x.view(-1).reshape(3, 2), 'x.view(-1).reshape(3, 2)', [[1, 2], [3, 4], [5, 6]]),
  {
    name: 'expand as integers, -1 keeping a size',
    inputs: [COLUMN],
    js: (x) => [x.expand(3, 4), x.expand(2, 3, 4), x.expand(2, -1, 5), x.expand([2, 3, 2])],
    py: '(x0.expand(3, 4), x0.expand(2, 3, 4), x0.expand(2, -1, 5), x0.expand([2, 3, 2]))',
  },
  {
    name: 'flip tile squeeze permute repeat with several integers',
    inputs: [M],
    js: (x) => [x.flip(0, 1), x.flip(-1), x.tile(2, 1), x.tile(2), x.view(1, 2, 1, 3).squeeze(0, 2), x.view(1, 2, 1, 3).squeeze(0), x.permute(1, 0), x.repeat(2, 1, 1)],
    py: '(x0.flip(0, 1), x0.flip(-1), x0.tile(2, 1), x0.tile(2), x0.view(1, 2, 1, 3).squeeze(0, 2), x0.view(1, 2, 1, 3).squeeze(0), x0.permute(1, 0), x0.repeat(2, 1, 1))',
  },
  {
    name: 'size() size(d) dim() ndimension()',
    inputs: [X],
    js: (x) => [tpu.tensor(x.size(), { dtype: 'int64' }), tpu.tensor([x.size(0), x.size(-1), x.size(-3), x.dim(), x.ndimension(), x.sum().dim()], { dtype: 'int64' })],
    py: '(torch.tensor(x0.size()), torch.tensor([x0.size(0), x0.size(-1), x0.size(-3), x0.dim(), x0.ndimension(), x0.sum().dim()]))',
  },
  {
    // PyTorch's x.size(dim=1): a dim in the options, as every op that takes a dim has it
    name: 'size({ dim }) and size({})',
    inputs: [X],
    js: (x) => [tpu.tensor([x.size({ dim: 1 }), x.size({ dim: -3 })], { dtype: 'int64' }), tpu.tensor(x.size({} as never), { dtype: 'int64' })],
    py: '(torch.tensor([x0.size(dim=1), x0.size(dim=-3)]), torch.tensor(x0.size(dim=None)))',
  },
  {
    name: 'tpu.permute(x, dims) with one array, negative dims too, as torch.permute',
    inputs: [X],
    js: (x) => [tpu.permute(x, [2, 0, 1]), tpu.permute(x, [-1, -3, 1]), tpu.permute(x.sum(), [])],
    py: '(torch.permute(x0, (2, 0, 1)), torch.permute(x0, [-1, -3, 1]), torch.permute(x0.sum(), ()))',
  },
  // PyTorch raises on each: the function takes one list, and every dim once
  { name: 'tpu.permute(x, 2, 0, 1) with integers', inputs: [X], js: (x) => tpu.permute(x, ...([2, 0, 1] as never as [number[]])), py: 'torch.permute(x0, 2, 0, 1)' },
  { name: 'tpu.permute(x, [1, 0]) with too few dims', inputs: [X], js: (x) => tpu.permute(x, [1, 0]), py: 'torch.permute(x0, (1, 0))' },
  { name: 'tpu.permute(x, [0, 0, 1]) with a repeated dim', inputs: [X], js: (x) => tpu.permute(x, [0, 0, 1]), py: 'torch.permute(x0, (0, 0, 1))' },
  { name: 'x.permute(0, -3, 1) with a dim repeated by its negative', inputs: [X], js: (x) => x.permute(0, -3, 1), py: 'x0.permute(0, -3, 1)' },
  {
    // tpu.tensor infers float32 from numbers and bool from booleans, as torch.tensor does
    name: 'tolist of float32, bfloat16, bool, 0-d and empty tensors',
    inputs: [M, bf16([[0.1, -2.5], [1e3, 3]]), bool([[true, false, true]])],
    js: (x, h, b) => [tpu.tensor(x.tolist()), tpu.tensor(h.tolist()), tpu.tensor(b.tolist()), tpu.tensor(x.sum().tolist()), tpu.tensor(x.narrow(1, 0, 0).tolist())],
    py: '(torch.tensor(x0.tolist()), torch.tensor(x1.tolist()), torch.tensor(x2.tolist()), torch.tensor(x0.sum().tolist()), torch.tensor(x0.narrow(1, 0, 0).tolist()))',
  },
  {
    name: 'tolist of int64 values up to 2^53 - 1',
    inputs: [i64([[2 ** 53 - 1, -3], [0, 7]])],
    js: (x) => tpu.tensor(x.tolist(), { dtype: 'int64' }),
    py: 'torch.tensor(x0.tolist())',
  },
];

torchTier('varargs shapes, size and tolist vs PyTorch', cases);

// Each call below raises in PyTorch 2.13 too (TypeError, RuntimeError or IndexError).
describe('a shape given wrongly: the error names the function, the argument, what it expects and what came', () => {
  const x = () => tpu.zeros(2, 3);
  it.each([
    ['x.view(2, "3")', () => x().view(2, '3' as never), 'view: shape[1] must be an integer ≥ -1 (one -1 is inferred from the others); got the string "3" in view(2, "3")'],
    ['x.view([2], 3)', () => x().view(...([[2], 3] as never as [number])), 'view: give shape as integers, view(2, 3), or as one array, view([2, 3]), not both; got view([2], 3)'],
    ['x.reshape(2, 1.5)', () => x().reshape(2, 1.5), 'reshape: shape[1] must be an integer ≥ -1 (one -1 is inferred from the others); got 1.5 in reshape(2, 1.5)'],
    ['x.view(-1, -1)', () => x().view(-1, -1), 'view: only one dimension can be -1; got [-1, -1]'],
    ['x.view(-2, 3)', () => x().view(-2, 3), 'view: shape[0] must be an integer ≥ -1 (one -1 is inferred from the others); got -2 in view(-2, 3)'],
    ['x.view()', () => x().view(), 'view: shape is missing; give shape as integers, view(2, 3), or as one array, view([2, 3])'],
    ['x.view(4)', () => x().view(4), 'view: shape [4] is invalid for input of shape [2, 3] (6 elements)'],
    ['x.T.view(-1)', () => x().T.view(-1), "view: view size is not compatible with input tensor's size and stride"],
    ['x.expand(2, true)', () => x().expand(2, true as never), 'expand: shape[1] must be an integer ≥ -1 (one -1 is inferred from the others); got true in expand(2, true)'],
    ['x.expand(-1, 2, 3)', () => x().expand(-1, 2, 3), 'expand: -1 is not allowed for the new leading dimension 0'],
    ['x.flip()', () => x().flip(), 'flip: dims is missing; give dims as integers, flip(2, 3), or as one array, flip([2, 3])'],
    ['x.tile(2, -1)', () => x().tile(2, -1), 'tile: reps[1] must be a non-negative integer; got -1 in tile(2, -1)'],
    ['x.permute([1], 0)', () => x().permute(...([[1], 0] as never as [number])), 'permute: give dims as integers, permute(2, 3), or as one array, permute([2, 3]), not both; got permute([1], 0)'],
    ['tpu.zeros(2, -1)', () => tpu.zeros(2, -1), 'tpu.zeros: shape[1] must be a non-negative integer; got -1 in tpu.zeros(2, -1)'],
    ['tpu.ones(2, [3])', () => tpu.ones(...([2, [3]] as never as [number])), 'tpu.ones: give shape as integers, tpu.ones(2, 3), or as one array, tpu.ones([2, 3]), not both; got tpu.ones(2, [3])'],
    ['tpu.randn(2, "3", { dtype: "bfloat16" })', () => tpu.randn(2, '3' as never, { dtype: 'bfloat16' }), 'tpu.randn: shape[1] must be a non-negative integer; got the string "3" in tpu.randn(2, "3")'],
    ['tpu.empty({ dtype: "int32" })', () => tpu.empty({ dtype: 'int32' }), 'tpu.empty: shape is missing; give shape as integers, tpu.empty(2, 3), or as one array, tpu.empty([2, 3])'],
    ['tpu.rand(2, { dimm: 0 })', () => tpu.rand(2, { dimm: 0 } as never), "tpu.rand: unknown option 'dimm'; tpu.rand accepts 'dtype', 'requiresGrad', 'chip', 'device'"],
    // torch.reshape(x, shape) and torch.full(size, value) take the shape as one list only
    ['tpu.reshape(x, 3, 2)', () => tpu.reshape(x(), ...([3, 2] as never as [number[]])), 'tpu.reshape: shape must be one array of integers, as torch.reshape takes it: tpu.reshape(x, [3, 2]) (x.reshape also takes integers); got 2 arguments after x: 3, 2'],
    ['tpu.permute(x, 1, 0)', () => tpu.permute(x(), ...([1, 0] as never as [number[]])), 'tpu.permute: dims must be one array of integers, as torch.permute takes it: tpu.permute(x, [1, 0]) (x.permute also takes integers); got 2 arguments after x: 1, 0'],
    ['tpu.permute(x, 1)', () => tpu.permute(x(), 1 as never), 'tpu.permute: dims must be an array of integers; got 1'],
    ['tpu.permute(x, [1, 0, 2])', () => tpu.permute(x(), [1, 0, 2]), 'permute: dims [1, 0, 2] must list each of the 2 dims of the input [2, 3] once'],
    ['x.size("1")', () => x().size('1' as never), 'size: dim must be an integer; got the string "1"'],
    ['x.size({ dim: 1, keepdim: true })', () => x().size({ dim: 1, keepdim: true } as never), "size: unknown option 'keepdim'; size accepts 'dim'"],
    ['x.size(2)', () => x().size(2), 'size: dim must be an integer in [-2, 1] for a tensor of rank 2; got 2'],
    ['x.sum().size(0)', () => x().sum().size(0), 'size: dim 0 is out of range: the tensor is 0-d (shape []), it has no dims'],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });

  it('the options of creation still work, the requiresGrad of a leaf included', () => {
    const w = tpu.randn(3, 2, { requiresGrad: true });
    expect([w.shape, w.requiresGrad, tpu.zeros([2], { dtype: 'int64' }).dtype]).toEqual([[3, 2], true, 'int64']);
  });
});

describe('what size(), dim() and tolist() return: JS values of the kinds PyTorch gives', () => {
  it('size() a fresh array, size(d) and dim() numbers, tolist() numbers, booleans or nested arrays', () => {
    const x = tpu.tensor([[1.5, 2], [3, 4], [5, 6]]);
    const shape = x.size();
    shape.push(9); // a copy: the tensor's shape is unchanged
    expect([x.size(), x.size(-2), x.dim(), tpu.tensor(2).dim()]).toEqual([[3, 2], 3, 2, 0]);
    expect(x.tolist()).toEqual([[1.5, 2], [3, 4], [5, 6]]);
    expect(tpu.tensor(3.5).tolist()).toBe(3.5); // PyTorch: a Python float for a 0-d tensor
    expect(tpu.tensor([true, false]).tolist()).toEqual([true, false]);
    expect(tpu.zeros(2, 0).tolist()).toEqual([[], []]);
  });

  it('int64 beyond 2^53 is an error naming tolist, as array() and item() (data() reads it exactly)', () => {
    expect(() => tpu.tensor([2n ** 60n]).tolist()).toThrow('tolist: int64 value 1152921504606846976 (element 0) is beyond 2^53');
  });

  it('a disposed tensor: the error of item() and array()', () => {
    const t = tpu.ones(2);
    t.dispose();
    expect(() => t.tolist()).toThrow('dataSync: the tensor [2] float32 was disposed');
  });
});
