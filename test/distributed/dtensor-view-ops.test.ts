// DTensor view ops keep a Shard without a gather where PyTorch 2.13's view sharding propagation
// does (view-rules.ts): reshape, view, flatten, unflatten, squeeze, unsqueeze, narrow and select
// on Shard(d) DTensors, on a [4] and a [2, 2] mesh, against PyTorch's own DTensor on 4 simulated
// ranks (dtensor_torch_reference.py): placements, each chip's piece, the full value; and the
// profiler's collective count is 0 exactly where PyTorch keeps every shard.
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { host, values } from './dtensor-reference.js';
import { compareWithTorch, dist, f32, torchAnswers, wire, type Answer, type Case } from './dtensor-torch.js';
import { S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');
const S2 = tpu.Shard(2);
const x = values([10, 6]);
const even = values([8, 3]);
const x3 = values([4, 2, 3]);
const single = values([10, 1, 6]);
const square = values([8, 6], 2);

const cases: Case[] = [
  { name: 'reshape(-1) of Shard(0) with rows divisible by the chips stays Shard(0)', inputs: [f32(even, [S0])], js: (d) => d.reshape(-1), py: 'd0.reshape(-1)' },
  { name: 'view splitting the sharded dim, its first part divisible by the chips, stays Shard(0)', inputs: [f32(even, [S0])], js: (d) => d.view(4, 2, 3), py: 'd0.view(4, 2, 3)' },
  { name: 'reshape splitting an unsharded dim keeps an uneven Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.reshape(10, 2, 3), py: 'd0.reshape(10, 2, 3)' },
  { name: 'flatten(1) keeps Shard(0)', inputs: [f32(x3, [S0])], js: (d) => d.flatten(1), py: 'd0.flatten(1)' },
  { name: 'unflatten(1, [2, 3]) keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.unflatten(1, [2, 3]), py: 'd0.unflatten(1, (2, 3))' },
  { name: 'unsqueeze(0) moves Shard(0) to Shard(1)', inputs: [f32(x, [S0])], js: (d) => d.unsqueeze(0), py: 'd0.unsqueeze(0)' },
  { name: 'unsqueeze(-1) keeps Shard(1)', inputs: [f32(x, [S1])], js: (d) => d.unsqueeze(-1), py: 'd0.unsqueeze(-1)' },
  { name: 'squeeze(1) moves Shard(2) to Shard(1)', inputs: [f32(single, [S2])], js: (d) => d.squeeze(1), py: 'd0.squeeze(1)' },
  { name: 'squeeze() keeps Shard(0)', inputs: [f32(single, [S0])], js: (d) => d.squeeze(), py: 'd0.squeeze()' },
  { name: 'narrow of an unsharded dim keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.narrow(1, 1, 3), py: 'd0.narrow(1, 1, 3)' },
  { name: 'narrow of the sharded dim is gathered', inputs: [f32(x, [S0])], js: (d) => d.narrow(0, 2, 5), py: 'd0.narrow(0, 2, 5)' },
  { name: 'select of an unsharded dim keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.select(1, 2), py: 'd0.select(1, 2)' },
  { name: 'select of a dim before the sharded one moves Shard(1) to Shard(0)', inputs: [f32(x, [S1])], js: (d) => d.select(0, -1), py: 'd0.select(0, -1)' },
  { name: 'select of the sharded dim is gathered', inputs: [f32(x, [S0])], js: (d) => d.select(0, 3), py: 'd0.select(0, 3)' },
  { name: 'transpose moves Shard(0) to Shard(1)', inputs: [f32(x, [S0])], js: (d) => d.transpose(0, 1), py: 'd0.transpose(0, 1)' },
  { name: 'a 2-d mesh: [Shard(0), Shard(1)] through a split of dim 1 by 2', inputs: [f32(square, [S0, S1])], js: (d) => d.reshape(8, 2, 3), py: 'd0.reshape(8, 2, 3)' },
  { name: 'a 2-d mesh: [Replicate(), Shard(0)] flattened', inputs: [f32(square, [R, S0])], js: (d) => d.view(48), py: 'd0.view(48)' },
  { name: 'a Partial stays Partial through reshape', inputs: [f32(x, [P])], js: (d) => d.reshape(3, 20), py: 'd0.reshape(3, 20)' },
  { name: 'a 2-d mesh: [Partial, Shard(1)] through unsqueeze(0)', inputs: [f32(x, [P, S1])], js: (d) => d.unsqueeze(0), py: 'd0.unsqueeze(0)' },
];

compareWithTorch('DTensor view ops', cases);

// Where PyTorch raises (a view of an uneven shard that does not stay a Shard) or keeps a
// _StridedShard (a non-first flattened dim: each rank's piece is a strided column), this runtime
// gathers: Replicate(), the full tensor's values.
const gathered: (Case & { torch: RegExp | 'strided' })[] = [
  { name: 'reshape(-1) of an uneven Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.reshape(-1), py: 'd0.reshape(-1)', torch: /Cannot flatten unevenly sharded tensor/ },
  { name: 'view splitting the sharded dim, its first part not divisible by the chips', inputs: [f32(even, [S0])], js: (d) => d.view(2, 4, 3), py: 'd0.view(2, 4, 3)', torch: /Cannot unflatten unevenly sharded tensor/ },
  { name: 'reshape(-1) of Shard(1), not the first flattened dim', inputs: [f32(even, [S1])], js: (d) => d.reshape(-1), py: 'd0.reshape(-1)', torch: 'strided' },
];

describe('DTensor view ops PyTorch refuses or keeps as a _StridedShard: gathered here', () => {
  let answers: Answer[] = [];
  beforeAll(() => {
    answers = torchAnswers(gathered.map((c) => wire(c.py, c.inputs)));
  });
  for (const [i, c] of gathered.entries()) {
    it(c.name, () => {
      const want = answers[i]!;
      if (c.torch === 'strided') expect(want.locals!.map((l) => l.shape)).toEqual([[8], [8], [8], [0]]); // a column of 8 per rank
      else expect(want.error).toMatch(c.torch);
      for (const mode of ['debug', 'strict', 'fused'] as const) {
        const got = tpu.withMode(mode, () => c.js(dist(c.inputs[0]!)));
        const h = c.inputs[0]!.h;
        expect([got.placements.map(String), got.shape, host(got.fullTensor())], mode).toEqual([[String(R)], c.py.includes('view') ? [2, 4, 3] : [h.data.length], h.data.map(Math.fround)]);
      }
    });
  }
});

describe('DTensor view ops: collectives', () => {
  let answers: Answer[] = [];
  beforeAll(() => {
    answers = torchAnswers(cases.map((c) => wire(c.py, c.inputs)));
  });
  it('none where PyTorch keeps every shard, some where it gathers one', async () => {
    const shards = (ps: string) => (ps.match(/Shard/g) ?? []).length;
    for (const [i, c] of cases.entries()) {
      const input = dist(c.inputs[0]!);
      await tpu.sync();
      const rec = tpu.profiler.record();
      c.js(input);
      await tpu.sync();
      const count = rec.stop().toJSON().chips!.collectives.count;
      const kept = shards(answers[i]!.placements!) === shards(input.placements.map(String).join());
      if (kept) expect(count, c.name).toBe(0);
      else expect(count, c.name).toBeGreaterThan(0);
    }
  });
});
