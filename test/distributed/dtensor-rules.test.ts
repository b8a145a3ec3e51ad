// Ops on DTensors follow DTensor's sharding rules: the output's placements are checked, each
// chip's piece against torch.chunk pieces of a float64 reference computed here with loops, and
// fullTensor() against the reference; 4 emulated chips, [4] and [2, 2] meshes, uneven shapes
// (10 rows on 4 chips), in debug, strict and fused mode, and DTensor code inside tpu.compile.
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor, type Placement, type Tensor } from 'tpu-kernel/runtime';
import { erfRef } from '../support/reference.js';
import { expectClose, expectDTensor, host, map, matmul, permute, reduce, softmax, values, zip, type Host } from './dtensor-reference.js';
import { mesh, mesh2d, S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');
const dist = (h: Host, ps: Placement[], m = ps.length === 2 ? mesh2d : mesh): DTensor => tpu.distributeTensor(tpu.tensor(h.data).reshape(h.shape), m, ps);

const UNARY = {
  neg: (v: number) => -v,
  relu: (v: number) => Math.max(0, v),
  exp: Math.exp,
  tanh: Math.tanh,
  gelu: (v: number) => 0.5 * v * (1 + erfRef(v / Math.SQRT2)),
} as const;
const BINARY = { add: (a: number, b: number) => a + b, sub: (a: number, b: number) => a - b, mul: (a: number, b: number) => a * b, div: (a: number, b: number) => a / b } as const;

for (const mode of ['debug', 'strict', 'fused'] as const) {
  describe(`DTensor sharding rules in ${mode} mode`, () => {
    const x = values([10, 6]);
    const y = values([10, 6], 5);

    it('unary ops keep Shard and Replicate; neg keeps Partial (max and min swap), the others reduce it first', () => tpu.withMode(mode, () => {
      for (const [name, f] of Object.entries(UNARY) as [keyof typeof UNARY, (v: number) => number][]) {
        for (const ps of [[S0], [S1], [R], [S0, S1], [R, S0]]) expectDTensor(dist(x, ps)[name](), map(x, f), `[${ps.join(', ')}]`, 1e-5);
      }
      // gelu's options reach each piece (nn.GELU({ approximate: 'tanh' }) between tensor-parallel layers).
      const geluTanh = (v: number) => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));
      expectDTensor(dist(x, [S0]).gelu({ approximate: 'tanh' }), map(x, geluTanh), '[Shard(0)]', 1e-5);
      expectDTensor(dist(x, [P]).neg(), map(x, UNARY.neg), "[Partial('sum')]");
      expectDTensor(dist(x, [tpu.Partial('max')]).neg(), map(x, UNARY.neg), "[Partial('min')]");
      expectDTensor(dist(x, [P]).relu(), map(x, UNARY.relu), '[Replicate()]');
      expectDTensor(dist(x, [S0, P]).exp(), map(x, Math.exp), '[Shard(0), Replicate()]');
    }));

    it('binary ops: agreeing shards stay; a Replicate or other shard is redistributed to the first operand\'s', () => tpu.withMode(mode, () => {
      for (const [name, f] of Object.entries(BINARY) as [keyof typeof BINARY, (a: number, b: number) => number][]) {
        const want = zip(x, y, f);
        expectDTensor(dist(x, [S0])[name](dist(y, [S0])), want, '[Shard(0)]');
        expectDTensor(dist(x, [S0])[name](dist(y, [R])), want, '[Shard(0)]');
        expectDTensor(dist(x, [R])[name](dist(y, [S1])), want, '[Shard(1)]');
        expectDTensor(dist(x, [S1])[name](dist(y, [S0])), want, '[Shard(1)]');
        expectDTensor(dist(x, [S0, S1])[name](dist(y, [S0, R])), want, '[Shard(0), Shard(1)]');
        expectDTensor(dist(x, [R, S0])[name](dist(y, [S1, S0])), want, '[Shard(1), Shard(0)]');
        expectDTensor(dist(x, [S0])[name](2.5), map(x, (v) => f(v, 2.5)), '[Shard(0)]');
      }
    }));

    it('binary ops broadcast: a bias row against row shards, a column against column shards', () => tpu.withMode(mode, () => {
      const bias = values([6], 9);
      const col = values([10, 1], 4);
      expectDTensor(dist(x, [S0]).add(dist(bias, [R])), zip(x, bias, BINARY.add), '[Shard(0)]');
      expectDTensor(dist(x, [S1]).mul(dist(bias, [S0])), zip(x, bias, BINARY.mul), '[Shard(1)]');
      expectDTensor(dist(x, [S1]).sub(dist(col, [S0])), zip(x, col, BINARY.sub), '[Shard(1)]');
      expectDTensor(dist(bias, [R]).add(dist(x, [S0])), zip(bias, x, BINARY.add), '[Shard(0)]');
      expectDTensor(dist(x, [S0, S1]).div(dist(bias, [R, S0])), zip(x, bias, BINARY.div), '[Shard(0), Shard(1)]');
    }));

    it('binary ops on Partial: Partial + Partial and Partial * Replicate stay Partial; Partial + a number is reduced first', () => tpu.withMode(mode, () => {
      expectDTensor(dist(x, [P]).add(dist(y, [P])), zip(x, y, BINARY.add), "[Partial('sum')]");
      expectDTensor(dist(x, [P]).mul(dist(y, [R])), zip(x, y, BINARY.mul), "[Partial('sum')]");
      expectDTensor(dist(x, [R]).mul(dist(y, [P])), zip(x, y, BINARY.mul), "[Partial('sum')]");
      expectDTensor(dist(x, [P]).mul(dist(y, [P])), zip(x, y, BINARY.mul), '[Replicate()]');
      expectDTensor(dist(x, [P]).div(4), map(x, (v) => v / 4), "[Partial('sum')]");
      expectDTensor(dist(x, [P]).add(1), map(x, (v) => v + 1), '[Replicate()]');
      expectDTensor(dist(x, [tpu.Partial('max')]).add(1), map(x, (v) => v + 1), "[Partial('max')]");
    }));

    it('matmul: Shard(0) x Replicate -> Shard(0), Replicate x Shard(1) -> Shard(1), contraction sharded -> Partial(sum)', () => tpu.withMode(mode, () => {
      const a = values([10, 6]);
      const b = values([6, 7], 2);
      const want = matmul(a, b);
      expectDTensor(dist(a, [S0]).matmul(dist(b, [R])), want, '[Shard(0)]');
      expectDTensor(dist(a, [R]).matmul(dist(b, [S1])), want, '[Shard(1)]');
      expectDTensor(dist(a, [S1]).matmul(dist(b, [S0])), want, "[Partial('sum')]");
      expectDTensor(dist(a, [S1]).matmul(dist(b, [R])), want, "[Partial('sum')]"); // b sliced to Shard(0)
      expectDTensor(dist(a, [S0]).matmul(dist(b, [S1])), want, '[Shard(0)]'); // b gathered
      expectDTensor(dist(a, [P]).matmul(dist(b, [R])), want, "[Partial('sum')]");
      expectDTensor(dist(a, [R]).matmul(dist(b, [R])), want, '[Replicate()]');
      // 2-d mesh: data parallel rows on dp, tensor parallel on tp.
      expectDTensor(dist(a, [S0, R]).matmul(dist(b, [R, S1])), want, '[Shard(0), Shard(1)]');
      expectDTensor(dist(a, [S0, S1]).matmul(dist(b, [R, S0])), want, "[Shard(0), Partial('sum')]");
      expectDTensor(dist(a, [S1, S1]).matmul(dist(b, [S0, S0])), want, "[Partial('sum'), Partial('sum')]");
      // and the Partial result read through a redistribute to rows
      expectDTensor(dist(a, [S1]).matmul(dist(b, [S0])).redistribute(mesh, [S0]), want, '[Shard(0)]');
    }));

    it('sum, mean, amax over a sharded dim give Partial (mean over the GLOBAL size), over other dims keep the shard', () => tpu.withMode(mode, () => {
      const u = values([5, 6], 3); // 5 rows on 4 chips: 2, 2, 1, 0 (an empty piece)
      for (const h of [x, u]) {
        for (const kind of ['sum', 'mean', 'amax'] as const) {
          const partial = kind === 'amax' ? "Partial('max')" : "Partial('sum')";
          expectDTensor(dist(h, [S0])[kind](0), reduce(h, [0], false, kind), `[${partial}]`);
          expectDTensor(dist(h, [S0])[kind]({ dim: 0, keepdim: true }), reduce(h, [0], true, kind), `[${partial}]`);
          expectDTensor(dist(h, [S0])[kind](1), reduce(h, [1], false, kind), '[Shard(0)]');
          expectDTensor(dist(h, [S1])[kind](0), reduce(h, [0], false, kind), '[Shard(0)]');
          expectDTensor(dist(h, [S0])[kind](), reduce(h, [0, 1], false, kind), `[${partial}]`);
          expectDTensor(dist(h, [S0, S1])[kind](1), reduce(h, [1], false, kind), `[Shard(0), ${partial}]`);
          expectDTensor(dist(h, [S1, S0])[kind]([0, 1], true), reduce(h, [0, 1], true, kind), `[${partial}, ${partial}]`);
          expectDTensor(dist(h, [R, S1])[kind](-1), reduce(h, [1], false, kind), `[Replicate(), ${partial}]`);
        }
        // Partial inputs: sum of parts stays a Partial sum; amax needs the value first.
        expectDTensor(dist(h, [P]).sum(1), reduce(h, [1], false, 'sum'), "[Partial('sum')]");
        expectDTensor(dist(h, [P]).mean(0), reduce(h, [0], false, 'mean'), "[Partial('sum')]");
        expectDTensor(dist(h, [P]).amax(1), reduce(h, [1], false, 'amax'), '[Replicate()]');
      }
    }));

    it('amax over uneven pieces of -inf values is -inf (an empty piece holds the identity, not a finite stand-in)', () => tpu.withMode(mode, () => {
      const h: Host = { shape: [3], data: [-Infinity, -Infinity, -Infinity] }; // pieces 1, 1, 1, 0
      if (mode === 'debug') {
        // debug mode checks every op's result for Inf, the pieces' slices included
        expect(() => dist(h, [S0])).toThrow(/produced NaN or Inf/);
        return;
      }
      expect(dist(h, [S0]).amax().fullTensor().item()).toBe(-Infinity);
    }));

    it('softmax over an unsharded dim keeps the shard; transpose and T move the shard dim', () => tpu.withMode(mode, () => {
      expectDTensor(dist(x, [S0]).softmax(1), softmax(x, 1), '[Shard(0)]');
      expectDTensor(dist(x, [S0, S1]).softmax({ dim: 0 }), softmax(x, 0), '[Replicate(), Replicate()]');
      expectDTensor(dist(x, [P, S0]).softmax(-1), softmax(x, 1), '[Replicate(), Shard(0)]');
      expectDTensor(dist(x, [S0]).T, permute(x, [1, 0]), '[Shard(1)]');
      expectDTensor(dist(x, [S1, R]).transpose(0, -1), permute(x, [1, 0]), '[Shard(0), Replicate()]');
      const z = values([4, 3, 5]);
      expectDTensor(dist(z, [tpu.Shard(2)]).transpose(0, 2), permute(z, [2, 1, 0]), '[Shard(0)]');
      expectDTensor(dist(z, [P]).T, permute(z, [2, 1, 0]), "[Partial('sum')]");
    }));

    it('a chain: a two-layer tensor-parallel MLP (column then row parallel) against the reference', () => tpu.withMode(mode, () => {
      const input = values([10, 6]);
      const w1 = values([6, 8], 2);
      const w2 = values([8, 5], 3);
      const h = dist(input, [R]).matmul(dist(w1, [S1])).relu(); // Shard(1)
      const out = h.matmul(dist(w2, [S0])); // Partial('sum')
      expectDTensor(out, matmul(map(matmul(input, w1), UNARY.relu), w2), "[Partial('sum')]", 1e-4);
    }));
  });
}

describe('DTensor code inside tpu.compile (two calls with new values)', () => {
  it('a tensor-parallel MLP and a mean over sharded rows, returned as full tensors', () => {
    const f = tpu.compile((input: Tensor, w1: Tensor, w2: Tensor) => {
      const x = tpu.distributeTensor(input, mesh2d, [S0, R]);
      const h = x.matmul(tpu.distributeTensor(w1, mesh2d, [R, S1])).tanh(); // [Shard(0), Shard(1)]
      const out = h.matmul(tpu.distributeTensor(w2, mesh2d, [R, S0])); // [Shard(0), Partial('sum')]
      return [out.fullTensor(), out.mean(0).fullTensor()];
    });
    for (const seed of [1, 2]) {
      const [ih, ah, bh] = [values([10, 6], seed), values([6, 8], seed + 1), values([8, 5], seed + 2)];
      const want = matmul(map(matmul(ih, ah), Math.tanh), bh);
      const [out, mean] = tpu.withMode('strict', () => f(...[ih, ah, bh].map((h) => tpu.tensor(h.data).reshape(h.shape)) as [Tensor, Tensor, Tensor]));
      expectClose(host(out!), want.data, 1e-4);
      expectClose(host(mean!), reduce(want, [0], false, 'mean').data, 1e-4);
    }
  });
});
