// The structure of a bound region, kept to recognise the next binding alike without its
// signature string: a loop cut at the size cap, or a training step cut at its sync, binds the
// same structure again and again, and building and hashing the signature of hundreds of ops
// cost more than recording them. Alike means what the signature says (bind-program.ts): the
// same ops, attributes, dtypes and operand ids, input shapes and dtypes, scalar types, outputs.
// It holds no tensor or buffer: only ops, attributes and shapes.
import { attrKeyOf, sameAttrs, type Primitive } from '../primitive.js';
import { shapesEqual, type Shape } from '../shape.js';
import type { DType } from '../dtype.js';
import type { RegionBinding } from './bind-program.js';

/** Small numbers for ops and dtypes, for the structure hash. */
const codes = new Map<unknown, number>();
const codeOf = (x: unknown): number => {
  let c = codes.get(x);
  if (c === undefined) codes.set(x, (c = codes.size + 1));
  return c;
};

/**
 * A number from the parts of a binding's structure that are cheap to read (ops, dtypes, operand
 * ids, input shapes; not attributes): the program cache's bucket for it. Alike bindings hash alike.
 */
export function structureHash(b: RegionBinding): number {
  let h = 0x811c9dc5;
  const mix = (x: number) => (h = Math.imul(h ^ x, 0x01000193));
  for (let k = 0; k < b.nodes.length; k++) {
    const node = b.nodes[k]!;
    mix(codeOf(node.op));
    mix(codeOf(node.dtype));
    for (const r of b.refs[k]!) mix(r);
  }
  for (const v of b.inputValues) {
    mix(codeOf(v.dtype));
    for (const d of v.shape) mix(d);
  }
  for (const o of b.outIds) mix(o);
  return h;
}

export class RegionKey {
  private readonly ops: Primitive[];
  private readonly attrs: unknown[];
  /** attrKeyOf of each node's attributes: compared when the attributes differ field by field (sameAttrs). */
  private readonly attrKeys: string[];
  private readonly dtypes: DType[];
  private readonly refs: readonly (readonly number[])[];
  private readonly inputShapes: Shape[];
  private readonly inputDtypes: DType[];
  private readonly scalarTypes: readonly DType[];
  private readonly outIds: readonly number[];

  constructor(b: RegionBinding) {
    const n = b.nodes.length;
    this.ops = new Array(n);
    this.attrs = new Array(n);
    this.attrKeys = new Array(n);
    this.dtypes = new Array(n);
    for (let k = 0; k < n; k++) {
      const node = b.nodes[k]!;
      this.ops[k] = node.op;
      this.attrs[k] = node.attrs;
      this.attrKeys[k] = attrKeyOf(node.op, node.attrs);
      this.dtypes[k] = node.dtype;
    }
    this.refs = b.refs;
    this.inputShapes = b.inputValues.map((v) => v.shape);
    this.inputDtypes = b.inputValues.map((v) => v.dtype);
    this.scalarTypes = b.scalarTypes;
    this.outIds = b.outIds;
  }

  /** Whether `b` has this structure (then it has the signature this key was made from). */
  matches(b: RegionBinding): boolean {
    const { nodes, refs, inputValues } = b;
    if (nodes.length !== this.ops.length || inputValues.length !== this.inputShapes.length ||
      !sameNumbers(b.outIds, this.outIds) || b.scalarTypes.length !== this.scalarTypes.length) return false;
    for (let k = 0; k < this.scalarTypes.length; k++) if (b.scalarTypes[k] !== this.scalarTypes[k]) return false;
    for (let k = 0; k < inputValues.length; k++) {
      const v = inputValues[k]!;
      if (v.dtype !== this.inputDtypes[k] || !shapesEqual(v.shape, this.inputShapes[k]!)) return false;
    }
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k]!;
      if (node.op !== this.ops[k] || node.dtype !== this.dtypes[k] || !sameNumbers(refs[k]!, this.refs[k]!)) return false;
      if (!sameAttrs(node.op, node.attrs, this.attrs[k], this.attrKeys[k])) return false;
    }
    return true;
  }
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
