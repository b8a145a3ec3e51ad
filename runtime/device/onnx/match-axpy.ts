// A lowering peephole: x - g·s and x + g·s (an optimizer's update of a weight by its gradient
// and the learning rate) become one tpu_kernel.Axpy node, one pass over memory instead of
// ONNX's Mul then Sub. float32 of one shape, s one value, and the product read by nothing
// else: the node rounds the product, then the sum, as the two ONNX ops do.
import { valueOf, type Program } from '../../program/program.js';
import { shapesEqual } from '../../shape.js';

export interface AxpyMatch {
  /** Node index of the sub or add -> its operands (value ids) and which of the two it is. */
  readonly at: Map<number, { x: number; g: number; s: number; subtract: boolean }>;
  /** Node indices not to lower (the products). */
  readonly skip: Set<number>;
}

export function matchAxpy(p: Program, uses: ReadonlyMap<number, number>): AxpyMatch {
  const base = p.inputs.length + p.scalars.length;
  const at: AxpyMatch['at'] = new Map();
  const skip = new Set<number>();
  const float32 = (id: number) => valueOf(p, id).dtype === 'float32';
  p.nodes.forEach((n, i) => {
    if ((n.op !== 'sub' && n.op !== 'add') || n.dtype !== 'float32') return;
    // x - g·s takes the product second; x + g·s either way round
    const orders = n.op === 'sub' ? [n.inputs] : [n.inputs, [...n.inputs].reverse()];
    for (const [x, m] of orders as [number, number][]) {
      const mul = m >= base ? p.nodes[m - base] : undefined;
      if (mul?.op !== 'mul' || uses.get(m) !== 1 || skip.has(m - base)) continue;
      const [a, b] = mul.inputs as [number, number];
      const s = valueOf(p, b).shape.length === 0 ? b : valueOf(p, a).shape.length === 0 ? a : undefined;
      const g = s === b ? a : b;
      if (s === undefined || ![x, g, s, m].every(float32)) continue;
      if (!shapesEqual(valueOf(p, x).shape, n.shape) || !shapesEqual(valueOf(p, g).shape, n.shape)) continue;
      at.set(i, { x, g, s, subtract: n.op === 'sub' });
      skip.add(m - base);
      return;
    }
  });
  return { at, skip };
}
