// einsum over permute/reshape/matmul/sum: operands are contracted left to right; each
// pair becomes one batched matmul [batch, left, k] x [batch, k, right]. Indices that
// only one operand has (and nothing later needs) are summed first. Repeated indices
// within one operand (diagonals) are not supported.
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';

interface Term {
  t: Tensor;
  idx: string[];
}

function parse(equation: string, operands: readonly Tensor[]): { inputs: string[][]; output: string[] } {
  if (typeof equation !== 'string') throw new TypeError(`einsum: equation must be a string like 'ij,jk->ik'; got ${typeof equation}`);
  const eq = equation.replace(/\s+/g, '');
  if (eq.includes('.')) throw new SyntaxError(`einsum: '...' (ellipsis) is not supported in '${equation}'; name every dim`);
  const [lhs, rhs] = eq.split('->') as [string, string | undefined];
  const inputs = lhs.split(',').map((s) => [...s]);
  if (inputs.length !== operands.length) {
    throw new RangeError(`einsum: '${equation}' names ${inputs.length} operands but ${operands.length} were given`);
  }
  const sizes = new Map<string, number>();
  inputs.forEach((idx, k) => {
    const t = operands[k]!;
    if (!(t instanceof Tensor)) throw new TypeError(`einsum: operand ${k} must be a tensor; got ${typeof t}`);
    if (idx.length !== t.ndim) throw new RangeError(`einsum: operand ${k} has ${t.ndim} dims ${formatShape(t.shape)} but '${idx.join('')}' names ${idx.length}`);
    idx.forEach((c, d) => {
      if (!/[a-zA-Z]/.test(c)) throw new SyntaxError(`einsum: '${c}' in '${equation}' is not a letter`);
      if (idx.indexOf(c) !== d) throw new RangeError(`einsum: index '${c}' repeats in operand ${k} ('${idx.join('')}'); diagonals are not supported`);
      const n = t.shape[d]!;
      const seen = sizes.get(c);
      if (seen !== undefined && seen !== n && seen !== 1 && n !== 1) {
        throw new RangeError(`einsum: index '${c}' has size ${seen} in one operand and ${n} in operand ${k}`);
      }
      sizes.set(c, Math.max(seen ?? 1, n));
    });
  });
  let output: string[];
  if (rhs === undefined) {
    const counts = new Map<string, number>();
    inputs.flat().forEach((c) => counts.set(c, (counts.get(c) ?? 0) + 1));
    output = [...counts.keys()].filter((c) => counts.get(c) === 1).sort();
  } else {
    output = [...rhs];
    output.forEach((c) => {
      if (!sizes.has(c)) throw new RangeError(`einsum: output index '${c}' appears in no operand of '${equation}'`);
      if (output.indexOf(c) !== output.lastIndexOf(c)) throw new RangeError(`einsum: output index '${c}' repeats in '${equation}'`);
    });
  }
  return { inputs, output };
}

/** Sums the indices of a term that are not in `keep`. */
function sumOut(term: Term, keep: Set<string>): Term {
  const dims = term.idx.map((c, d) => (keep.has(c) ? -1 : d)).filter((d) => d >= 0);
  if (dims.length === 0) return term;
  return { t: term.t.sum(dims), idx: term.idx.filter((c) => keep.has(c)) };
}

function permuteTo(term: Term, order: string[]): Tensor {
  const perm = order.map((c) => term.idx.indexOf(c));
  return perm.every((p, i) => p === i) ? term.t : term.t.permute(...perm);
}

function contract(a: Term, b: Term, keep: Set<string>): Term {
  const batch = a.idx.filter((c) => b.idx.includes(c) && keep.has(c));
  const summed = a.idx.filter((c) => b.idx.includes(c) && !keep.has(c));
  const left = a.idx.filter((c) => !b.idx.includes(c));
  const right = b.idx.filter((c) => !a.idx.includes(c));
  const size = (term: Term, cs: string[]) => cs.map((c) => term.t.shape[term.idx.indexOf(c)]!);
  const prod = (xs: number[]) => xs.reduce((p, q) => p * q, 1);
  const batchShape = size(a, batch).map((n, i) => Math.max(n, size(b, batch)[i]!));
  const x = permuteTo(a, [...batch, ...left, ...summed]).reshape([...size(a, batch), prod(size(a, left)), prod(size(a, summed))]);
  const y = permuteTo(b, [...batch, ...summed, ...right]).reshape([...size(b, batch), prod(size(b, summed)), prod(size(b, right))]);
  const z = x.matmul(y).reshape([...batchShape, ...size(a, left), ...size(b, right)]);
  return { t: z, idx: [...batch, ...left, ...right] };
}

/**
 * Einstein summation over the tensors' labelled dims (torch.einsum).
 * @example tpu.einsum('ij,jk->ik', a, b)
 */
export function einsum(equation: string, ...operands: Tensor[] | [readonly Tensor[]]): Tensor {
  const list = (operands.length === 1 && Array.isArray(operands[0]) ? operands[0] : operands) as Tensor[];
  const { inputs, output } = parse(equation, list);
  const terms: Term[] = list.map((t, k) => ({ t, idx: inputs[k]! }));
  const needed = (from: number) => new Set([...output, ...terms.slice(from).flatMap((t) => t.idx)]);
  let acc = sumOut(terms[0]!, needed(1));
  for (let k = 1; k < terms.length; k++) {
    const keep = needed(k + 1);
    acc = contract(acc, sumOut(terms[k]!, new Set([...keep, ...acc.idx])), keep);
  }
  acc = sumOut(acc, new Set(output));
  return permuteTo(acc, output);
}
