// DTensors as tpu.compile arguments and results: the pieces are the program's inputs (one
// program per chip), the layout is part of the signature, replays return new DTensors of the
// same layout; backward inside the compiled function leaves DTensor gradients. Values against
// float64 references computed here, over calls with new values, in every mode.
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, expectDTensor, fromFn, host, map, matmul, permute, reduce, values, zip, type Host } from './dtensor-reference.js';
import { mesh, mesh2d, S0, S1, R } from '../support/meshes.js';

const tensorOf = (h: Host): Tensor => tpu.tensor(h.data).reshape(h.shape);

for (const mode of ['debug', 'strict', 'fused'] as const) {
  describe(`DTensors through tpu.compile, called in ${mode} mode`, () => {
    it('DTensor arguments and results: one trace, replays give new DTensors with the new values', () => tpu.withMode(mode, () => {
      const f = tpu.compile((x: DTensor, w: DTensor) => {
        const h = x.matmul(w).tanh();
        return { h, colSums: h.sum(0) };
      });
      for (const seed of [1, 2, 3]) {
        const [xh, wh] = [map(values([10, 6], seed), (v) => v / 5), map(values([6, 5], seed + 1), (v) => v / 5)];
        const { h, colSums } = f(tpu.distributeTensor(tensorOf(xh), mesh2d, [S0, R]), tpu.distributeTensor(tensorOf(wh), mesh2d, [R, S1]));
        const want = map(matmul(xh, wh), Math.tanh);
        expectDTensor(h, want, '[Shard(0), Shard(1)]', 1e-5);
        expectDTensor(colSums, reduce(want, [0], false, 'sum'), "[Partial('sum'), Shard(0)]", 1e-5);
      }
      expect(f.stats().traces).toBe(1);
      // Other placements are another signature: a new trace.
      const xh = values([10, 6]);
      const wh = values([6, 5], 2);
      const { h } = f(tpu.distributeTensor(tensorOf(xh), mesh2d, [R, R]), tpu.distributeTensor(tensorOf(wh), mesh2d, [S1, R]));
      expectDTensor(h, map(matmul(xh, wh), Math.tanh), '[Shard(1), Replicate()]', 1e-5);
      expect(f.stats().traces).toBe(2);
    }));

    it('a training step: backward inside the compiled function; each call leaves the DTensor gradient of its batch', () => tpu.withMode(mode, () => {
      const wh = map(values([6, 5], 7), (v) => v / 5);
      for (const ps of [[S1], [R], [S0]]) {
        const w = tpu.distributeTensor(tensorOf(wh).requiresGrad_(), mesh, ps);
        const step = tpu.compile((x: DTensor, y: DTensor) => {
          w.grad = null;
          const loss = x.matmul(w).sub(y).tanh().sum();
          loss.backward();
          return loss;
        });
        for (const seed of [1, 2, 3]) {
          const xh = map(values([10, 6], seed), (v) => v / 5);
          const yh = map(values([10, 5], seed + 3), (v) => v / 5);
          const loss = step(tpu.distributeTensor(tensorOf(xh), mesh, [S0]), tpu.distributeTensor(tensorOf(yh), mesh, [S0]));
          // loss = sum(tanh(XW - Y)); dW = X^T (1 - tanh^2)
          const t = map(zip(matmul(xh, wh), yh, (a, b) => a - b), Math.tanh);
          expectClose(host(loss.fullTensor()), [t.data.reduce((a, b) => a + b, 0)], 1e-5);
          expectDTensor(w.grad!, matmul(permute(xh, [1, 0]), map(t, (v) => 1 - v * v)), `[${ps.join(', ')}]`, 1e-4);
        }
        expect(step.stats().traces).toBe(1);
      }
    }));

    it('fromLocal and toLocal inside a compiled function', () => tpu.withMode(mode, () => {
      const f = tpu.compile((dt: DTensor) => tpu.DTensor.fromLocal(dt.toLocal().map((t) => t.mul(2)), mesh, [S0]));
      for (const seed of [1, 2]) {
        const xh = values([10, 3], seed);
        expectDTensor(f(tpu.distributeTensor(tensorOf(xh), mesh, [S0])), map(xh, (v) => 2 * v), '[Shard(0)]');
      }
      expect(f.stats().traces).toBe(1);
    }));
  });
}

it('tpu.scope keeps a returned DTensor whole', () => {
  const dt = tpu.scope(() => tpu.distributeTensor(tpu.ones([10, 2]).mul(3), mesh, [S0]).add(1));
  expectDTensor(dt, fromFn([10, 2], () => 4), '[Shard(0)]');
});
