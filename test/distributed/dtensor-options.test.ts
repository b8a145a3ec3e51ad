// DTensor methods take the options their Tensor namesakes take (they were dropped: dt.softmax(1,
// { dtype: 'bfloat16' }) gave float32, dt.add(y, { alpha: 2 }) gave x + y): softmax, logSoftmax,
// cumsum, cumprod with { dtype }, sum and mean with { dtype }, add/sub with { alpha }, div with
// { roundingMode }. Each case runs in debug, strict and fused mode against PyTorch 2.13's own
// DTensor on 4 simulated ranks (dtensor_torch_reference.py): the result's placements, dtype,
// shape, each chip's piece against that rank's local tensor, and fullTensor(). Bad options are
// errors naming the method, the option, what was expected and what came.
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu, type DTensor } from 'tpu-kernel/runtime';
import { host, map, values } from './dtensor-reference.js';
import { bf16, compareWithTorch, dist, f32, i32, torchAnswers, wire, type Answer, type Case, type Input } from './dtensor-torch.js';
import { mesh, S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');

const x = values([10, 6]);
const y = values([10, 6], 5);
// a divisor with no zero
const divisor = map(y, (v) => (v === 0 ? 1.5 : v));
// small values, so products stay within float32's and bfloat16's exact range
const small = map(values([10, 6], 3), (v) => Math.round(v / 2) || 1);

const cases: Case[] = [
  { name: 'softmax with bfloat16 dtype over an unsharded dim keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.softmax(1, { dtype: 'bfloat16' }), py: 'd0.softmax(1, dtype=torch.bfloat16)' },
  { name: 'softmax of int32 with dim and float32 dtype in one options object', inputs: [i32(x, [S1])], js: (d) => d.softmax({ dim: 0, dtype: 'float32' }), py: 'd0.softmax(dim=0, dtype=torch.float32)' },
  { name: 'softmax with dtype over the sharded dim gives Replicate()', inputs: [f32(x, [S0])], js: (d) => d.softmax(0, { dtype: 'bfloat16' }), py: 'd0.softmax(0, dtype=torch.bfloat16)' },
  { name: 'softmax of a bfloat16 Partial with float32 dtype on a 2-d mesh', inputs: [bf16(x, [P, S0])], js: (d) => d.softmax(-1, { dtype: 'float32' }), py: 'd0.softmax(-1, dtype=torch.float32)' },
  { name: 'logSoftmax keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.logSoftmax(1), py: 'd0.log_softmax(1)' },
  { name: 'logSoftmax with bfloat16 dtype on a 2-d mesh', inputs: [f32(x, [S0, R])], js: (d) => d.logSoftmax(1, { dtype: 'bfloat16' }), py: 'd0.log_softmax(1, dtype=torch.bfloat16)' },
  { name: 'logSoftmax of int32 with float32 dtype over the sharded dim', inputs: [i32(x, [S0])], js: (d) => d.logSoftmax({ dim: 0, dtype: 'float32' }), py: 'd0.log_softmax(0, dtype=torch.float32)' },
  { name: 'cumsum of int32 gives int64 and keeps Shard(0)', inputs: [i32(x, [S0])], js: (d) => d.cumsum(1), py: 'd0.cumsum(1)' },
  { name: 'cumsum of int32 with float32 dtype on a 2-d mesh', inputs: [i32(x, [R, S0])], js: (d) => d.cumsum(1, { dtype: 'float32' }), py: 'd0.cumsum(1, dtype=torch.float32)' },
  { name: 'cumsum with bfloat16 dtype over the sharded dim gives Replicate()', inputs: [f32(x, [S0])], js: (d) => d.cumsum({ dim: 0, dtype: 'bfloat16' }), py: 'd0.cumsum(0, dtype=torch.bfloat16)' },
  { name: 'cumsum of a Partial gives Replicate()', inputs: [f32(x, [P])], js: (d) => d.cumsum(1), py: 'd0.cumsum(1)' },
  { name: 'cumprod keeps Shard(0)', inputs: [f32(small, [S0])], js: (d) => d.cumprod(1), py: 'd0.cumprod(1)' },
  { name: 'cumprod of int32 with float32 dtype', inputs: [i32(small, [S0])], js: (d) => d.cumprod(1, { dtype: 'float32' }), py: 'd0.cumprod(1, dtype=torch.float32)' },
  { name: 'cumprod of int32 over the sharded dim gives int64 Replicate()', inputs: [i32(small, [S1])], js: (d) => d.cumprod(1), py: 'd0.cumprod(1)' },
  { name: 'sum with bfloat16 dtype over the sharded dim gives a bfloat16 Partial', inputs: [f32(x, [S0])], js: (d) => d.sum(0, { dtype: 'bfloat16' }), py: 'd0.sum(0, dtype=torch.bfloat16)' },
  { name: 'sum of int32 with dim, keepdim and float32 dtype in one options object', inputs: [i32(x, [S0])], js: (d) => d.sum({ dim: 1, keepdim: true, dtype: 'float32' }), py: 'd0.sum(1, keepdim=True, dtype=torch.float32)' },
  { name: 'sum of a bfloat16 [Shard(0), Partial] with float32 dtype', inputs: [bf16(x, [S0, P])], js: (d) => d.sum(1, { dtype: 'float32' }), py: 'd0.sum(1, dtype=torch.float32)' },
  { name: 'sum of everything of int32 with float32 dtype', inputs: [i32(x, [S1])], js: (d) => d.sum({ dtype: 'float32' }), py: 'd0.sum(dtype=torch.float32)' },
  { name: 'mean of int32 with float32 dtype over an unsharded dim keeps Shard(0)', inputs: [i32(x, [S0])], js: (d) => d.mean(1, { dtype: 'float32' }), py: 'd0.mean(1, dtype=torch.float32)' },
  { name: 'mean of bfloat16 with dim, keepdim and float32 dtype in one options object on a 2-d mesh', inputs: [bf16(x, [S0, R])], js: (d) => d.mean({ dim: 1, keepdim: true, dtype: 'float32' }), py: 'd0.mean(1, keepdim=True, dtype=torch.float32)' },
  { name: 'mean of float32 with bfloat16 dtype of a Replicate', inputs: [f32(x, [R])], js: (d) => d.mean({ dtype: 'bfloat16' }), py: 'd0.mean(dtype=torch.bfloat16)' },
  { name: 'mean with bfloat16 dtype over the unevenly sharded dim gives Replicate()', inputs: [f32(x, [S0])], js: (d) => d.mean(0, { dtype: 'bfloat16' }), py: 'd0.mean(0, dtype=torch.bfloat16)' },
  { name: 'mean of a float32 Partial with bfloat16 dtype gives Replicate()', inputs: [f32(x, [P])], js: (d) => d.mean(1, { dtype: 'bfloat16' }), py: 'd0.mean(1, dtype=torch.bfloat16)' },
  { name: 'add with alpha of two Shard(0)', inputs: [f32(x, [S0]), f32(y, [S0])], js: (a, b) => a.add(b!, { alpha: 2 }), py: 'd0.add(d1, alpha=2)' },
  { name: 'add with alpha of two Partials stays Partial', inputs: [f32(x, [P]), f32(y, [P])], js: (a, b) => a.add(b!, { alpha: -0.5 }), py: 'd0.add(d1, alpha=-0.5)' },
  { name: 'add of a number with alpha', inputs: [f32(x, [S0])], js: (d) => d.add(2.5, { alpha: 2 }), py: 'd0.add(2.5, alpha=2)' },
  { name: 'add of int32 with an int alpha', inputs: [i32(x, [S0]), i32(y, [R])], js: (a, b) => a.add(b!, { alpha: 3 }), py: 'd0.add(d1, alpha=3)' },
  { name: 'sub with alpha of Replicate and Shard(1)', inputs: [f32(x, [R]), f32(y, [S1])], js: (a, b) => a.sub(b!, { alpha: 3 }), py: 'd0.sub(d1, alpha=3)' },
  { name: 'sub with alpha on a 2-d mesh', inputs: [f32(x, [S0, S1]), f32(y, [S0, R])], js: (a, b) => a.sub(b!, { alpha: 0.25 }), py: 'd0.sub(d1, alpha=0.25)' },
  { name: 'sub of a number with alpha from a Partial gives Replicate()', inputs: [f32(x, [P])], js: (d) => d.sub(1, { alpha: 2 }), py: 'd0.sub(1, alpha=2)' },
  { name: 'div with floor rounding keeps Shard(0)', inputs: [f32(x, [S0]), f32(divisor, [R])], js: (a, b) => a.div(b!, { roundingMode: 'floor' }), py: "d0.div(d1, rounding_mode='floor')" },
  { name: 'div of int32 by a number with floor rounding', inputs: [i32(x, [S1])], js: (d) => d.div(3, { roundingMode: 'floor' }), py: "d0.div(3, rounding_mode='floor')" },
  { name: 'div of a Partial by a number with trunc rounding gives Replicate()', inputs: [f32(x, [P])], js: (d) => d.div(0.75, { roundingMode: 'trunc' }), py: "d0.div(0.75, rounding_mode='trunc')" },
  { name: 'div of a Partial by a Replicate with floor rounding gives Replicate()', inputs: [f32(x, [P]), f32(divisor, [R])], js: (a, b) => a.div(b!, { roundingMode: 'floor' }), py: "d0.div(d1, rounding_mode='floor')" },
  { name: 'div with trunc rounding on a 2-d mesh', inputs: [f32(x, [R, S0]), f32(divisor, [S1, S0])], js: (a, b) => a.div(b!, { roundingMode: 'trunc' }), py: "d0.div(d1, rounding_mode='trunc')" },
];

compareWithTorch('DTensor options vs PyTorch DTensor', cases);

// A bfloat16 mean of a wider input is its float32 mean rounded once, as PyTorch's CPU mean: equal to
// PyTorch's mean of the gathered tensor, bit for bit (the tolerance above would pass a second
// rounding of Partial parts). PyTorch's own DTensor gives Partial('avg') over evenly sharded dims,
// each rank's mean rounded before averaging, so only the gathered mean is the reference here.
describe('DTensor mean with bfloat16 dtype is rounded once, as the gathered tensor\'s mean', () => {
  const gathered = (args: string) => `d0.redistribute(d0.device_mesh, [torch.distributed.tensor.Replicate()] * d0.device_mesh.ndim).mean(${args})`;
  const exact: { name: string; input: Input; js: (d: DTensor) => DTensor; args: string }[] = [
    { name: 'float32 over the unevenly sharded dim', input: f32(x, [S0]), js: (d) => d.mean(0, { dtype: 'bfloat16' }), args: '0, dtype=torch.bfloat16' },
    { name: 'float32 over the evenly sharded dim', input: f32(values([8, 6]), [S0]), js: (d) => d.mean(0, { dtype: 'bfloat16' }), args: '0, dtype=torch.bfloat16' },
    { name: 'int32 of everything on a 2-d mesh', input: i32(x, [S0, S1]), js: (d) => d.mean({ dtype: 'bfloat16' }), args: 'dtype=torch.bfloat16' },
    { name: 'a float32 Partial over an unsharded dim, keepdim', input: f32(x, [P]), js: (d) => d.mean(1, { keepdim: true, dtype: 'bfloat16' }), args: '1, keepdim=True, dtype=torch.bfloat16' },
  ];
  let answers: Answer[] = [];
  beforeAll(() => {
    answers = torchAnswers(exact.map((c) => wire(gathered(c.args), [c.input])));
  });
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    exact.forEach((c, i) => {
      it(`${mode}: ${c.name}`, () => {
        const got = tpu.withMode(mode, () => c.js(dist(c.input)));
        expect(got.placements.every((p) => p.kind === 'replicate'), String(got.placements)).toBe(true);
        expect(got.dtype).toBe('bfloat16');
        expect(host(got.fullTensor())).toEqual(answers[i]!.full!.values.map(Number));
      });
    });
  }
});

describe('DTensor options are checked as the Tensor methods check them', () => {
  const d = () => tpu.distributeTensor(tpu.tensor(x.data).reshape(x.shape), mesh, [S0]);
  const di = () => tpu.distributeTensor(tpu.tensor(map(x, Math.round).data, { dtype: 'int32' }).reshape(x.shape), mesh, [S0]);
  const bad = (v: unknown) => v as never;
  it.each([
    ['softmax with a misspelt option', () => d().softmax(1, bad({ dtpye: 'bfloat16' })), "DTensor.softmax: unknown option 'dtpye'; DTensor.softmax accepts 'dtype'"],
    ['softmax with an int dtype', () => d().softmax(1, { dtype: 'int32' }), 'DTensor.softmax: dtype int32 is not supported, as in PyTorch; give a floating-point dtype'],
    ['logSoftmax with an unknown dtype', () => d().logSoftmax({ dim: 1, dtype: bad('float16') }), 'DTensor.logSoftmax: dtype must be one of float32, bfloat16, int32, int64, bool; got "float16"'],
    ['cumsum with a bool dtype', () => d().cumsum(1, { dtype: 'bool' }), 'DTensor.cumsum: dtype bool is not supported, as in PyTorch; give a numeric dtype'],
    ['cumprod with a string after dim', () => d().cumprod(1, bad('float32')), "DTensor.cumprod: the argument after dim must be an options object such as { dtype: 'float32' }; got \"float32\""],
    ['sum with an unknown dtype', () => d().sum(0, { dtype: bad('float16') }), 'DTensor.sum: dtype must be one of float32, bfloat16, int32, int64, bool; got "float16"'],
    ['mean with an int dtype', () => d().mean(1, { dtype: 'int32' }), "DTensor.mean: dtype must be floating point, as PyTorch's mean(dtype=...); got int32"],
    ['mean of int32 without dtype', () => di().mean(1), "DTensor.mean: mean needs a floating dtype; got int32 (give { dtype: 'float32' }, as PyTorch's dtype=)"],
    ['add with a string alpha', () => d().add(d(), { alpha: bad('2') }), 'DTensor.add: alpha must be a number; got "2"'],
    ['sub with a misspelt option', () => d().sub(1, bad({ alfa: 2 })), "DTensor.sub: unknown option 'alfa'; DTensor.sub accepts 'alpha'"],
    ['add of int32 with a float alpha', () => di().add(di(), { alpha: 0.5 }), 'add: for integral input tensors, argument alpha must not be a floating point number (as in PyTorch); got alpha 0.5 for int32'],
    ['div with an unknown roundingMode', () => d().div(2, { roundingMode: bad('round') }), "DTensor.div: roundingMode must be 'trunc', 'floor' or null; got \"round\""],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });

  it('PyTorch rejects the same dtypes, alpha and roundingMode', () => {
    const pyCases = ['d0.softmax(1, dtype=torch.int32)', 'd0.cumsum(1, dtype=torch.bool)', 'd0.mean(1, dtype=torch.int32)', 'd0.mean(1)', 'd0.add(d1, alpha=0.5)', "d0.div(2, rounding_mode='round')"];
    const ints = i32(x, [S0]);
    torchAnswers(pyCases.map((py) => wire(py, [ints, ints]))).forEach((a, k) => expect(a.error, pyCases[k]).toBeDefined());
  });
});
