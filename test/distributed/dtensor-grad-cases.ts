// Backward through DTensor ops, checked against gradients written out by hand in float64:
//   H = X @ W + b, A = tanh(H) laid out as `a`, P = softmax(A, -1), loss = sum(P * T) + 0.5 * mean(H)
//   dA = P * (T - rowsum(P * T)), dH = dA * (1 - A^2) + 0.5 / numel(H)
//   dW = X^T dH, db = colsum(dH), dX = dH W^T
// The same computation on plain tensors on one chip must give them too. Each case lays the
// leaves out differently (data-, column-, contraction-sharded, Partial, softmax over a shard,
// 2-d meshes), on shapes that split unevenly (10 rows on 4 chips: 3, 3, 3, 1; 5 columns: 2, 2, 1, 0).
import { describe, expect, it } from 'vitest';
import { tpu, type DeviceMesh, type Placement, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, expectDTensor, fromFn, host, map, matmul, permute, reduce, values, zip, type Host } from './dtensor-reference.js';

const T = (h: Host): Host => permute(h, [1, 0]);
const X = map(values([10, 6], 1), (v) => v / 5);
const W = map(values([6, 5], 2), (v) => v / 5);
const B = map(values([5], 3), (v) => v / 5);
const TARGET = map(values([10, 5], 4), (v) => v / 3);

/** The float64 gradients of the loss with respect to X, W and b. */
function reference(): { dX: Host; dW: Host; db: Host } {
  const h = zip(matmul(X, W), B, (u, v) => u + v);
  const a = map(h, Math.tanh);
  const e = zip(a, reduce(a, [1], true, 'amax'), (u, m) => Math.exp(u - m));
  const p = zip(e, reduce(e, [1], true, 'sum'), (u, s) => u / s);
  const pt = zip(p, TARGET, (u, v) => u * v);
  const dA = zip(p, zip(TARGET, reduce(pt, [1], true, 'sum'), (t, s) => t - s), (u, v) => u * v);
  const dH = zip(dA, a, (g, v) => g * (1 - v * v) + 0.5 / 50);
  return { dX: matmul(dH, T(W)), dW: matmul(T(X), dH), db: reduce(dH, [0], false, 'sum') };
}

const tensorOf = (h: Host): Tensor => tpu.tensor(h.data).reshape(h.shape);
const leaf = (h: Host): Tensor => tensorOf(h).requiresGrad_();

export interface GradCase { x: Placement[]; w: Placement[]; b: Placement[]; a: Placement[] }

/** Registers the tests: every case on `mesh` in every mode, and the one-chip computation. */
export function describeGradCases(mesh: DeviceMesh, cases: readonly GradCase[]): void {
  const want = reference();
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    describe(`DTensor backward on ${mesh} in ${mode} mode`, () => {
      it('the one-chip computation on plain tensors gives the float64 gradients', () => tpu.withMode(mode, () => {
        const [x, w, b] = [leaf(X), leaf(W), leaf(B)];
        const h = x.matmul(w).add(b);
        h.tanh().softmax(-1).mul(tensorOf(TARGET)).sum().add(h.mean().mul(0.5)).backward();
        expectClose(host(x.grad!), want.dX.data, 1e-4);
        expectClose(host(w.grad!), want.dW.data, 1e-4);
        expectClose(host(b.grad!), want.db.data, 1e-4);
      }));

      for (const c of cases) {
        const name = `X ${c.x.join('')}, W ${c.w.join('')}, b ${c.b.join('')}, tanh(H) as ${c.a.join('')}`;
        it(`${name}: each leaf's .grad is a DTensor with its placements and the float64 gradient`, () => tpu.withMode(mode, () => {
          const x = tpu.distributeTensor(leaf(X), mesh, c.x);
          const w = tpu.distributeTensor(leaf(W), mesh, c.w);
          const b = tpu.distributeTensor(leaf(B), mesh, c.b);
          expect([x.requiresGrad, x.isLeaf]).toEqual([true, true]);
          const h = x.matmul(w).add(b);
          const a = h.tanh().redistribute(mesh, c.a);
          const loss = a.softmax(-1).mul(tpu.distributeTensor(tensorOf(TARGET), mesh, c.a)).sum().add(h.mean().mul(0.5));
          expect([loss.requiresGrad, loss.isLeaf]).toEqual([true, false]);
          loss.backward();
          const fmt = (ps: Placement[]) => `[${ps.join(', ')}]`;
          expectDTensor(x.grad!, want.dX, fmt(c.x), 1e-4);
          expectDTensor(w.grad!, want.dW, fmt(c.w), 1e-4);
          expectDTensor(b.grad!, want.db, fmt(c.b), 1e-4);
        }));
      }

      it('gradients add up over two backward calls until .grad = null; .grad is the same DTensor until they change', () => tpu.withMode(mode, () => {
        const c = cases[0]!;
        const w = tpu.distributeTensor(leaf(W), mesh, c.w);
        const x = tpu.distributeTensor(tensorOf(X), mesh, c.x);
        const twice = map(reduce(X, [0], true, 'sum'), (v) => 2 * v);
        const colSums = fromFn(W.shape, ([i]) => twice.data[i!]!);
        x.matmul(w).sum().backward();
        const first = w.grad;
        expect(w.grad).toBe(first);
        x.matmul(w).sum().backward();
        expect(w.grad).not.toBe(first);
        expectDTensor(w.grad!, colSums, `[${c.w.join(', ')}]`, 1e-4);
        w.grad = null;
        expect(w.grad).toBe(null);
      }));
    });
  }
}

