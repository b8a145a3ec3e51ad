// DTensor.norm (DTensor had none: dt.norm() was "dt.norm is not a function"), with Tensor.norm's
// argument forms, against PyTorch 2.13's own DTensor (torch.linalg.vector_norm) on 4 simulated
// ranks (dtensor-torch.ts), in every mode: over a sharded dim each chip's norm is a part of
// _NormPartial(p) (Partial('max') for inf, Partial('min') for -inf, Partial('sum') for 0),
// reduced as (Σ parts^p)^(1/p) when read; other shards stay; a Partial input is reduced first.
// The full value, every chip's piece and the placements are compared; then the _NormPartial's
// own redistributions and gradient, and the ±inf-norm of an empty piece, against float64 references.
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor } from 'tpu-kernel/runtime';
import { expectClose, host, values } from './dtensor-reference.js';
import { bf16, compareWithTorch, dist, f32, type Case } from './dtensor-torch.js';
import { mesh, S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');
const x = values([10, 6]);
const two = values([2, 6], 3); // 2 rows on 4 chips: pieces of 1, 1, 0 and 0 rows

const cases: Case[] = [
  { name: 'norm() of Shard(0) gives _NormPartial(2)', inputs: [f32(x, [S0])], js: (d) => d.norm(), py: 'torch.linalg.vector_norm(d0)' },
  { name: 'norm(1) over the sharded dim', inputs: [f32(x, [S0])], js: (d) => d.norm(1, 0), py: 'torch.linalg.vector_norm(d0, 1, 0)' },
  { name: 'norm(3) over the sharded dim, keepdim', inputs: [f32(x, [S0])], js: (d) => d.norm(3, 0, true), py: 'torch.linalg.vector_norm(d0, 3, 0, keepdim=True)' },
  { name: 'norm(Infinity) gives Partial(max)', inputs: [f32(x, [S0])], js: (d) => d.norm(Infinity), py: "torch.linalg.vector_norm(d0, float('inf'))" },
  { name: 'norm(-Infinity) gives Partial(min)', inputs: [f32(x, [S0])], js: (d) => d.norm({ p: -Infinity, dim: 0 }), py: "torch.linalg.vector_norm(d0, float('-inf'), 0)" },
  { name: 'norm(0) counts: Partial(sum)', inputs: [f32(x, [S0])], js: (d) => d.norm(0), py: 'torch.linalg.vector_norm(d0, 0)' },
  { name: 'norm over another dim keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.norm(2, 1), py: 'torch.linalg.vector_norm(d0, 2, 1)' },
  { name: 'norm over dim 1, { keepdim } options', inputs: [f32(x, [S0])], js: (d) => d.norm(2, 1, { keepdim: true }), py: 'torch.linalg.vector_norm(d0, 2, 1, keepdim=True)' },
  { name: 'norm of Replicate', inputs: [f32(x, [R])], js: (d) => d.norm(), py: 'torch.linalg.vector_norm(d0)' },
  { name: 'norm of a Partial(sum) reduces the parts first', inputs: [f32(x, [P])], js: (d) => d.norm(), py: 'torch.linalg.vector_norm(d0)' },
  { name: 'norm with empty pieces (2 rows on 4 chips)', inputs: [f32(two, [S0])], js: (d) => d.norm(), py: 'torch.linalg.vector_norm(d0)' },
  { name: 'norm on a 2-d mesh: _NormPartial twice', inputs: [f32(x, [S0, S1])], js: (d) => d.norm(), py: 'torch.linalg.vector_norm(d0)' },
  { name: 'norm(1, 0) on a 2-d mesh keeps the other shard', inputs: [f32(x, [S0, S1])], js: (d) => d.norm(1, 0), py: 'torch.linalg.vector_norm(d0, 1, 0)' },
  { name: 'norm(Infinity) on a 2-d mesh, Replicate and Shard', inputs: [f32(x, [R, S0])], js: (d) => d.norm(Infinity, [0, 1]), py: "torch.linalg.vector_norm(d0, float('inf'), [0, 1])" },
  { name: 'norm of bfloat16', inputs: [bf16(x, [S0])], js: (d) => d.norm(), py: 'torch.linalg.vector_norm(d0)' },
  { name: 'neg of a _NormPartial reduces it first', inputs: [f32(x, [S0])], js: (d) => d.norm(2, 0).neg(), py: 'torch.linalg.vector_norm(d0, 2, 0).neg()' },
];

compareWithTorch('DTensor.norm vs PyTorch DTensor', cases);

/** The float64 p-norm of rows (dim 0) of a [rows, cols] host value, per column. */
function columnNorms(h: { shape: number[]; data: number[] }, p: number): number[] {
  const [rows, cols] = h.shape as [number, number];
  return Array.from({ length: cols }, (_, c) => Math.pow(Array.from({ length: rows }, (_, r) => Math.abs(h.data[r * cols + c]!) ** p).reduce((a, b) => a + b, 0), 1 / p));
}

describe('DTensor.norm: its _NormPartial', () => {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`redistributes to Shard by a reduce-scatter of parts^p, and back, in ${mode} mode`, () => tpu.withMode(mode, () => {
      const n = dist(f32(x, [S0])).norm(2, 0); // [6], _NormPartial(2)
      expect(String(n.placements[0])).toBe('_NormPartial(2)');
      const sharded = n.redistribute(mesh, [S0]);
      expectClose(host(sharded.fullTensor()), columnNorms(x, 2), 1e-5);
      // Replicate -> _NormPartial(2): parts x / 4^(1/2), whose norm is x again
      const parts = sharded.redistribute(mesh, [R]).redistribute(mesh, n.placements);
      expectClose(host(parts.localTensors()[1]!), columnNorms(x, 2).map((v) => v / 2), 1e-5);
      expectClose(host(parts.fullTensor()), columnNorms(x, 2), 1e-5);
    }));

    it(`has the full tensor's gradient in ${mode} mode`, () => tpu.withMode(mode, () => {
      const w = tpu.distributeTensor(tpu.tensor(x.data).reshape(x.shape).requiresGrad_(), mesh, [S0]);
      (w.norm() as DTensor).backward();
      const total = Math.hypot(...x.data);
      expectClose(host(w.grad!.fullTensor()), x.data.map((v) => v / total), 1e-5);
    }));
  }

  it('of ±Infinity over an empty piece (where PyTorch raises: no identity) is the largest / smallest |x|', () => {
    const d = dist(f32(x, [S1])); // 6 columns on 4 chips: 2, 2, 2 and 0
    expect(host(d.norm(Infinity).fullTensor())).toEqual([Math.fround(Math.max(...x.data.map(Math.abs)))]);
    expect(host(d.norm(-Infinity).fullTensor())).toEqual([Math.fround(Math.min(...x.data.map(Math.abs)))]);
  });

  it('cannot be a leaf that requires grad, nor a fromLocal of locals that do', () => {
    const n = dist(f32(x, [S0])).norm(2, 0);
    expect(() => n.requiresGrad_()).toThrow(/cannot require grad: its placements hold _NormPartial\(2\)/);
    const locals = n.localTensors().map((t) => t.detach().requiresGrad_());
    expect(() => tpu.DTensor.fromLocal(locals, mesh, n.placements)).toThrow(/placements hold _NormPartial\(2\), whose parts have no gradient layout/);
  });

  it('reads p, dim and keepdim as Tensor.norm does, naming DTensor.norm', () => {
    const d = dist(f32(x, [S0]));
    expect(() => d.norm({ p: 2, dims: 0 } as never)).toThrow(/DTensor.norm: unknown option 'dims' \(did you mean 'dim'\?\)/);
    expect(() => d.norm('nuc' as never)).toThrow(/DTensor.norm: p must be a number, ±Infinity or 'fro'; got "nuc"/);
    expect(d.norm('fro').fullTensor().array()).toEqual(d.norm(2).fullTensor().array()); // PyTorch's Frobenius norm is the 2-norm of the elements
  });
});
