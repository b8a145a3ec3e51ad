// DTensor max, min, amin, argmax, argmin, std and var (DTensor had none but amax: dt.max() was
// "dt.max is not a function"), with their Tensor namesakes' argument forms, against PyTorch
// 2.13's own DTensor on 4 simulated ranks (dtensor-torch.ts), in every mode: max()/min()/amin
// over a sharded dim give Partial('max'/'min'); max(dim)/min(dim) (values and indices, each
// checked), argmax/argmin and std/var gather a sharded reduced dim to Replicate() first, as
// PyTorch's rules do. Where PyTorch cannot answer (an empty piece under min()), the full Tensor's
// amin is the reference. Bad options are the Tensor methods' errors, naming the DTensor method.
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor } from 'tpu-kernel/runtime';
import { expectClose, host, map, values } from './dtensor-reference.js';
import { bf16, compareWithTorch, dist, f32, i32, type Case } from './dtensor-torch.js';
import { S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');
const x = values([10, 6]);
// ties in every row and column (PyTorch's max(dim) gives the first index of the extremum)
const ties = map(x, (v) => Math.round(v / 4));

const cases: Case[] = [
  // max() / min() / amin: Partial('max'/'min') over sharded dims
  { name: 'max() of Shard(0) gives Partial(max)', inputs: [f32(x, [S0])], js: (d) => d.max(), py: 'd0.max()' },
  { name: 'min() of Shard(0) gives Partial(min)', inputs: [f32(x, [S0])], js: (d) => d.min(), py: 'd0.min()' },
  { name: 'max() of Replicate', inputs: [f32(x, [R])], js: (d) => d.max(), py: 'd0.max()' },
  { name: 'max() of a Partial(sum) reduces the parts first', inputs: [f32(x, [P])], js: (d) => d.max(), py: 'd0.max()' },
  { name: 'max() on a 2-d mesh gives Partial(max) twice', inputs: [f32(x, [S0, S1])], js: (d) => d.max(), py: 'd0.max()' },
  { name: 'min() of int32 on a 2-d mesh', inputs: [i32(x, [S1, S0])], js: (d) => d.min(), py: 'd0.min()' },
  { name: 'max() of [Partial(sum), Shard(0)] gathers all', inputs: [f32(x, [P, S0])], js: (d) => d.max(), py: 'd0.max()' },
  { name: 'amin over the sharded dim gives Partial(min)', inputs: [f32(x, [S0])], js: (d) => d.amin(0), py: 'd0.amin(0)' },
  { name: 'amin over another dim keeps Shard(0), keepdim', inputs: [f32(x, [S0])], js: (d) => d.amin(1, true), py: 'd0.amin(1, keepdim=True)' },
  { name: 'amin over both dims on a 2-d mesh', inputs: [f32(x, [S0, S1])], js: (d) => d.amin({ dim: [0, 1], keepdim: true }), py: 'd0.amin([0, 1], keepdim=True)' },
  { name: 'amin of [Shard(0), Shard(1)] over dim 1', inputs: [f32(x, [S0, S1])], js: (d) => d.amin(1), py: 'd0.amin(1)' },
  { name: 'amin of [Partial(sum), Shard(1)] over the sharded dim gathers it', inputs: [f32(x, [P, S1])], js: (d) => d.amin(1), py: 'd0.amin(1)' },
  { name: 'amax of [Shard(0), Partial(sum)] over the sharded dim gathers it', inputs: [f32(x, [S0, P])], js: (d) => d.amax(0), py: 'd0.amax(0)' },
  // max(dim) / min(dim): values and indices
  ...(['values', 'indices'] as const).flatMap((part, k): Case[] => {
    const pick = (r: { values: DTensor; indices: DTensor }) => r[part];
    return [
      { name: `max(0) ${part} over the sharded dim give Replicate()`, inputs: [f32(x, [S0])], js: (d) => pick(d.max(0)), py: `d0.max(0)[${k}]` },
      { name: `max(1) ${part} over another dim keep Shard(0)`, inputs: [f32(x, [S0])], js: (d) => pick(d.max(1)), py: `d0.max(1)[${k}]` },
      { name: `max with keepdim ${part} over the sharded dim`, inputs: [f32(x, [S0])], js: (d) => pick(d.max(0, true)), py: `d0.max(0, keepdim=True)[${k}]` },
      { name: `min(0, { keepdim }) ${part} of Shard(1) keep Shard(1)`, inputs: [f32(x, [S1])], js: (d) => pick(d.min(0, { keepdim: true })), py: `d0.min(0, keepdim=True)[${k}]` },
      { name: `min({ dim: 1 }) ${part} over the sharded dim (an empty piece)`, inputs: [f32(x, [S1])], js: (d) => pick(d.min({ dim: 1 })), py: `d0.min(dim=1)[${k}]` },
      { name: `max(-1) ${part} of Replicate`, inputs: [f32(x, [R])], js: (d) => pick(d.max(-1)), py: `d0.max(-1)[${k}]` },
      { name: `max(1) ${part} of a Partial(sum)`, inputs: [f32(x, [P])], js: (d) => pick(d.max(1)), py: `d0.max(1)[${k}]` },
      { name: `max(0) ${part} of int32 with ties`, inputs: [i32(ties, [S0])], js: (d) => pick(d.max(0)), py: `d0.max(0)[${k}]` },
      { name: `min(1) ${part} of bfloat16 with ties`, inputs: [bf16(ties, [S0])], js: (d) => pick(d.min(1)), py: `d0.min(1)[${k}]` },
      { name: `max(0) ${part} on a 2-d mesh give [Replicate(), Shard(0)]`, inputs: [f32(x, [S0, S1])], js: (d) => pick(d.max(0)), py: `d0.max(0)[${k}]` },
      { name: `min(1, true) ${part} of [Shard(0), Replicate()]`, inputs: [f32(x, [S0, R])], js: (d) => pick(d.min(1, true)), py: `d0.min(1, keepdim=True)[${k}]` },
      { name: `max(1) ${part} of [Partial(sum), Shard(0)]`, inputs: [f32(x, [P, S0])], js: (d) => pick(d.max(1)), py: `d0.max(1)[${k}]` },
    ];
  }),
  // argmax / argmin
  { name: 'argmax over the sharded dim gives Replicate()', inputs: [f32(x, [S0])], js: (d) => d.argmax(0), py: 'd0.argmax(0)' },
  { name: 'argmax of the flattened tensor gives Replicate()', inputs: [f32(x, [S0])], js: (d) => d.argmax(), py: 'd0.argmax()' },
  { name: 'argmin over another dim with keepdim keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.argmin(1, true), py: 'd0.argmin(1, keepdim=True)' },
  { name: 'argmin of int32 with ties, { dim }', inputs: [i32(ties, [S1])], js: (d) => d.argmin({ dim: 0 }), py: 'd0.argmin(dim=0)' },
  { name: 'argmin on a 2-d mesh', inputs: [f32(x, [S1, S0])], js: (d) => d.argmin(1), py: 'd0.argmin(1)' },
  // std / var: a sharded reduced dim is gathered
  { name: 'var() of Shard(0) gives Replicate()', inputs: [f32(x, [S0])], js: (d) => d.var(), py: 'd0.var()' },
  { name: 'std over the sharded dim gives Replicate()', inputs: [f32(x, [S0])], js: (d) => d.std(0), py: 'd0.std(0)' },
  { name: 'var over another dim keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.var(1), py: 'd0.var(1)' },
  { name: 'var with keepdim and correction 0', inputs: [f32(x, [S0])], js: (d) => d.var(1, { keepdim: true, correction: 0 }), py: 'd0.var(1, keepdim=True, correction=0)' },
  { name: 'var over the sharded dim with keepdim', inputs: [f32(x, [S0])], js: (d) => d.var({ dim: 0, keepdim: true }), py: 'd0.var(0, keepdim=True)' },
  { name: 'std with unbiased false of Shard(1) keeps it', inputs: [f32(x, [S1])], js: (d) => d.std(0, false), py: 'd0.std(0, unbiased=False)' },
  { name: 'std(dim, unbiased, keepdim) of Replicate', inputs: [f32(x, [R])], js: (d) => d.std(1, true, true), py: 'd0.std(1, True, True)' },
  { name: 'std(false) of everything', inputs: [f32(x, [S1])], js: (d) => d.std(false), py: 'd0.std(unbiased=False)' },
  { name: 'var of a Partial(sum) reduces the parts first', inputs: [f32(x, [P])], js: (d) => d.var(1), py: 'd0.var(1)' },
  { name: 'std of bfloat16 with correction 2', inputs: [bf16(x, [S0])], js: (d) => d.std(1, { correction: 2 }), py: 'd0.std(1, correction=2)' },
  { name: 'var over the sharded dim on a 2-d mesh', inputs: [f32(x, [S0, S1])], js: (d) => d.var(0), py: 'd0.var(0)' },
  { name: 'std over both dims on a 2-d mesh', inputs: [f32(x, [S0, S1])], js: (d) => d.std([0, 1]), py: 'd0.std([0, 1])' },
  { name: 'std with keepdim and correction 0 of [Shard(0), Replicate()]', inputs: [f32(x, [S0, R])], js: (d) => d.std(1, { keepdim: true, correction: 0 }), py: 'd0.std(1, keepdim=True, correction=0)' },
  { name: 'var of [Partial(sum), Shard(0)] over dim 1', inputs: [f32(x, [P, S0])], js: (d) => d.var(1), py: 'd0.var(1)' },
];

compareWithTorch('DTensor reductions vs PyTorch DTensor', cases);

describe('DTensor reductions where PyTorch cannot answer', () => {
  // 6 columns on 4 chips: the last piece is empty, and PyTorch's min()/amin of it raise
  it.each([
    ['min()', (d: DTensor) => d.min(), (t: tpu.Tensor) => t.min(), "[Partial('min')]"],
    ['max()', (d: DTensor) => d.max(), (t: tpu.Tensor) => t.max(), "[Partial('max')]"],
    ['amin(1)', (d: DTensor) => d.amin(1), (t: tpu.Tensor) => t.amin(1), "[Partial('min')]"],
  ])('%s of Shard(1) with an empty piece: the full tensor\'s value', (_, op, full, placements) => {
    for (const dtype of ['float32', 'int32'] as const) {
      const input = dtype === 'int32' ? i32(x, [S1]) : f32(x, [S1]);
      const got = op(dist(input));
      expect(String(got.placements)).toBe(placements.slice(1, -1));
      expectClose(host(got.fullTensor()), host(full(tpu.tensor(input.h.data, { dtype }).reshape(x.shape))), 0);
    }
  });
});

describe('DTensor reductions check their options as the Tensor methods do', () => {
  const t = () => tpu.tensor(x.data).reshape(x.shape);
  const d = () => dist(f32(x, [S0]));
  const bad = (v: unknown) => v as never;
  const messageOf = (call: () => unknown) => {
    try {
      call();
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('no error');
  };
  it.each([
    ['max', (v: tpu.Tensor | DTensor) => v.max(0, bad({ keepdm: true }))],
    ['min', (v: tpu.Tensor | DTensor) => v.min(bad({ dim: 0, keepdims: true }))],
    ['max', (v: tpu.Tensor | DTensor) => v.max(bad([0, 1]))],
    ['amin', (v: tpu.Tensor | DTensor) => v.amin(0, bad({ keep: true }))],
    ['argmax', (v: tpu.Tensor | DTensor) => v.argmax(bad({ dims: 0 }))],
    ['var', (v: tpu.Tensor | DTensor) => v.var(0, bad({ corection: 0 }))],
    ['std', (v: tpu.Tensor | DTensor) => v.std(0, { correction: -1 })],
    ['std', (v: tpu.Tensor | DTensor) => v.std({ dim: 0, unbiased: false, correction: 0 })],
  ])('%s: the Tensor method\'s message, naming DTensor.%s', (op, call) => {
    const want = messageOf(() => call(t()));
    expect(want).toMatch(new RegExp(`^${op}: `));
    // the Tensor's message, each mention of the method naming DTensor.<op>
    expect(() => call(d())).toThrow(want.replace(new RegExp(`\\b${op}\\b`, 'g'), `DTensor.${op}`));
  });

  it('an unknown option is named, with what is accepted', () => {
    expect(() => d().max(0, bad({ keepdm: true }))).toThrow("DTensor.max: unknown option 'keepdm'; DTensor.max accepts 'keepdim'");
    expect(() => d().var(0, bad({ corection: 0 }))).toThrow("DTensor.var: unknown option 'corection'; DTensor.var accepts 'keepdim', 'correction', 'unbiased'");
  });

  it('max(other), the elementwise maximum, has no DTensor rule and says so', () => {
    expect(() => d().max(bad(d()))).toThrow('DTensor.max(other), the elementwise maximum, has no DTensor rule here');
  });
});
