// A rewrite of the program IR before it is compiled: the transpose of a 2-D matmul's result,
// (A·B)ᵀ, becomes Bᵀ·Aᵀ, and a transpose of a transpose cancels. Autograd makes the first for
// every linear layer's weight gradient (dW = (xᵀ·g)ᵀ: the matmul rule, then the transpose
// rule of W.T); the rewrite gives PyTorch's gᵀ·x, whose operand transposes ONNX Runtime folds
// into its matmul, instead of a [in, out] result copied into [out, in] (W6 of the runtime
// bench: a third of its device time). Runs once per compiled program (on a cache miss).
import type { Program, ProgramNode } from './program.js';

/** A node whose operands are value ids below `base` (inputs, scalars) or other nodes. */
interface Item {
  op: string;
  inputs: (number | Item)[];
  attrs: unknown;
  shape: readonly number[];
  dtype: ProgramNode['dtype'];
}

const sameShape = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((d, i) => d === b[i]);

/** An op that passes its operand on unchanged: identity, a reshape to its shape, an identity permute. */
function isPassThrough(p: Program, n: Item): boolean {
  if (n.op === 'identity') return true;
  if ((n.op !== 'reshape' && n.op !== 'permute') || !sameShape(valueShape(p, n.inputs[0]!), n.shape)) return false;
  return n.op === 'reshape' || (n.attrs as { perm: readonly number[] }).perm.every((d, i) => d === i);
}

const isTranspose2d = (n: Item): boolean =>
  n.op === 'permute' && n.shape.length === 2 && (n.attrs as { perm: readonly number[] }).perm[0] === 1;

/** The program with each transposed 2-D matmul result computed as Bᵀ·Aᵀ (the same program when there is none). */
export function rewriteTransposedMatmuls(p: Program): Program {
  const base = p.inputs.length + p.scalars.length;
  const items: Item[] = [];
  const ref = (id: number): number | Item => (id < base ? id : items[id - base]!);
  for (const n of p.nodes) items.push({ op: n.op, inputs: n.inputs.map(ref), attrs: n.attrs, shape: n.shape, dtype: n.dtype });
  const outputs = p.outputs.map(ref);
  const uses = new Map<Item, number>();
  for (const n of items) for (const v of n.inputs) if (typeof v !== 'number') uses.set(v, (uses.get(v) ?? 0) + 1);
  for (const v of outputs) if (typeof v !== 'number') uses.set(v, (uses.get(v) ?? 0) + 1);

  // Values passed on unchanged (a reshape to the same shape, the gradient of a bias's
  // broadcast) are seen through, unless written out.
  const outputSet = new Set(outputs);
  // `only`: through values with no other use (the matmul's result is then used by the transpose alone).
  const through = (v: number | Item, only = false): number | Item => {
    while (typeof v !== 'number' && !outputSet.has(v) && (!only || uses.get(v) === 1) && isPassThrough(p, v)) v = v.inputs[0]!;
    return v;
  };
  const order: Item[] = [];
  let rewritten = false;
  for (const n of items) {
    const m = isTranspose2d(n) ? through(n.inputs[0]!, true) : null;
    if (m !== null && typeof m !== 'number' && m.op === 'matmul' && uses.get(m) === 1 && m.shape.length === 2 &&
      m.inputs.every((v) => valueRank(p, v) === 2)) {
      const [a, b] = (m.inputs as [number | Item, number | Item]).map((v) => through(v));
      const tb = transposed(p, b, order);
      const ta = transposed(p, a, order);
      // n becomes the matmul in place: its consumers and outputs keep pointing at it.
      n.op = 'matmul';
      n.inputs = [tb, ta];
      n.attrs = m.attrs;
      rewritten = true;
    }
    order.push(n);
  }
  if (!rewritten) return p;
  return renumber(p, order, outputs);
}

/** vᵀ: the operand of v when v is itself a 2-D transpose, else a new transpose (added to `order`). */
function transposed(p: Program, v: number | Item, order: Item[]): number | Item {
  if (typeof v !== 'number' && isTranspose2d(v)) return v.inputs[0]!;
  const shape = valueShape(p, v);
  const t: Item = { op: 'permute', inputs: [v], attrs: { perm: [1, 0] }, shape: [shape[1]!, shape[0]!], dtype: valueDtype(p, v) };
  order.push(t);
  return t;
}

function valueShape(p: Program, v: number | Item): readonly number[] {
  if (typeof v !== 'number') return v.shape;
  return v < p.inputs.length ? p.inputs[v]!.shape : [];
}

function valueDtype(p: Program, v: number | Item): ProgramNode['dtype'] {
  if (typeof v !== 'number') return v.dtype;
  return v < p.inputs.length ? p.inputs[v]!.dtype : p.scalars[v - p.inputs.length]!;
}

const valueRank = (p: Program, v: number | Item): number => valueShape(p, v).length;

/** The nodes still reached from the outputs, in order, with value ids again. */
function renumber(p: Program, order: readonly Item[], outputs: readonly (number | Item)[]): Program {
  const live = new Set<Item>();
  const mark = (v: number | Item): void => {
    if (typeof v === 'number' || live.has(v)) return;
    live.add(v);
    v.inputs.forEach(mark);
  };
  outputs.forEach(mark);
  const base = p.inputs.length + p.scalars.length;
  const id = new Map<Item, number>();
  const nodes: ProgramNode[] = [];
  const idOf = (v: number | Item): number => (typeof v === 'number' ? v : id.get(v)!);
  for (const n of order) {
    if (!live.has(n)) continue;
    id.set(n, base + nodes.length);
    nodes.push({ op: n.op, inputs: n.inputs.map(idOf), attrs: n.attrs, shape: n.shape, dtype: n.dtype });
  }
  return { inputs: p.inputs, scalars: p.scalars, nodes, outputs: outputs.map(idOf) };
}
