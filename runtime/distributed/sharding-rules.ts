// DTensor's sharding propagation rules for a modest set of ops. Each rule picks the inputs'
// placements (redistributing them when they do not fit), runs the op on each chip's pieces and
// says the output's placements:
//   elementwise: shardings kept (operands agree or get redistributed; broadcast dims are Replicate);
//     Partial kept only where the op is linear (neg; add/sub of two Partials, with or without alpha;
//     mul/div by a Replicate, but not a div with a roundingMode); a bool DTensor's Partial (an or,
//     an and) and Partial('product') are linear for none: reduced first
//   matmul: [Shard(0)] x [Replicate()] -> Shard(0); [Replicate()] x [Shard(1)] -> Shard(1);
//     contraction dim sharded on both -> Partial('sum')
//   sum/mean/amax/amin over a sharded dim -> Partial('sum') ('max' for amax and max(), 'min' for
//     amin and min()); mean divides by the global size; over other dims the shard stays; sum's
//     and mean's dtype casts each piece first
//   norm over a sharded dim -> _NormPartial(p) (Partial('max') for ∞, 'min' for -∞, 'sum' for 0)
//   prod and all over a sharded dim -> Partial('product') (of bools: an and), any -> Partial('sum')
//     (of bools: an or), as PyTorch's
//   max/min with a dim, argmax/argmin, std/var, and a bfloat16 mean of a wider input (rounded
//     once): a sharded reduced dim (and Partial) is gathered to Replicate() first, as PyTorch's
//     rules ask; other shards stay
//   softmax/logSoftmax/cumsum/cumprod over an unsharded dim (their dtype casts each piece first),
//     transpose/T/permute: the shard dim follows
//   reshape/view/narrow (and flatten, unflatten, squeeze, unsqueeze, select over them): view-rules.ts
// What has no rule runs on Replicate() copies and leaves a profile warning (replicatedFallback).
import type { Tensor } from '../tensor.js';
import { broadcastShapes, formatShape, normalizeDim } from '../shape.js';
import { INT32_MAX, INT32_MIN, isFloating, type DType } from '../dtype.js';
import { readDimAndDType } from '../ops/dim-argument.js';
import { reduceAttrs, reducedShape, sumArgs, type KeepdimOptions, type OneDimOptions, type ReduceAttrs, type ReduceOptions, type SumOptions } from '../ops/reduce.js';
import { argAttrs, extremumArgs, type ArgOptions } from '../ops/extrema.js';
import { normArgs, varOptions, type NormOptions, type VarOptions, type VarRestOptions } from '../ops/statistics.js';
import { ValuesIndices } from '../ops/values-indices.js';
import { readAlpha } from '../ops/scaled-add.js';
import { readRoundingMode } from '../ops/division.js';
import { full } from '../creation.js';
import type { GeluOptions } from '../ops/nn/activations.js';
import { freeUnlessTracked } from './free-unless-tracked.js';
import { emit, profiling } from '../profiler/events.js';
import { checkSameMesh, DTensor } from './dtensor.js';
import { describeValue } from './describe-value.js';
import type { DeviceMesh } from './device-mesh.js';
import { formatPlacements, NormPartialPlacement, Partial, PartialPlacement, Replicate, samePlacement, Shard, type Placement } from './placement.js';
import { allOp, anyOp, prod, prodAttrs } from '../ops/prod-any-all.js';
import { apply } from '../modes/dispatch.js';
import { numberValue } from '../jit/live-number.js';

export type UnaryOp = 'neg' | 'relu' | 'exp' | 'tanh' | 'gelu';
export type BinaryOp = 'add' | 'sub' | 'mul' | 'div';

/**
 * The output of `fn` run on each chip's pieces of `inputs()` (the inputs laid out as the rule
 * needs: their redistributed copies and fn's temporaries are freed unless autograd recorded them). `shape`: the global
 * shape (default: the first chip's output's, for an all-Replicate output).
 */
export function perChip(inputs: () => readonly DTensor[], fn: (xs: Tensor[]) => Tensor, placements: readonly Placement[], shape?: readonly number[]): DTensor {
  return perChipOutputs(inputs, (xs) => [fn(xs)], placements, shape)[0]!;
}

/** perChip for an op with several outputs of one shape and layout (max(dim)'s values and indices). */
export function perChipOutputs(inputs: () => readonly DTensor[], fn: (xs: Tensor[]) => Tensor[], placements: readonly Placement[], shape?: readonly number[]): DTensor[] {
  let mesh: DeviceMesh | undefined;
  let outputs = 1;
  const flat = freeUnlessTracked(() => {
    const ins = inputs();
    mesh = ins[0]!.mesh;
    const pieces = ins.map((d) => d.localTensors());
    return mesh.chips.flatMap((_, k) => {
      const outs = fn(pieces.map((l) => l[k]!));
      outputs = outs.length;
      return outs;
    });
  });
  return Array.from({ length: outputs }, (_, j) => {
    const locals = flat.filter((_, i) => i % outputs === j);
    return new DTensor(locals, mesh!, placements, shape ?? locals[0]!.shape);
  });
}

/** `x` laid out as `placements` (x itself when it already is). */
export function laidOut(x: DTensor, placements: readonly Placement[]): DTensor {
  return placements.every((p, i) => samePlacement(p, x.placements[i]!)) ? x : x.redistribute(x.mesh, placements);
}

/**
 * Whether the op on every part gives the parts of the op's result: for a sum or mean of numbers (a
 * bool's Partial('sum') is an or: the sum of doubled parts is not the doubled or).
 */
const isLinearPartial = (p: Placement, dtype: DType) => p.kind === 'partial' && (p.reduceOp === 'sum' || p.reduceOp === 'mean') && dtype !== 'bool';

/** Runs `fn` on every chip's whole inputs (an op with no sharding rule), recording a profile warning. */
export function replicatedFallback(who: string, reason: string, inputs: readonly DTensor[], fn: (xs: Tensor[]) => Tensor): DTensor {
  return replicatedOutputs(who, reason, inputs, (xs) => [fn(xs)])[0]!;
}

/** replicatedFallback for an op with several outputs (each its own shape). */
export function replicatedOutputs(who: string, reason: string, inputs: readonly DTensor[], fn: (xs: Tensor[]) => Tensor[]): DTensor[] {
  if (profiling.on) {
    emit({ kind: 'sharding', op: who, message: `${who}: ${reason}; no sharding rule, so the inputs were gathered to Replicate() and every chip computed the whole result (Replicate())` });
  }
  const replicate = inputs[0]!.placements.map(() => Replicate());
  return perChipOutputs(() => inputs.map((x) => laidOut(x, replicate)), fn, replicate);
}

export function unary(op: UnaryOp, x: DTensor, geluOptions?: GeluOptions): DTensor {
  if (op === 'neg') {
    // -sum(parts) = sum(-parts); negation swaps max and min. A norm's parts are reduced first (a
    // norm is never negative), and a product's (-(a·b) is not (-a)·(-b)).
    const flip = { max: 'min', min: 'max', sum: 'sum', mean: 'mean' } as const;
    const flips = (p: Placement): p is PartialPlacement => p.kind === 'partial' && p.reduceOp in flip;
    const inPs = x.placements.map((p) => (p.kind === 'partial' && !flips(p) ? Replicate() : p));
    const ps = inPs.map((p) => (flips(p) ? Partial(flip[p.reduceOp as keyof typeof flip]) : p));
    return perChip(() => [laidOut(x, inPs)], ([t]) => t!.neg(), ps, x.shape);
  }
  const ps = x.placements.map((p) => (p.kind === 'partial' ? Replicate() : p));
  return perChip(() => [laidOut(x, ps)], ([t]) => (op === 'gelu' ? t!.gelu(geluOptions) : t![op]()), ps, x.shape);
}

/**
 * `options`: add/sub's { alpha } (other scaled: still linear) and div's { roundingMode } (a rounded
 * quotient of parts is not the parts of the quotient: Partial is reduced first, as PyTorch's
 * div.Tensor_mode, no linear op, does).
 */
export function binary(op: BinaryOp, a: DTensor, other: DTensor | number, options?: unknown): DTensor {
  const who = `DTensor.${op}`;
  const alpha = op === 'add' || op === 'sub' ? readAlpha(who, options) : 1;
  const roundingMode = op === 'div' ? readRoundingMode(who, options) : null;
  const run = (x: Tensor, y: Tensor | number) => (roundingMode !== null ? x.div(y, { roundingMode }) : alpha !== 1 ? x[op as 'add' | 'sub'](y, { alpha }) : x[op](y));
  const linear = (p: Placement) => isLinearPartial(p, a.dtype) && roundingMode === null;
  if (!(other instanceof DTensor) && typeof numberValue(other) === 'number') { // a tpu.compile number argument stays live, as for a tensor
    // A scalar added to every part moves a max, min or mean as much (a sum, norm or product
    // otherwise); scaling is linear for sum and mean.
    const shifts = (p: Placement) => p.kind === 'partial' && (p.reduceOp === 'max' || p.reduceOp === 'min' || p.reduceOp === 'mean');
    const keeps = (p: Placement) => p.kind !== 'partial' || ((op === 'add' || op === 'sub') ? shifts(p) : linear(p));
    const ps = a.placements.map((p) => (keeps(p) ? p : Replicate()));
    return perChip(() => [laidOut(a, ps)], ([t]) => run(t!, other), ps, a.shape);
  }
  if (!(other instanceof DTensor)) {
    throw new TypeError(`${who}: other must be a DTensor on the same mesh or a number; got ${describeValue(other)} (make one with tpu.distributeTensor(t, mesh, placements), e.g. all tpu.Replicate())`);
  }
  checkSameMesh(who, 'other.mesh', a.mesh, other.mesh);
  const { out, ps, operand } = broadcastLayout(who, [a, other], (i) => {
    const pa = a.placements[i]!;
    const pb = other.placements[i]!;
    if (op === 'add' || op === 'sub') return linear(pa) && isLinearPartial(pb, other.dtype) && samePlacement(pa, pb) ? pa : Replicate();
    if (linear(pa) && pb.kind !== 'partial') return pa;
    if (op === 'mul' && isLinearPartial(pb, other.dtype) && pa.kind !== 'partial') return pb;
    return Replicate();
  });
  return perChip(() => [operand(a), operand(other)], ([x, y]) => run(x!, y!), ps, out);
}

/**
 * The layout of an elementwise op over operands that broadcast together: along each mesh dim the
 * first operand sharded on a dim the output keeps (not broadcast) gives the output its Shard;
 * otherwise `unsharded(i)` says (Replicate(), or a Partial a linear op keeps). `operand(x)` lays x
 * out to match: the same Shard where x has that dim, Replicate() where it is broadcast.
 */
export function broadcastLayout(who: string, xs: readonly DTensor[], unsharded: (meshDim: number) => Placement, ps?: readonly Placement[]): { out: number[]; ps: readonly Placement[]; operand: (x: DTensor) => DTensor } {
  const out = xs.slice(1).reduce<readonly number[]>((s, x) => broadcastShapes(who, s, x.shape), xs[0]!.shape) as number[];
  const n = out.length;
  /** Tensor dim d of x as a dim of the output, when x is not broadcast along it. */
  const outDim = (x: DTensor, d: number) => (x.shape[d] === out[d + n - x.ndim] ? d + n - x.ndim : -1);
  const layout = ps ?? xs[0]!.placements.map((_, i): Placement => {
    for (const x of xs) {
      const p = x.placements[i]!;
      if (p.kind === 'shard' && outDim(x, p.dim) >= 0) return Shard(outDim(x, p.dim));
    }
    return unsharded(i);
  });
  const operand = (x: DTensor) => laidOut(x, layout.map((p, i): Placement => {
    if (p.kind === 'shard') {
      const d = p.dim - (n - x.ndim);
      return d >= 0 && outDim(x, d) >= 0 ? Shard(d) : Replicate();
    }
    return p.kind === 'partial' && x.placements[i]!.kind === 'partial' ? p : Replicate();
  }));
  return { out, ps: layout, operand };
}

export function matmul(a: DTensor, b: DTensor): DTensor {
  const who = 'DTensor.matmul';
  if (!(b instanceof DTensor)) throw new TypeError(`${who}: other must be a DTensor on the same mesh; got ${describeValue(b)}`);
  checkSameMesh(who, 'other.mesh', a.mesh, b.mesh);
  if (a.ndim !== 2 || b.ndim !== 2) return replicatedFallback(who, `${a.ndim}-d x ${b.ndim}-d (rules cover 2-d x 2-d)`, [a, b], ([x, y]) => x!.matmul(y!));
  if (a.shape[1] !== b.shape[0]) throw new RangeError(`${who}: input ${formatShape(a.shape)} and other ${formatShape(b.shape)} do not fit: input's dim 1 (${a.shape[1]}) must equal other's dim 0 (${b.shape[0]})`);
  const plans = a.placements.map((pa, i): [Placement, Placement, Placement] => {
    const pb = b.placements[i]!;
    const S0 = Shard(0);
    const S1 = Shard(1);
    if (pa.kind === 'shard' && pa.dim === 0) return [S0, Replicate(), S0];
    if (pb.kind === 'shard' && pb.dim === 1) return [Replicate(), S1, S1];
    if (pa.kind === 'shard' || pb.kind === 'shard') return [S1, S0, Partial('sum')]; // the contraction dim
    if (isLinearPartial(pa, a.dtype) && pb.kind !== 'partial') return [pa, Replicate(), pa];
    if (isLinearPartial(pb, b.dtype) && pa.kind !== 'partial') return [Replicate(), pb, pb];
    return [Replicate(), Replicate(), Replicate()];
  });
  const operands = () => [laidOut(a, plans.map((p) => p[0])), laidOut(b, plans.map((p) => p[1]))];
  return perChip(operands, ([l, r]) => l!.matmul(r!), plans.map((p) => p[2]), [a.shape[0]!, b.shape[1]!]);
}

/** mm: matmul's rule, for 2-d DTensors only (as Tensor.mm, whose error another rank gives). */
export function mm(a: DTensor, b: DTensor): DTensor {
  if (b instanceof DTensor && a.ndim === 2 && b.ndim === 2) return matmul(a, b);
  if (!(b instanceof DTensor)) throw new TypeError(`DTensor.mm: mat2 must be a DTensor on the same mesh; got ${describeValue(b)}`);
  throw new RangeError(`DTensor.mm: expects two 2-d DTensors (matrices); got ${formatShape(a.shape)} and ${formatShape(b.shape)}; matmul takes other ranks`);
}

export type ReduceOp = 'sum' | 'mean' | 'amax' | 'amin';
/** amax/amin: the Partial their parts make, and an empty piece's part (the identity: -inf / +inf, or int32's ends). */
const EXTREMA = { amax: { partial: 'max', empty: [-Infinity, INT32_MIN] }, amin: { partial: 'min', empty: [Infinity, INT32_MAX] } } as const;

export function reduce(op: ReduceOp, x: DTensor, dim?: number | readonly number[] | SumOptions, keepdim?: boolean | Omit<SumOptions, 'dim'>): DTensor {
  const who = `DTensor.${op}`;
  // sum's dtype casts each piece (or part) first, as PyTorch casts the DTensor, keeping its placements.
  const { attrs, dtype }: { attrs: ReduceAttrs; dtype?: DType } = op === 'sum' || op === 'mean' ? sumArgs(`DTensor.${op}`, x, dim, keepdim) : { attrs: reduceAttrs(who, x, dim, keepdim) };
  if (op === 'mean' && !isFloating(dtype ?? x.dtype)) throw new TypeError(`${who}: mean needs a floating dtype; got ${x.dtype} (give { dtype: 'float32' }, as PyTorch's dtype=)`);
  // A bfloat16 mean of a wider input is its float32 mean rounded once, and its gradient is divided
  // in bfloat16 (the mean primitive's dtype). Parts rounded apart would round twice (1-2 bfloat16
  // ulps off), and float32 parts added up would divide the gradient in float32: the reduced dims
  // are read whole, as PyTorch's DTensor reads them over an unevenly sharded dim.
  if (op === 'mean' && dtype === 'bfloat16' && x.dtype !== 'bfloat16') {
    return overWholeDims(x, attrs, (t) => [t.mean(attrs.dims, { keepdim: attrs.keepdim, dtype })])[0]!;
  }
  return reduceOver(op, x, attrs, dtype);
}

/** A Shard of a dim a reduction keeps: renumbered past the reduced dims unless keepdim. */
export function keptShard(dim: number, { dims, keepdim }: ReduceAttrs): Placement {
  return Shard(keepdim ? dim : dim - dims.filter((r) => r < dim).length);
}

function reduceOver(op: ReduceOp, x: DTensor, attrs: ReduceAttrs, dtype?: DType): DTensor {
  const { dims, keepdim: keep } = attrs;
  const extremum = op === 'amax' || op === 'amin' ? EXTREMA[op] : null;
  const reduced = (d: number) => dims.includes(d);
  // sum and mean are linear (Partial sum/mean parts stay parts); max of parts' maxima is the max
  // (min alike). Another Partial under max/min: PyTorch gathers the reduced dims too (Replicate()).
  const otherPartial = extremum !== null && x.placements.some((p) => p.kind === 'partial' && p.reduceOp !== extremum.partial);
  const inPs = x.placements.map((p) => {
    if (p.kind === 'partial') return (extremum ? !otherPartial : isLinearPartial(p, x.dtype)) ? p : Replicate();
    return otherPartial && p.kind === 'shard' && reduced(p.dim) ? Replicate() : p;
  });
  const ps = inPs.map((p): Placement => {
    if (p.kind !== 'shard') return p;
    return reduced(p.dim) ? Partial(extremum ? extremum.partial : 'sum') : keptShard(p.dim, attrs);
  });
  const overShards = x.placements.some((p) => p.kind === 'shard' && reduced(p.dim));
  const count = dims.reduce((m, d) => m * x.shape[d]!, 1);
  return perChip(() => [laidOut(x, inPs)], ([t]) => {
    if (op === 'sum') return (dtype === undefined ? t! : t!.to(dtype)).sum(dims, keep);
    if (op === 'mean') {
      const cast = dtype === undefined ? t! : t!.to(dtype);
      // over a sharded dim: each chip's sum over the GLOBAL count, so the parts add up to the mean
      return overShards ? cast.sum(dims, keep).div(count) : cast.mean(dims, keep);
    }
    if (dims.some((d) => t!.shape[d] === 0)) {
      // An empty piece (torch.chunk leaves some) holds the identity, ±inf: uploaded, as debug
      // mode checks every op's result for Inf.
      return full(reducedShape(t!.shape, attrs), extremum!.empty[isFloating(t!.dtype) ? 0 : 1], { dtype: t!.dtype, chip: t!.chip });
    }
    return t![op as 'amax' | 'amin'](dims, keep);
  }, ps, reducedShape(x.shape, attrs));
}

/**
 * Ops that read each of `attrs.dims` whole (max/min with indices, argmax/argmin, std/var, a
 * bfloat16 mean of a wider input; median, sort, scans). As PyTorch's rules ask, a Shard of a read
 * dim, and any Partial, are redistributed to Replicate() first; the other shards stay, renumbered.
 * `fn` gives each chip's outputs, of global shape `shape` (default: attrs' reduced shape). With
 * `part`, an op whose results over pieces combine (nansum's sum) keeps a read dim's Shard, and
 * the output is Partial(part) there.
 */
export function overWholeDims(x: DTensor, attrs: ReduceAttrs, fn: (t: Tensor) => Tensor[], shape: readonly number[] = reducedShape(x.shape, attrs), part?: 'sum'): DTensor[] {
  const { dims } = attrs;
  const read = (p: Placement) => p.kind === 'shard' && dims.includes(p.dim);
  const inPs = x.placements.map((p) => (p.kind === 'partial' || (read(p) && part === undefined) ? Replicate() : p));
  const ps = inPs.map((p) => (p.kind !== 'shard' ? p : read(p) ? Partial(part!) : keptShard(p.dim, attrs)));
  return perChipOutputs(() => [laidOut(x, inPs)], ([t]) => fn(t!), ps, shape);
}

/**
 * Vector p-norm. Over a sharded dim each chip's norm of its piece is a part of PyTorch's
 * _NormPartial(p), reduced as (Σ parts^p)^(1/p) when read; the ∞-norm's parts are Partial('max'),
 * -∞'s Partial('min'), 0's (counts) Partial('sum'). Other shards stay. A Partial input is reduced
 * first (PyTorch keeps a max Partial under the ∞-norm, but |max of parts| is not max |parts|).
 */
export function norm(x: DTensor, p?: number | 'fro' | NormOptions, dim?: number | readonly number[] | Omit<NormOptions, 'p'>, keepdim?: boolean | KeepdimOptions): DTensor {
  const { ord, attrs } = normArgs('DTensor.norm', x, p, dim, keepdim);
  const part = ord === Infinity ? Partial('max') : ord === -Infinity ? Partial('min') : ord === 0 ? Partial('sum') : new NormPartialPlacement(ord);
  const inPs = x.placements.map((q) => (q.kind === 'partial' ? Replicate() : q));
  const ps = inPs.map((q) => (q.kind !== 'shard' ? q : attrs.dims.includes(q.dim) ? part : keptShard(q.dim, attrs)));
  return perChip(() => [laidOut(x, inPs)], ([t]) => {
    // An empty piece's ±∞-norm (no identity for PyTorch) is the identity of its Partial: 0 for max |x|, +∞ for min |x|.
    if (Math.abs(ord) === Infinity && attrs.dims.some((d) => t!.shape[d] === 0)) {
      return full(reducedShape(t!.shape, attrs), ord > 0 ? 0 : Infinity, { dtype: isFloating(t!.dtype) ? t!.dtype : 'float32', chip: t!.chip });
    }
    return t!.norm(ord, attrs.dims, attrs.keepdim);
  }, ps, reducedShape(x.shape, attrs));
}

/** The Partial each op's parts make (PyTorch's): a product's, a logical and's, a logical or's. */
const PARTS_OF = { prod: 'product', all: 'product', any: 'sum' } as const;
const PRIMITIVE_OF = { prod, all: allOp, any: anyOp } as const;

/**
 * prod, all, any. Over a sharded dim each chip's result is a part of Partial('product') (prod;
 * all: a logical and of bools) or Partial('sum') (any: a logical or of bools), as PyTorch's; other
 * shards stay. An input Partial is kept where the parts compose exactly: products of a product's
 * parts (not int32's, whose parts' product wraps at 32 bits, while prod's int64 ones would not),
 * ands of a bool and, ors of a bool or. Any other Partial is reduced first, and then the reduced
 * dims' shards are gathered too (PyTorch's rule when a Partial does not fit). PyTorch also keeps
 * any's Partial('sum') of numbers (any(1 + -1) is not any(1) or any(-1)) and all's numeric
 * Partial('product') (a product of nonzero parts can underflow to 0).
 */
export function productOrTruth(op: 'prod' | 'all' | 'any', x: DTensor, dim?: number | readonly number[] | ReduceOptions, keepdim?: boolean | KeepdimOptions): DTensor {
  const who = `DTensor.${op}`;
  const attrs = op === 'prod' ? prodAttrs(who, x, dim as number | OneDimOptions | undefined, keepdim) : reduceAttrs(who, x, dim, keepdim);
  const part = PARTS_OF[op];
  const composes = op === 'prod' ? x.dtype !== 'int32' : x.dtype === 'bool';
  const fits = x.placements.every((p) => p.kind !== 'partial' || (p.reduceOp === part && composes));
  const gathered = (p: Placement) => p.kind === 'partial' || (p.kind === 'shard' && attrs.dims.includes(p.dim));
  const inPs = fits ? x.placements : x.placements.map((p) => (gathered(p) ? Replicate() : p));
  const ps = inPs.map((p) => (p.kind !== 'shard' ? p : attrs.dims.includes(p.dim) ? Partial(part) : keptShard(p.dim, attrs)));
  return perChip(() => [laidOut(x, inPs)], ([t]) => apply(PRIMITIVE_OF[op], [t!], attrs), ps, reducedShape(x.shape, attrs));
}

/**
 * max()/min(): Partial('max'/'min') over sharded dims, as amax/amin. max(dim)/min(dim): values and
 * indices, the dim gathered when sharded (PyTorch gives Replicate(): an index needs the whole dim).
 */
export function extremum(op: 'max' | 'min', x: DTensor, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): DTensor | ValuesIndices<DTensor> {
  const who = `DTensor.${op}`;
  if (dim instanceof DTensor) throw new TypeError(`${who}(other), the elementwise ${op}imum, has no DTensor rule here; take it on the full tensors or use ${op}(dim)`);
  const { withDim, attrs } = extremumArgs(who, op, x, dim, keepdim);
  if (!withDim) return reduceOver(op === 'max' ? 'amax' : 'amin', x, attrs);
  const d = attrs.dims[0]!;
  const [values, indices] = overWholeDims(x, attrs, (t) => [...t[op](d, attrs.keepdim)]);
  return new ValuesIndices(values!, indices!);
}

/** argmax/argmin: over the flattened tensor (no dim) every shard is gathered; PyTorch's Replicate(). */
export function argExtremum(op: 'argmax' | 'argmin', x: DTensor, dim?: number | ArgOptions, keepdim?: boolean | KeepdimOptions): DTensor {
  const { dim: d, keepdim: keep } = argAttrs(`DTensor.${op}`, x, dim, keepdim);
  const dims = d === null ? x.shape.map((_, i) => i) : [d];
  return overWholeDims(x, { dims, keepdim: keep }, (t) => [d === null ? t[op](undefined, keep) : t[op](d, keep)])[0]!;
}

/** std/var: over a sharded dim gathered first (PyTorch redistributes to Replicate() too). */
export function spread(op: 'std' | 'var', x: DTensor, dim?: number | readonly number[] | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): DTensor {
  const { dims, keepdim: keep, correction } = varOptions(`DTensor.${op}`, x, dim, unbiased, keepdim);
  return overWholeDims(x, { dims, keepdim: keep }, (t) => [t[op]({ dim: dims, keepdim: keep, correction })])[0]!;
}

export type AlongDimOp = 'softmax' | 'logSoftmax' | 'cumsum' | 'cumprod';
/** The dtypes each op's options.dtype may be, as the Tensor ops (and PyTorch) allow. */
const DTYPE_KINDS = { softmax: 'floating-point', logSoftmax: 'floating-point', cumsum: 'numeric', cumprod: 'numeric' } as const;

/** Ops whose every output element reads the whole dim: dim and { dtype } read as the Tensor ops read them. */
export function alongDim(op: AlongDimOp, x: DTensor, dim: unknown, options: unknown): DTensor {
  const who = `DTensor.${op}`;
  const { d, dtype } = readDimAndDType(who, x, dim, options, DTYPE_KINDS[op]);
  const run = ([t]: Tensor[]) => t![op](d, dtype === undefined ? undefined : { dtype });
  if (x.placements.some((p) => p.kind === 'shard' && p.dim === d)) {
    return replicatedFallback(who, `over dim ${d}, which is sharded (${formatPlacements(x.placements)})`, [x], run);
  }
  const ps = x.placements.map((p) => (p.kind === 'partial' ? Replicate() : p));
  return perChip(() => [laidOut(x, ps)], run, ps, x.shape);
}

/** Dims reordered: dim perm[i] of x becomes dim i, and a Shard follows its dim. */
export function permute(x: DTensor, perm: readonly number[]): DTensor {
  const ps = x.placements.map((p) => (p.kind === 'shard' ? Shard(perm.indexOf(p.dim)) : p));
  return perChip(() => [x], ([t]) => t!.permute(...perm), ps, perm.map((d) => x.shape[d]!));
}

export function transpose(x: DTensor, dim0: number, dim1: number): DTensor {
  const a = normalizeDim('DTensor.transpose', dim0, x.ndim, 'dim0');
  const b = normalizeDim('DTensor.transpose', dim1, x.ndim, 'dim1');
  const perm = Array.from({ length: x.ndim }, (_, i) => (i === a ? b : i === b ? a : i));
  return permute(x, perm);
}
