// tpu.DTensor.fromLocal (PyTorch's DTensor.from_local with one controller: one piece per chip)
// and dt.toLocal(): the global shape joins the pieces along Shard dims, the global value is
// checked against a float64 reference built here, gradients flow back to the pieces, and bad
// pieces get errors naming the argument.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectDTensor, fromFn, host } from './dtensor-reference.js';
import { mesh, mesh2d, S0, S1, R } from '../support/meshes.js';

/** A piece whose values say where they sit: 100 * chip + 10 * row + column. */
const piece = (chip: number, rows: number, cols: number, requiresGrad = false): Tensor =>
  tpu.tensor(Array.from({ length: rows * cols }, (_, i) => 100 * chip + 10 * Math.floor(i / cols) + (i % cols)), { chip }).reshape([rows, cols]).requiresGrad_(requiresGrad);

for (const mode of ['debug', 'strict', 'fused'] as const) {
  describe(`tpu.DTensor.fromLocal in ${mode} mode`, () => {
    it('Shard(0) pieces of torch.chunk sizes (3, 3, 3, 1) make a [10, 2] DTensor; toLocal() gives them back', () => tpu.withMode(mode, () => {
      const locals = [3, 3, 3, 1].map((rows, chip) => piece(chip, rows, 2));
      const dt = tpu.DTensor.fromLocal(locals, mesh, [S0]);
      expect(dt.toLocal()).toEqual(locals);
      const starts = [0, 3, 6, 9];
      const chipOf = (row: number) => starts.findLastIndex((s) => s <= row);
      expectDTensor(dt, fromFn([10, 2], ([i, j]) => 100 * chipOf(i!) + 10 * (i! - starts[chipOf(i!)]!) + j!), '[Shard(0)]');
    }));

    it('a [2, 2] mesh with [Shard(0), Shard(1)]: pieces of [5, 3], [5, 2] make [10, 5]; Replicate pieces keep their shape', () => tpu.withMode(mode, () => {
      const dt = tpu.DTensor.fromLocal([piece(0, 5, 3), piece(1, 5, 2), piece(2, 5, 3), piece(3, 5, 2)], mesh2d, [S0, S1]);
      const chip = (i: number, j: number) => 2 * Math.floor(i / 5) + (j < 3 ? 0 : 1);
      expectDTensor(dt, fromFn([10, 5], ([i, j]) => 100 * chip(i!, j!) + 10 * (i! % 5) + (j! < 3 ? j! : j! - 3)), '[Shard(0), Shard(1)]');
      const same = mesh.chips.map((c) => piece(0, 2, 2).toChip(c));
      expectDTensor(tpu.DTensor.fromLocal(same, mesh, [R]), fromFn([2, 2], ([i, j]) => 10 * i! + j!), '[Replicate()]');
    }));

    it('options.shape gives the global shape (an empty last piece)', () => tpu.withMode(mode, () => {
      const dt = tpu.DTensor.fromLocal([2, 2, 1, 0].map((cols, chip) => piece(chip, 1, cols)), mesh, [S1], { shape: [1, 5] });
      expect(dt.shape).toEqual([1, 5]);
      expect(host(dt.fullTensor())).toEqual([0, 1, 100, 101, 200]);
    }));

    it('gradients reach the pieces (PyTorch: fromLocal of pieces that require grad is not a leaf); a Replicate piece gets the whole gradient', () => tpu.withMode(mode, () => {
      const locals = [3, 3, 3, 1].map((rows, chip) => piece(chip, rows, 2, true));
      const dt = tpu.DTensor.fromLocal(locals, mesh, [S0]);
      expect(dt.isLeaf).toBe(false);
      dt.mul(dt).sum().backward();
      // d/dx Σ x² = 2x, piece by piece.
      locals.forEach((t) => expect(host(t.grad!)).toEqual(host(t).map((v) => 2 * v)));
      // Replicate pieces: d/dx Σ 3x = 3 reaches every replica's local (PyTorch's default gradient placement Replicate).
      const reps = mesh.chips.map((c) => tpu.ones([2], { chip: c, requiresGrad: true }));
      tpu.DTensor.fromLocal(reps, mesh, [R]).mul(3).sum().backward();
      reps.forEach((t) => expect(host(t.grad!)).toEqual([3, 3]));
    }));
  });
}

describe('tpu.DTensor.fromLocal bad input', () => {
  const who = 'tpu.DTensor.fromLocal';
  it('names locals, their chips, dtypes and shapes, and options.shape', () => {
    const ok = mesh.chips.map((c) => piece(c, 2, 2));
    expect(() => tpu.DTensor.fromLocal(ok.slice(1), mesh, [S0])).toThrow(`${who}: locals must hold 4 tensors (one per chip of DeviceMesh(dp=4), in mesh.chips order); got 3`);
    expect(() => tpu.DTensor.fromLocal([...ok.slice(0, 3), 7 as never], mesh, [S0])).toThrow(`${who}: locals[3] must be a tensor; got number 7`);
    expect(() => tpu.DTensor.fromLocal([7 as never, ...ok.slice(1)], mesh, [S0])).toThrow(`${who}: locals[0] must be a tensor; got number 7`);
    expect(() => tpu.DTensor.fromLocal([], mesh, [S0])).toThrow(`${who}: locals must hold 4 tensors`);
    expect(() => tpu.DTensor.fromLocal([ok[0]!, ok[0]!, ok[2]!, ok[3]!], mesh, [S0])).toThrow(`${who}: locals[1] must be on chip 1 (mesh.chips[1]); it is on chip 0 (move it with .toChip(1))`);
    expect(() => tpu.DTensor.fromLocal([...ok.slice(0, 3), ok[3]!.to('int32')], mesh, [S0])).toThrow(`${who}: locals[3] has dtype int32, but locals[0] has float32; every chip's piece must have the same dtype`);
    expect(() => tpu.DTensor.fromLocal([piece(0, 2, 2), piece(1, 3, 2), piece(2, 2, 2), piece(3, 2, 2)], mesh, [S0])).toThrow(`${who}: locals[0] has shape [2, 2], but chip 0's piece of [9, 2] laid out as [Shard(0)] must have shape [3, 2] (Shard pieces have torch.chunk's sizes)`);
    expect(() => tpu.DTensor.fromLocal([piece(0, 2, 2), piece(1, 2, 3), piece(2, 2, 2), piece(3, 2, 2)], mesh, [R])).toThrow(`${who}: locals[1] has shape [2, 3], but chip 1's piece of [2, 2] laid out as [Replicate()] must have shape [2, 2]`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [S0], { shape: [7] })).toThrow(`${who}: options.shape must be the global shape, 2 non-negative integers; got an object of type Array`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [S0], { shape: [9, 2] })).toThrow(`${who}: locals[0] has shape [2, 2], but chip 0's piece of [9, 2] laid out as [Shard(0)] must have shape [3, 2]`);
    expect(() => tpu.DTensor.fromLocal(ok, mesh, [S0], { shap: [8, 2] } as never)).toThrow(who);
    expect(() => tpu.DTensor.fromLocal(ok, mesh2d, [S0])).toThrow(`${who}: placements must hold 2 placements (one per dimension of DeviceMesh(dp=2, tp=2)); got 1`);
    expect(() => tpu.DTensor.fromLocal('x' as never, mesh, [S0])).toThrow(`${who}: locals must be an array of tensors, one per chip of the mesh; got string "x"`);
    expect(tpu.DTensor.fromLocal(ok, mesh, [S0]).shape).toEqual([8, 2]);
  });
});
