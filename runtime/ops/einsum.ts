// einsum over permute/reshape/slice/matmul/sum: each operand's diagonals are taken first,
// then operands are contracted left to right; each pair becomes one batched matmul
// [batch, left, k] x [batch, k, right]. Indices that only one operand has (and nothing
// later needs) are summed first. The equation's parsing ('...', implicit output) is in
// einsum-equation.ts.
import type { Tensor } from '../tensor.js';
import { parseEquation } from './einsum-equation.js';

interface Term {
  t: Tensor;
  idx: string[];
}

/**
 * The diagonal of every label repeated within the term ('ii' -> 'i'): the repeated dims go
 * first, flattened, and a strided slice picks the elements whose indices are all equal (a
 * view chain, so autograd and fusion come from the primitives, and NaN or inf off the
 * diagonal stays out, as with PyTorch's diagonal view).
 */
function diagonals(term: Term): Term {
  const label = term.idx.find((c, d) => term.idx.indexOf(c) !== d);
  if (label === undefined) return term;
  const at = term.idx.flatMap((c, d) => (c === label ? [d] : []));
  const rest = term.idx.flatMap((c, d) => (c === label ? [] : [d]));
  const n = term.t.shape[at[0]!]!;
  const step = at.reduce((s, _, j) => s + n ** j, 0); // 1 + n + n² + ... moves every repeated index by one
  const order = [...at, ...rest];
  const front = order.every((p, i) => p === i) ? term.t : term.t.permute(...order);
  const flat = front.reshape([n ** at.length, ...rest.map((d) => term.t.shape[d]!)]);
  return diagonals({ t: flat.slice(0, 0, n ** at.length, step), idx: [label, ...rest.map((d) => term.idx[d]!)] });
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

/**
 * A summed label of size 1 in one term and n in the other (broadcast): Σ_j a_j·b_0 is
 * (Σ_j a_j)·b_0, so the larger side sums it first and the other drops it.
 */
function sumBroadcast(a: Term, b: Term, keep: Set<string>): [Term, Term] {
  for (const c of a.idx) {
    const j = b.idx.indexOf(c);
    if (j < 0 || keep.has(c)) continue;
    const na = a.t.shape[a.idx.indexOf(c)]!;
    const nb = b.t.shape[j]!;
    if (na === nb) continue;
    const [big, one] = nb === 1 ? [a, b] : [b, a];
    const drop = (term: Term, f: (t: Tensor, d: number) => Tensor) => ({ t: f(term.t, term.idx.indexOf(c)), idx: term.idx.filter((x) => x !== c) });
    const pair = [drop(big, (t, d) => t.sum(d)), drop(one, (t, d) => t.squeeze(d))];
    const [x, y] = big === a ? pair : pair.reverse();
    return sumBroadcast(x!, y!, keep);
  }
  return [a, b];
}

function contract(a: Term, b: Term, keep: Set<string>): Term {
  [a, b] = sumBroadcast(a, b, keep);
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
  const { inputs, output } = parseEquation(equation, list);
  const terms: Term[] = list.map((t, k) => diagonals({ t, idx: inputs[k]! }));
  const needed = (from: number) => new Set([...output, ...terms.slice(from).flatMap((t) => t.idx)]);
  let acc = sumOut(terms[0]!, needed(1));
  for (let k = 1; k < terms.length; k++) {
    const keep = needed(k + 1);
    acc = contract(acc, sumOut(terms[k]!, new Set([...keep, ...acc.idx])), keep);
  }
  acc = sumOut(acc, new Set(output));
  return permuteTo(acc, output);
}
