// A lowering peephole: the composed softmax (amax, sub, exp, sum, div over one dim) becomes
// ONNX Softmax when none of its intermediates leaves the program. float32 only: bfloat16
// must round after each op, as op-by-op execution does.
import type { Program } from '../../program/program.js';
import { shapesEqual } from '../../shape.js';

export interface SoftmaxMatch {
  /** Node index of the div that yields the softmax -> [input value id, axis]. */
  readonly at: Map<number, { input: number; axis: number }>;
  /** Node indices not to lower (the pattern's intermediates). */
  readonly skip: Set<number>;
}

interface ReduceAttrs {
  dims: readonly number[];
  keepdim: boolean;
}

export function matchSoftmax(p: Program, uses: ReadonlyMap<number, number>): SoftmaxMatch {
  const base = p.inputs.length + p.scalars.length;
  const nodeOf = (v: number) => (v >= base ? p.nodes[v - base] : undefined);
  const at = new Map<number, { input: number; axis: number }>();
  const skip = new Set<number>();
  p.nodes.forEach((div, i) => {
    // (ONNX Softmax needs rank >= 1: a 0-d softmax is lowered op by op)
    if (div.op !== 'div' || div.dtype !== 'float32' || div.shape.length === 0) return;
    const [eId, tId] = div.inputs as [number, number];
    const exp = nodeOf(eId);
    const sum = nodeOf(tId);
    if (exp?.op !== 'exp' || sum?.op !== 'sum' || sum.inputs[0] !== eId) return;
    const sub = nodeOf(exp.inputs[0]!);
    if (sub?.op !== 'sub') return;
    const [xId, detachedId] = sub.inputs as [number, number];
    // The max may come through detach(), a reshape to its own shape.
    const detached = nodeOf(detachedId);
    const through = detached?.op === 'reshape' && uses.get(detached.inputs[0]!) === 1 && shapesEqual(detached.shape, nodeOf(detached.inputs[0]!)?.shape ?? []);
    const mId = through ? detached.inputs[0]! : detachedId;
    const max = nodeOf(mId);
    if (max?.op !== 'amax' || max.inputs[0] !== xId) return;
    const a = max.attrs as ReduceAttrs;
    const b = sum.attrs as ReduceAttrs;
    if (a.dims.length !== 1 || !a.keepdim || b.dims.length !== 1 || !b.keepdim || a.dims[0] !== b.dims[0]) return;
    if (uses.get(eId) !== 2 || uses.get(tId) !== 1 || uses.get(exp.inputs[0]!) !== 1 || uses.get(detachedId) !== 1) return;
    if ([exp, sum, sub, max].some((n) => n.dtype !== 'float32')) return;
    at.set(i, { input: xId, axis: a.dims[0]! });
    for (const v of new Set([eId, tId, exp.inputs[0]!, detachedId, mId])) skip.add(v - base);
  });
  return { at, skip };
}
