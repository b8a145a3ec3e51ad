// tpu.DTensor.fromLocal's PyTorch options. gradPlacements: the layout of the gradient reaching
// the locals (default as PyTorch: Shard stays, Replicate and Partial give Replicate), checked
// against float64 gradients computed here on [4] and [2, 2] meshes in every mode. runCheck:
// replicas that differ are an error naming both chips and the mesh dim; agreeing ones pass.
import { describe, expect, it } from 'vitest';
import { tpu, type Placement, type Tensor } from 'tpu-kernel/runtime';
import { chunk, expectClose, fromFn, host, matmul, map, values, type Host } from './dtensor-reference.js';
import { mesh, mesh2d, R, S0, S1 } from '../support/meshes.js';

const P = tpu.Partial('sum');
const onChip = (h: Host, chip: number, requiresGrad = false): Tensor => tpu.tensor(h.data, { chip }).reshape(h.shape).requiresGrad_(requiresGrad);
/** Element-wise sum of hosts' data. */
const total = (hs: number[][]) => hs[0]!.map((_, i) => hs.reduce((s, h) => s + h[i]!, 0));

for (const mode of ['debug', 'strict', 'fused'] as const) {
  describe(`tpu.DTensor.fromLocal gradPlacements in ${mode} mode`, () => {
    // X [4, 3] on a [2, 2] mesh as [Shard(0), Replicate()]; loss Σ tanh(X W) with W [3, 4] as [Replicate(), Shard(1)],
    // so each 'tp' chip sees only its columns of W: its seed is a part of the gradient, not all of it.
    const xh = map(values([4, 3], 3), (v) => v / 4);
    const wh = map(values([3, 4], 4), (v) => v / 4);
    // float64: G = (1 - tanh²(X W)) Wᵀ.
    const y = matmul(xh, wh);
    const dy = map(y, (v) => 1 - Math.tanh(v) ** 2);
    const wT = fromFn([4, 3], ([i, j]) => wh.data[j! * 4 + i!]!);
    const grad = matmul(dy, wT);
    const lossOf = (locals: Tensor[], gradPlacements?: Placement[]) => {
      const x = tpu.DTensor.fromLocal(locals, mesh2d, [S0, R], gradPlacements && { gradPlacements });
      const w = tpu.distributeTensor(tpu.tensor(wh.data).reshape([3, 4]), mesh2d, [R, S1]);
      x.matmul(w).tanh().sum().backward();
    };
    const xLocals = () => mesh2d.chips.map((chip) => onChip(chunk(xh, 0, 2, Math.floor(chip / 2)), chip, true));

    it('default [Shard(0), Replicate()]: every chip of a dp row gets its rows of the whole gradient', () => tpu.withMode(mode, () => {
      const locals = xLocals();
      lossOf(locals);
      locals.forEach((t, k) => expectClose(host(t.grad!), chunk(grad, 0, 2, Math.floor(k / 2)).data));
    }));

    it("[Shard(0), Partial('sum')]: each chip keeps its part; a dp row's parts add up to its rows of the gradient", () => tpu.withMode(mode, () => {
      const locals = xLocals();
      lossOf(locals, [S0, P]);
      for (const row of [0, 1]) expectClose(total([host(locals[2 * row]!.grad!), host(locals[2 * row + 1]!.grad!)]), chunk(grad, 0, 2, row).data);
      // Each 'tp' chip's part is the gradient through its columns of W only: not the whole gradient.
      expect(host(locals[0]!.grad!)).not.toEqual(host(locals[1]!.grad!));
    }));

    it("Partial('sum') locals (the value is their sum): each local's gradient is the whole gradient", () => tpu.withMode(mode, () => {
      const parts = mesh.chips.map((chip) => onChip(values([2, 3], chip + 1), chip, true));
      const sum = parts.map(host).reduce((a, b) => a.map((v, i) => v + b[i]!));
      const x = tpu.DTensor.fromLocal(parts, mesh, [P]);
      x.redistribute(mesh, [R]).mul(x.redistribute(mesh, [R])).sum().backward();
      // float64: d/dX Σ X² = 2X with X the parts' sum.
      parts.forEach((t) => expectClose(host(t.grad!), sum.map((v) => 2 * v)));
    }));
  });
}

describe('tpu.DTensor.fromLocal runCheck', () => {
  const who = 'tpu.DTensor.fromLocal';
  const piece = (rows: number, shift: number, chip: number) => onChip(fromFn([rows, 2], ([i, j]) => 10 * i! + j! + shift), chip);

  it('replicas that agree pass; a replica that differs is an error naming both chips, the mesh dim and the element', () => {
    const same = mesh2d.chips.map((chip) => piece(2, Math.floor(chip / 2) * 100, chip));
    expect(tpu.DTensor.fromLocal(same, mesh2d, [S0, R], { runCheck: true }).shape).toEqual([4, 2]);
    const off = [...same.slice(0, 3), onChip({ shape: [2, 2], data: [100, 101, 110.5, 111] }, 3)];
    expect(() => tpu.DTensor.fromLocal(off, mesh2d, [S0, R], { runCheck: true }))
      .toThrow(`${who}: runCheck: locals[3] on chip 3 must equal locals[2] on chip 2, which it replicates along mesh dim 1 ('tp'); flat element 2 is 110.5, not 110`);
    // Without runCheck the pieces are taken as they are (PyTorch: the caller's responsibility).
    expect(tpu.DTensor.fromLocal(off, mesh2d, [S0, R]).shape).toEqual([4, 2]);
    // Shard and Partial pieces differ by design: nothing to compare.
    expect(tpu.DTensor.fromLocal(off, mesh2d, [S0, P], { runCheck: true }).shape).toEqual([4, 2]);
    // The pieces are still usable after the error.
    expect(host(off[3]!)).toEqual([100, 101, 110.5, 111]);
  });

  it('bad options name the option, what it must be and what came', () => {
    const ok = mesh.chips.map((chip) => piece(2, 0, chip));
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [R], { runCheck: 'yes' as never })).toThrow(`${who}: options.runCheck must be a boolean; got string "yes"`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [R], { gradPlacements: [R, R] })).toThrow(`${who}: options.gradPlacements must hold 1 placement (one per dimension of DeviceMesh(dp=4)); got 2`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [R], { gradPlacements: [7 as never] })).toThrow(`${who}: options.gradPlacements[0] must be tpu.Shard(dim), tpu.Replicate() or tpu.Partial(op); got number 7`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [R], { gradPlacements: [tpu.Partial('max')] })).toThrow(`${who}: options.gradPlacements[0] is Partial('max'), which no gradient has`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [R], { gradPlacements: [S0] })).toThrow(`${who}: options.gradPlacements [Shard(0)] would give locals[0] (shape [2, 2]) a gradient of shape [1, 2]; a local's gradient has its shape`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [R], { gradPlacement: [R] } as never)).toThrow(who);
  });
});
