// Parsing of an einsum equation into one label list per operand and the output's labels,
// as torch.einsum reads it: letters name dims, '...' stands for the dims no letter names
// (right-aligned and broadcast across operands), a letter repeated within one operand
// takes a diagonal, and without '->' the output is '...' then the letters seen once, sorted.
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';

const ELLIPSIS = '...';
/** The label of the ellipsis dim `i` counted from the left of the widest '...': never a letter. */
const ellipsisLabel = (i: number) => `…${i}`;

export interface Equation {
  inputs: string[][];
  output: string[];
}

/** Letters of one side of the equation, with '...' kept as one item. */
function letters(part: string, equation: string): string[] {
  const pieces = part.split(ELLIPSIS);
  if (pieces.length > 2) throw new SyntaxError(`einsum: '...' appears more than once in '${part}' of '${equation}'`);
  const out: string[] = [];
  pieces.forEach((piece, k) => {
    if (k > 0) out.push(ELLIPSIS);
    for (const c of piece) {
      if (!/[a-zA-Z]/.test(c)) throw new SyntaxError(`einsum: '${c}' in '${equation}' is not a letter or '...'`);
      out.push(c);
    }
  });
  return out;
}

export function parseEquation(equation: string, operands: readonly Tensor[]): Equation {
  if (typeof equation !== 'string') throw new TypeError(`einsum: equation must be a string like 'ij,jk->ik'; got ${typeof equation}`);
  const eq = equation.replace(/\s+/g, '');
  const [lhs, rhs, extra] = eq.split('->') as [string, string | undefined, string | undefined];
  if (extra !== undefined) throw new SyntaxError(`einsum: '->' appears more than once in '${equation}'`);
  const specs = lhs.split(',').map((s) => letters(s, equation));
  if (specs.length !== operands.length) {
    throw new RangeError(`einsum: '${equation}' names ${specs.length} operands but ${operands.length} were given`);
  }
  // the ellipsis of each operand covers the dims its letters leave
  const widths = specs.map((spec, k) => {
    const t = operands[k]!;
    if (!(t instanceof Tensor)) throw new TypeError(`einsum: operand ${k} must be a tensor; got ${typeof t}`);
    const named = spec.filter((c) => c !== ELLIPSIS).length;
    const has = spec.includes(ELLIPSIS);
    if (has ? named > t.ndim : named !== t.ndim) {
      throw new RangeError(`einsum: operand ${k} has ${t.ndim} dims ${formatShape(t.shape)} but '${lhs.split(',')[k]}' names ${has ? 'at least ' : ''}${named}`);
    }
    return has ? t.ndim - named : 0;
  });
  const widest = Math.max(0, ...widths);
  const ellipsis = Array.from({ length: widest }, (_, i) => ellipsisLabel(i));
  const inputs = specs.map((spec, k) => spec.flatMap((c) => (c === ELLIPSIS ? ellipsis.slice(widest - widths[k]!) : [c])));
  checkSizes(inputs, operands);
  let output: string[];
  if (rhs === undefined) {
    const counts = new Map<string, number>();
    inputs.flat().forEach((c) => counts.set(c, (counts.get(c) ?? 0) + 1));
    output = [...ellipsis, ...[...counts.keys()].filter((c) => c.length === 1 && counts.get(c) === 1).sort()];
  } else {
    output = letters(rhs, equation).flatMap((c) => (c === ELLIPSIS ? ellipsis : [c]));
    const known = new Set(inputs.flat());
    output.forEach((c) => {
      if (!known.has(c)) throw new RangeError(`einsum: output index '${c}' appears in no operand of '${equation}'`);
      if (output.indexOf(c) !== output.lastIndexOf(c)) throw new RangeError(`einsum: output index '${c}' repeats in '${equation}'`);
    });
  }
  return { inputs, output };
}

/** Sizes of one label agree: equal within an operand (a diagonal), equal or 1 across operands (broadcast). */
function checkSizes(inputs: readonly string[][], operands: readonly Tensor[]): void {
  const sizes = new Map<string, number>();
  inputs.forEach((idx, k) => {
    const t = operands[k]!;
    idx.forEach((c, d) => {
      const n = t.shape[d]!;
      const first = idx.indexOf(c);
      const name = c.length === 1 ? `index '${c}'` : `'...' dim`;
      if (first !== d && t.shape[first] !== n) {
        throw new RangeError(`einsum: ${name} repeats in operand ${k} with sizes ${t.shape[first]} and ${n}; a diagonal needs equal sizes`);
      }
      const seen = sizes.get(c);
      if (seen !== undefined && seen !== n && seen !== 1 && n !== 1) {
        throw new RangeError(`einsum: ${name} has size ${seen} in one operand and ${n} in operand ${k}`);
      }
      sizes.set(c, Math.max(seen ?? 1, n));
    });
  });
}
