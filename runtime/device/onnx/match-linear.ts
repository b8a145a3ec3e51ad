// A lowering peephole: x @ W.T + b (a linear layer: matrices x and W, b a row of the output's
// width) becomes one ONNX Gemm with transB, reading W as stored. Left to ONNX Runtime, MatMul
// and Add fuse into a Gemm, but the Transpose folds into it only when the Gemm's result has a
// single reader (GemmTransposeFusion): a layer whose output is read twice (W6's logits, or any
// layer in fused mode, which writes its result out) ran the Transpose as a kernel each step.
// float32 throughout, the product read by nothing else; Gemm adds b as the fused pair did.
import { valueOf, type Program } from '../../program/program.js';

export interface LinearMatch {
  /** Node index of the add -> x, W (the permute's operand) and b (value ids). */
  readonly at: Map<number, { x: number; w: number; b: number }>;
  /** Node indices not to lower (the products; the permutes stay for their other readers). */
  readonly skip: Set<number>;
}

/** `taken`: node indices another peephole lowers (an add that is an Axpy, say). */
export function matchLinear(p: Program, uses: ReadonlyMap<number, number>, taken: ReadonlySet<number>): LinearMatch {
  const base = p.inputs.length + p.scalars.length;
  const at: LinearMatch['at'] = new Map();
  const skip = new Set<number>();
  const nodeOf = (id: number) => (id >= base ? p.nodes[id - base] : undefined);
  const float32 = (id: number) => valueOf(p, id).dtype === 'float32';
  p.nodes.forEach((n, i) => {
    if (n.op !== 'add' || n.dtype !== 'float32' || n.shape.length !== 2 || taken.has(i) || n.shape.includes(0)) return;
    for (const [m, b] of [n.inputs, [...n.inputs].reverse()] as [number, number][]) {
      const mm = nodeOf(m);
      if (mm?.op !== 'matmul' || taken.has(m - base) || uses.get(m) !== 1 || (mm.attrs as { precision?: string }).precision === 'default') continue;
      const [x, wt] = mm.inputs as [number, number];
      const t = nodeOf(wt);
      const perm = t?.op === 'permute' ? (t.attrs as { perm: readonly number[] }).perm : undefined;
      if (perm?.[0] !== 1 || perm[1] !== 0 || !t) continue;
      const w = t.inputs[0]!;
      const bias = valueOf(p, b).shape;
      const width = n.shape[1]!;
      const row = (bias.length === 1 && bias[0] === width) || (bias.length === 2 && bias[0] === 1 && bias[1] === width);
      const k = valueOf(p, x).shape;
      if (!row || k.length !== 2 || k[1] === 0 || ![x, w, b, m].every(float32)) continue;
      at.set(i, { x, w, b });
      skip.add(m - base);
      return;
    }
  });
  return { at, skip };
}
