// The program rewrite of transposed matmul results, (A·B)ᵀ -> Bᵀ·Aᵀ (program/transposed-matmul.ts):
// a linear layer's weight gradient in one program computes gᵀ·x, with no transpose of a matmul
// result left in the compiled program, and every value equals a float64 loop written here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

const X = [[1, -2, 0.5], [3, 1, -1]]; // [batch 2, in 3]
const W = [[0.5, -1, 2], [1, 0.25, -0.5], [-1.5, 2, 1], [0, 1, 1]]; // [out 4, in 3]
const B = [0.1, -0.2, 0.3, 0.4];
const G = [[1, 2, -1, 0.5], [-0.5, 1, 3, 2]]; // upstream gradient [2, 4]

/** dW = Gᵀ·X, db = Σ_batch G, dX = G·W, and y = X·Wᵀ + b, in float64. */
function reference() {
  const dW = W.map((_, o) => W[0]!.map((_, i) => G.reduce((s, g, n) => s + g[o]! * X[n]![i]!, 0)));
  const db = B.map((_, o) => G.reduce((s, g) => s + g[o]!, 0));
  const y = X.map((x) => W.map((w, o) => w.reduce((s, v, i) => s + v * x[i]!, B[o]!)));
  return { dW, db, y };
}

function close(got: number[][], want: number[][]) {
  got.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(want[i]![j]!, 5)));
}

/** A transpose node whose operand is a matmul (seen through same-shape reshapes). */
function transposedMatmuls(program: { nodes: readonly { op: string; inputs: readonly number[]; shape: readonly number[] }[]; inputs: readonly unknown[]; scalars: readonly unknown[] }): number {
  const base = program.inputs.length + program.scalars.length;
  const node = (id: number) => (id >= base ? program.nodes[id - base] : undefined);
  let found = 0;
  for (const n of program.nodes) {
    if (n.op !== 'permute' || n.shape.length !== 2) continue;
    let m = node(n.inputs[0]!);
    while (m && m.op === 'reshape') m = node(m.inputs[0]!);
    if (m?.op === 'matmul') found++;
  }
  return found;
}

describe('transposed matmul results rewritten', () => {
  it.each(['strict', 'fused', 'debug'] as const)('linear backward in %s mode: float64 values', async (mode) => {
    tpu.mode(mode);
    const w = tpu.tensor(W, { requiresGrad: true });
    const b = tpu.tensor(B, { requiresGrad: true });
    const y = tpu.nn.functional.linear(tpu.tensor(X), w, b);
    y.backward(tpu.tensor(G));
    const ref = reference();
    close((await y.array()) as number[][], ref.y);
    close((await w.grad!.array()) as number[][], ref.dW);
    ((await b.grad!.array()) as number[]).forEach((v, o) => expect(v).toBeCloseTo(ref.db[o]!, 5));
  });

  it('a compiled training step: no transposed matmul result in its program, values as float64', async () => {
    const w = tpu.tensor(W, { requiresGrad: true });
    const b = tpu.tensor(B, { requiresGrad: true });
    const g = tpu.tensor(G);
    const step = tpu.compile((x: typeof w) => {
      w.grad = null;
      b.grad = null;
      const y = tpu.nn.functional.linear(x, w, b);
      y.backward(g);
      return y;
    });
    const ref = reference();
    const { value: y, profile } = await tpu.profiler.profile(async () => {
      const out = step(tpu.tensor(X));
      await tpu.sync();
      return out;
    });
    close((await y.array()) as number[][], ref.y);
    close((await w.grad!.array()) as number[][], ref.dW);
    const programs = profile.data.programs.map((p) => tpu.program(p.id)!.program);
    expect(programs.filter((p) => p.nodes.filter((n) => n.op === 'matmul').length === 2)).toHaveLength(1);
    for (const program of programs) expect(transposedMatmuls(program)).toBe(0);
    // Replayed: the same values again.
    const again = step(tpu.tensor(X));
    close((await again.array()) as number[][], ref.y);
    close((await w.grad!.array()) as number[][], ref.dW);
  });

  it('(A·B)ᵀ written out, and its matmul read elsewhere too, in one fused region: float64 values', async () => {
    tpu.mode('fused');
    const a = tpu.tensor(X); // [2, 3]
    const bt = tpu.tensor(W); // [4, 3]
    const m = a.matmul(bt.T); // [2, 4], also read below: not rewritten
    const t = m.T.mul(1); // [4, 2]
    const alone = bt.matmul(a.T).T.add(0); // (W·Xᵀ)ᵀ = X·Wᵀ: rewritten
    const prod = X.map((x) => W.map((w) => w.reduce((s, v, i) => s + v * x[i]!, 0)));
    close((await t.array()) as number[][], prod[0]!.map((_, j) => prod.map((r) => r[j]!)));
    close((await m.array()) as number[][], prod);
    close((await alone.array()) as number[][], prod);
  });
});
