// The elementwise Tensor methods DTensor takes from its POINTWISE list (they were "dt.tan is not
// a function") against PyTorch 2.13's own DTensor on 4 simulated ranks (dtensor-torch.ts), in
// every mode: placements (shards kept, operands broadcast, a Partial reduced first), dtype, shape,
// each chip's piece and the full value; unary, binary with DTensors and numbers, comparisons to
// bool, int32 bitwise ops, and on a 2-d mesh.
import { tpu } from 'tpu-kernel/runtime';
import { map, values } from './dtensor-reference.js';
import { bf16, bool, compareWithTorch, f32, i32, type Case } from './dtensor-torch.js';
import { S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');
const x = values([10, 6]);
const y = values([10, 6], 5);
const positive = map(y, (v) => Math.abs(v) + 0.5);
const row = values([6], 3);
const column = values([10, 1], 4);
const ints = map(values([10, 6], 2), (v) => Math.round(v * 3));

const cases: Case[] = [
  { name: 'tan keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.tan(), py: 'd0.tan()' },
  { name: 'tan of a Partial(sum) reduces it first', inputs: [f32(x, [P])], js: (d) => d.tan(), py: 'd0.tan()' },
  { name: 'sigmoid of bfloat16 keeps Shard(1)', inputs: [bf16(x, [S1])], js: (d) => d.sigmoid(), py: 'd0.sigmoid()' },
  { name: 'expm1 on a 2-d mesh keeps [Shard(0), Shard(1)]', inputs: [f32(x, [S0, S1])], js: (d) => d.expm1(), py: 'd0.expm1()' },
  { name: 'erf of [Shard(1), Replicate()] on a 2-d mesh', inputs: [f32(x, [S1, R])], js: (d) => d.erf(), py: 'd0.erf()' },
  { name: 'atan2 of Shard(0) and Replicate', inputs: [f32(x, [S0]), f32(y, [R])], js: (a, b) => a.atan2(b!), py: 'torch.atan2(d0, d1)' },
  { name: 'hypot of Shard(1) with a broadcast row', inputs: [f32(x, [S1]), f32(row, [R])], js: (a, b) => a.hypot(b!), py: 'torch.hypot(d0, d1)' },
  { name: 'logaddexp of Replicate with a sharded row: the row\'s shard', inputs: [f32(x, [R]), f32(row, [S0])], js: (a, b) => a.logaddexp(b!), py: 'torch.logaddexp(d0, d1)' },
  { name: 'maximum of Shard(0) with a broadcast column sharded on rows', inputs: [f32(x, [S0]), f32(column, [S0])], js: (a, b) => a.maximum(b!), py: 'torch.maximum(d0, d1)' },
  { name: 'copysign of Shard(0) and Shard(1): the first\'s shard', inputs: [f32(x, [S0]), f32(y, [S1])], js: (a, b) => a.copysign(b!), py: 'torch.copysign(d0, d1)' },
  { name: 'xlogy of two Partials reduces both', inputs: [f32(x, [P]), f32(positive, [P])], js: (a, b) => a.xlogy(b!), py: 'torch.xlogy(d0, d1)' },
  { name: 'pow by a number keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.pow(2), py: 'd0.pow(2)' },
  { name: 'pow of a Partial by a number reduces it', inputs: [f32(x, [P])], js: (d) => d.pow(2), py: 'd0.pow(2)' },
  { name: 'clamp with numbers keeps Shard(1)', inputs: [f32(x, [S1])], js: (d) => d.clamp(-1, 2), py: 'd0.clamp(-1, 2)' },
  { name: 'lerp with a DTensor end and a number weight', inputs: [f32(x, [S0]), f32(y, [S0])], js: (a, b) => a.lerp(b!, 0.25), py: 'torch.lerp(d0, d1, 0.25)' },
  { name: 'where with a DTensor condition and other', inputs: [f32(x, [S0]), f32(y, [R]), f32(row, [R])], js: (a, c, o) => a.where(c!.gt(0), o!), py: 'torch.where(d1 > 0, d0, d2)' },
  { name: 'ge of two DTensors gives bool Shard(0)', inputs: [f32(x, [S0]), f32(y, [S0])], js: (a, b) => a.ge(b!), py: 'd0.ge(d1)' },
  { name: 'isclose gives bool and keeps Shard(0)', inputs: [f32(x, [S0]), f32(map(x, (v) => v + (v > 0 ? 1e-7 : 1)), [S0])], js: (a, b) => a.isclose(b!), py: 'torch.isclose(d0, d1)' },
  { name: 'round with decimals', inputs: [f32(map(x, (v) => v * 1.37), [S0])], js: (d) => d.round({ decimals: 1 }), py: 'd0.round(decimals=1)' },
  { name: 'bitwiseAnd of int32 with a number', inputs: [i32(ints, [S0])], js: (d) => d.bitwiseAnd(6), py: 'd0.bitwise_and(6)' },
  { name: 'bitwiseXor of two int32 DTensors on a 2-d mesh', inputs: [i32(ints, [S0, S1]), i32(map(ints, (v) => v + 7), [R, S0])], js: (a, b) => a.bitwiseXor(b!), py: 'torch.bitwise_xor(d0, d1)' },
  { name: 'remainder of int32 by a number', inputs: [i32(ints, [S1])], js: (d) => d.remainder(4), py: 'd0.remainder(4)' },
  { name: 'fmod of float32 by a DTensor', inputs: [f32(x, [S0]), f32(positive, [S0])], js: (a, b) => a.fmod(b!), py: 'torch.fmod(d0, d1)' },
  { name: 'logicalAnd of bools on a 2-d mesh', inputs: [bool(x, [S0, R]), bool(y, [R, S1])], js: (a, b) => a.logicalAnd(b!), py: 'torch.logical_and(d0, d1)' },
  { name: 'to bfloat16 keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.to('bfloat16'), py: 'd0.to(torch.bfloat16)' },
  { name: 'clone of a Partial(sum) reduces it, as PyTorch\'s', inputs: [f32(x, [P])], js: (d) => d.clone(), py: 'd0.clone()' },
];

compareWithTorch('DTensor elementwise ops vs PyTorch DTensor', cases);
