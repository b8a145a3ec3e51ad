// DTensor (PyTorch's torch.distributed.tensor.DTensor) with one controller: a global tensor
// held as one local tensor per chip of a mesh, laid out by one placement per mesh dimension.
// Ops on it follow DTensor's sharding rules (sharding-rules.ts): each chip runs the op on its
// piece, and collectives are inserted where the rules need them.
import { Tensor } from '../tensor.js';
import { formatShape, normalizeDim, shapesEqual } from '../shape.js';
import { isFloating, type DType } from '../dtype.js';
import { DeviceMesh } from './device-mesh.js';
import { formatPlacements, isPlacement, partitionDivisor, Replicate, ShardPlacement, type Placement } from './placement.js';
import { localBox } from './shard-layout.js';
import { describeValue } from './describe-value.js';
import { noGrad } from '../autograd/grad-mode.js';
import { disposeUnlessHandedOut, noteGradHandedOut, releaseGrad } from '../autograd/release-grad.js';
import { redistributeLocals } from './redistribute.js';
import { freeUnlessTracked } from './free-unless-tracked.js';
import { gradPartsOf, hasWholeGrads, leafGradPieces, noLeafGradReason } from './dtensor-grad.js';
import { keep, scope } from '../scope.js';
import { checkGradLayout, checkPieces, checkReplicas, globalShape, type FromLocalOptions } from './from-local.js';
import { defaultGradPlacements, fromLocalPieces } from './from-local-grad.js';
import { readOptions } from '../options.js';
import * as rules from './sharding-rules.js';
import * as views from './view-rules.js';
import type { GeluOptions } from '../ops/nn/activations.js';
import type { AlphaOptions } from '../ops/scaled-add.js';
import type { DivOptions } from '../ops/division.js';
import type { KeepdimOptions, OneDimOptions, ReduceOptions, SumOptions } from '../ops/reduce.js';
import type { ArgOptions } from '../ops/extrema.js';
import type { NormOptions, VarOptions, VarRestOptions } from '../ops/statistics.js';
import type { ValuesIndices } from '../ops/values-indices.js';
import type { DTypeOption } from '../ops/dim-argument.js';
import { TENSOR_PARTS, type TensorParts } from '../tensor-parts.js';
import { readPermutation } from '../ops/layout.js';
import { intArgs, type IntArgs } from '../shape-args.js';
import { resolveReshape } from '../ops/layout.js';
import type { DTensorMethods } from './dtensor-methods.js';
import './to-chip.js';

// The Tensor methods DTensor takes from lists, by group (dtensor-op-groups.ts, dtensor-methods.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface DTensor extends DTensorMethods {}

/**
 * A tensor held as one piece per chip of a mesh, laid out by one placement per mesh dimension (PyTorch's DTensor);
 * made by tpu.distributeTensor or tpu.DTensor.fromLocal.
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * tpu.DTensor.fromLocal(mesh.chips.map((chip) => tpu.ones([2, 3], { chip })), mesh, [tpu.Shard(0)]).shape[1] // 3
 */
export class DTensor {
  readonly #locals: readonly Tensor[];
  /** The last .grad built, and what the pieces' gradients were then (gradStamps). */
  #gradCache: { from: unknown[]; grad: DTensor } | null = null;

  /** Use tpu.distributeTensor (this checks that each chip's piece has the shape its placements give). */
  constructor(locals: readonly Tensor[], readonly mesh: DeviceMesh, readonly placements: readonly Placement[], readonly shape: readonly number[]) {
    locals.forEach((t, k) => {
      const want = localBox(shape, mesh, placements, k).size;
      if (t.chip !== mesh.chips[k] || !shapesEqual(t.shape, want)) {
        throw new Error(`DTensor: chip ${mesh.chips[k]}'s piece of ${formatShape(shape)} ${formatPlacements(placements)} must have shape ${formatShape(want)}; got ${formatShape(t.shape)} on chip ${t.chip}`);
      }
    });
    this.#locals = locals;
  }

  get dtype(): DType {
    return this.#locals[0]!.dtype;
  }

  get ndim(): number {
    return this.shape.length;
  }

  /**
   * Each chip's piece, in mesh.chips order, each on its chip (DTensor.to_local on every rank).
   * @example tpu.distributeTensor(tpu.zeros([10, 2]), mesh, [tpu.Shard(0)]).localTensors().map((t) => t.shape[0]) // on 4 chips: [3, 3, 3, 1]
   */
  localTensors(): Tensor[] {
    return [...this.#locals];
  }

  /**
   * PyTorch's DTensor.to_local on every rank at once: each chip's piece, in mesh.chips order (the same as localTensors()); gradients flow through them.
   * @example dt.toLocal()[0].device // 'tpu:0'
   */
  toLocal(): Tensor[] {
    return this.localTensors();
  }

  /**
   * A DTensor made of one tensor per chip of the mesh (PyTorch's DTensor.from_local with one controller): locals[k] is
   * on chip mesh.chips[k] and holds that chip's piece as `placements` say. The global shape is the pieces' joined
   * along each Shard dim (or options.shape). `runCheck` reads the pieces and checks that replicas agree (a sync point).
   * Gradients flow back to the locals laid out as `gradPlacements` (PyTorch's default: Shard stays, Replicate and
   * Partial give Replicate: every replica's local gets the whole gradient).
   * @example tpu.DTensor.fromLocal(mesh.chips.map((chip) => tpu.ones([2, 3], { chip })), mesh, [tpu.Shard(0)]).shape // on 4 chips: [8, 3]
   */
  static fromLocal(locals: readonly Tensor[], mesh: DeviceMesh, placements: readonly Placement[], options?: FromLocalOptions): DTensor {
    const who = 'tpu.DTensor.fromLocal';
    checkMeshArg(who, 'mesh', mesh);
    const o = readOptions<FromLocalOptions>(who, options, ['shape', 'runCheck', 'gradPlacements']);
    const pieces = checkPieces(who, locals, mesh);
    const ps = checkPlacements(who, mesh, placements, pieces[0]!.ndim);
    const shape = globalShape(who, pieces, mesh, ps, o.shape);
    const gradPs = o.gradPlacements === undefined ? defaultGradPlacements(ps) : checkPlacements(who, mesh, o.gradPlacements, pieces[0]!.ndim, 'options.gradPlacements');
    const bad = gradPs.findIndex((p) => p.kind === 'partial' && p.reduceOp !== 'sum' && p.reduceOp !== 'mean');
    if (bad >= 0) throw new TypeError(`${who}: options.gradPlacements[${bad}] is ${gradPs[bad]}, which no gradient has; give tpu.Shard(dim), tpu.Replicate() or tpu.Partial('sum')`);
    checkGradLayout(who, pieces, mesh, shape, gradPs);
    if (o.runCheck !== undefined && typeof o.runCheck !== 'boolean') throw new TypeError(`${who}: options.runCheck must be a boolean; got ${describeValue(o.runCheck)}`);
    if (o.runCheck) checkReplicas(who, pieces, mesh, ps);
    return new DTensor(fromLocalPieces(pieces, mesh, ps, gradPs), mesh, ps, shape);
  }

  /** True when the pieces require grad (a leaf made by distributeTensor of a tensor that does, or computed from one). */
  get requiresGrad(): boolean {
    return this.#locals.some((t) => t.requiresGrad);
  }

  /** True unless computed from a DTensor that requires grad. */
  get isLeaf(): boolean {
    return this.#locals.every((t) => t.isLeaf);
  }

  /**
   * Marks a leaf's pieces as needing gradients; returns this.
   * @example tpu.distributeTensor(tpu.zeros([4]), mesh, [tpu.Shard(0)]).requiresGrad_().requiresGrad // true
   */
  requiresGrad_(on = true): DTensor {
    const why = on ? noLeafGradReason(this.placements) : null;
    if (why) throw new TypeError(`DTensor.requiresGrad_: this DTensor cannot require grad: ${why}`);
    this.#locals.forEach((t) => t.requiresGrad_(on));
    return this;
  }

  /**
   * The gradient of a leaf after backward(), a DTensor with the leaf's placements (PyTorch's); null before.
   * Only null can be assigned (zeroing, as PyTorch's set_to_none: a .grad the user holds keeps its values; the rest is disposed).
   * @example w.grad?.placements // the placements of w
   */
  get grad(): DTensor | null {
    const g = this._gradValue();
    if (g) g.#locals.forEach(noteGradHandedOut);
    return g;
  }

  /** The .grad, for runtime code (the optimizer's step): not handed out, so zeroing disposes it at once. */
  _gradValue(): DTensor | null {
    const from = gradStamps(this.#locals);
    const cached = this.#gradCache;
    if (cached && cached.from.every((g, k) => g === from[k]) && !cached.grad.#locals.some((t) => t.disposed)) return cached.grad;
    const pieces = leafGradPieces(this.#locals, this.mesh, this.placements, hasWholeGrads(this));
    this.#gradCache = pieces && { from, grad: new DTensor(pieces, this.mesh, this.placements, this.shape) };
    return this.#gradCache?.grad ?? null;
  }

  /**
   * Changes the gradient in place, chip by chip (tpu.nn.utils' clipping): `update` writes each piece of .grad (what a
   * held .grad sees); each chip's own gradient part is then rewritten to match, so a later backward adds to the new values.
   */
  _updateGrad_(update: (piece: Tensor, k: number) => void): void {
    const grad = this._gradValue();
    if (grad === null) return;
    noGrad(() => {
      grad.#locals.forEach(update);
      scope(() => gradPartsOf(grad.#locals, this.mesh, this.placements, hasWholeGrads(this)).forEach((part, k) => {
        const leaf = this.#locals[k]!;
        if (leaf._grad === part) return;
        if (leaf._grad) leaf._grad.copy_(part);
        else leaf._grad = keep(part);
      }));
    });
    // The parts now give the updated .grad: keep it rather than all-reduce them again.
    this.#gradCache = { from: gradStamps(this.#locals), grad };
  }

  set grad(value: DTensor | null) {
    if (value !== null) throw new TypeError(`DTensor.grad: only null can be assigned (to drop the gradients); got ${describeValue(value)}`);
    // The .grad built from the pieces' gradients (all-reduced along Replicate dims) goes with them, as a tensor's zeroGrad
    // disposes its .grad: unless the user was handed it (the .grad getter), which keeps its values (autograd/release-grad.ts).
    const own = this.#locals.map((t) => t._grad);
    const cached = this.#gradCache ? this.#gradCache.grad.#locals : [];
    cached.forEach((g, k) => g === own[k] || g.disposed || disposeUnlessHandedOut(g));
    this.#locals.forEach(releaseGrad);
    this.#gradCache = null;
  }

  /**
   * The same DTensor cut from the graph (requiresGrad false).
   * @example dt.detach().requiresGrad // false
   */
  detach(): DTensor {
    return new DTensor(this.#locals.map((t) => t.detach()), this.mesh, this.placements, this.shape);
  }

  /**
   * Backpropagates from the global value (its fullTensor()); `gradient`, a DTensor of the same shape or a tensor, is required unless it has one element.
   * @example w.matmul(x).sum().backward(); w.grad
   */
  backward(gradient?: DTensor | Tensor, options?: { retainGraph?: boolean }): void {
    const seed = gradient instanceof DTensor ? gradient.fullTensor() : gradient;
    this.fullTensor().backward(seed, options);
  }

  /**
   * The same global tensor laid out by other placements, moved by collectives (allGather, allReduce, reduceScatter, allToAll) or local slices.
   * @example dt.redistribute(mesh, [tpu.Replicate()])
   */
  redistribute(mesh: DeviceMesh, placements: readonly Placement[]): DTensor {
    const who = 'DTensor.redistribute';
    checkSameMesh(who, 'mesh', this.mesh, mesh);
    const to = checkPlacements(who, mesh, placements, this.ndim);
    // The steps' intermediates are freed; only the last pieces stay.
    return new DTensor(freeUnlessTracked(() => redistributeLocals(this.#locals, mesh, this.placements, to)), mesh, to, this.shape);
  }

  /**
   * The global tensor as a plain tensor on the mesh's first chip (DTensor.full_tensor).
   * @example await dt.fullTensor().array()
   */
  fullTensor(): Tensor {
    const replicated = this.redistribute(this.mesh, this.placements.map(() => Replicate()));
    const locals = replicated.localTensors();
    // The other chips' copies are not wanted (unless they are this DTensor's own, or backward may read them).
    locals.slice(1).forEach((t) => this.#locals.includes(t) || t.requiresGrad || t.dispose());
    return locals[0]!;
  }

  /** `{ alpha }` scales other (torch.add's alpha). @example dt.add(1); dt.add(other, { alpha: 2 }) */
  add(other: DTensor | number, options?: AlphaOptions): DTensor { return rules.binary('add', this, other, options); }
  /** @example dt.sub(other); dt.sub(other, { alpha: 0.5 }) */
  sub(other: DTensor | number, options?: AlphaOptions): DTensor { return rules.binary('sub', this, other, options); }
  /** @example dt.mul(2) */
  mul(other: DTensor | number): DTensor { return rules.binary('mul', this, other); }
  /** True division, or rounded with { roundingMode: 'trunc' | 'floor' } (then Partial is reduced first). @example dt.div(2); dt.div(2, { roundingMode: 'floor' }) */
  div(other: DTensor | number, options?: DivOptions): DTensor { return rules.binary('div', this, other, options); }
  /** @example dt.neg() */
  neg(): DTensor { return rules.unary('neg', this); }
  /** @example dt.relu() */
  relu(): DTensor { return rules.unary('relu', this); }
  /** @example dt.exp() */
  exp(): DTensor { return rules.unary('exp', this); }
  /** @example dt.tanh() */
  tanh(): DTensor { return rules.unary('tanh', this); }
  /** @example dt.gelu(); dt.gelu({ approximate: 'tanh' }) */
  gelu(options?: GeluOptions): DTensor { return rules.unary('gelu', this, options); }
  /** @example a.matmul(b) // [Shard(0)] x [Replicate()] -> [Shard(0)] */
  matmul(other: DTensor): DTensor { return rules.matmul(this, other); }
  /** @example dt.sum(0) // over a sharded dim: Partial('sum'); dt.sum(0, { dtype: 'bfloat16' }) casts first */
  sum(dim?: number | readonly number[] | SumOptions, keepdim?: boolean | Omit<SumOptions, 'dim'>): DTensor { return rules.reduce('sum', this, dim, keepdim); }
  /** @example dt.mean(0) // divides by the global size */
  mean(dim?: number | readonly number[] | SumOptions, keepdim?: boolean | Omit<SumOptions, 'dim'>): DTensor { return rules.reduce('mean', this, dim, keepdim); }
  /** @example dt.amax(0) // over a sharded dim: Partial('max') */
  amax(dim?: number | readonly number[] | ReduceOptions, keepdim?: boolean | KeepdimOptions): DTensor { return rules.reduce('amax', this, dim, keepdim); }
  /** @example dt.amin(0) // over a sharded dim: Partial('min') */
  amin(dim?: number | readonly number[] | ReduceOptions, keepdim?: boolean | KeepdimOptions): DTensor { return rules.reduce('amin', this, dim, keepdim); }
  /**
   * Product, over all dims or along one dim, as Tensor.prod (integer and bool products are int64); over a sharded dim
   * each chip's product is a part of Partial('product').
   * @example dt.prod(); dt.prod(0, true); dt.prod({ dim: 1 })
   */
  prod(dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): DTensor { return rules.productOrTruth('prod', this, dim, keepdim); }
  /**
   * True where every element is nonzero (bool), over all dims or along dim, as Tensor.all; over a sharded dim each
   * chip's answer is a part of Partial('product'), for bools a logical and.
   * @example dt.all(); dt.all(1, true)
   */
  all(dim?: number | readonly number[] | ReduceOptions, keepdim?: boolean | KeepdimOptions): DTensor { return rules.productOrTruth('all', this, dim, keepdim); }
  /**
   * True where any element is nonzero (bool), as Tensor.any; over a sharded dim each chip's answer is a part of
   * Partial('sum'), for bools a logical or.
   * @example dt.any(); dt.any([0, 1], true)
   */
  any(dim?: number | readonly number[] | ReduceOptions, keepdim?: boolean | KeepdimOptions): DTensor { return rules.productOrTruth('any', this, dim, keepdim); }
  /**
   * Vector p-norm (2 by default) over all dims or along dim, as Tensor.norm; over a sharded dim each chip's norm is a part of
   * _NormPartial(p) (PyTorch's; Partial('max') for Infinity), reduced when read.
   * @example dt.norm(); dt.norm(1, 0); dt.norm(2, { dim: 1, keepdim: true })
   */
  norm(p?: number | 'fro' | NormOptions, dim?: number | readonly number[] | Omit<NormOptions, 'p'>, keepdim?: boolean | KeepdimOptions): DTensor { return rules.norm(this, p, dim, keepdim); }
  /**
   * The largest value (over sharded dims: Partial('max')), or (values, indices) along dim, as
   * Tensor.max (a sharded dim is gathered first, as PyTorch's DTensor does).
   * @example dt.max(); const { values, indices } = dt.max(1, { keepdim: true })
   */
  max(): DTensor;
  max(dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices<DTensor>;
  max(dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): DTensor | ValuesIndices<DTensor> { return rules.extremum('max', this, dim, keepdim); }
  /** The smallest value (Partial('min') over sharded dims), or (values, indices) along dim. @example dt.min(); dt.min(0).indices */
  min(): DTensor;
  min(dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices<DTensor>;
  min(dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): DTensor | ValuesIndices<DTensor> { return rules.extremum('min', this, dim, keepdim); }
  /** Index of the maximum (int64), flattened or along dim (a sharded dim is gathered first). @example dt.argmax(1) */
  argmax(dim?: number | ArgOptions, keepdim?: boolean | KeepdimOptions): DTensor { return rules.argExtremum('argmax', this, dim, keepdim); }
  /** Index of the minimum. @example dt.argmin(0, true) */
  argmin(dim?: number | ArgOptions, keepdim?: boolean | KeepdimOptions): DTensor { return rules.argExtremum('argmin', this, dim, keepdim); }
  /** Variance, unbiased unless { correction: 0 } or unbiased false, as Tensor.var (a sharded dim is gathered first). @example dt.var(1, { correction: 0 }) */
  var(dim?: number | readonly number[] | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): DTensor { return rules.spread('var', this, dim, unbiased, keepdim); }
  /** Standard deviation, as Tensor.std. @example dt.std(); dt.std(0, false, true) */
  std(dim?: number | readonly number[] | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): DTensor { return rules.spread('std', this, dim, unbiased, keepdim); }
  /** `{ dtype }` casts the input first, as Tensor.softmax. @example dt.softmax(-1); dt.softmax(1, { dtype: 'bfloat16' }) */
  softmax(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): DTensor { return rules.alongDim('softmax', this, dim, options); }
  /** @example dt.logSoftmax(-1); dt.logSoftmax(1, { dtype: 'float32' }) */
  logSoftmax(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): DTensor { return rules.alongDim('logSoftmax', this, dim, options); }
  /** Running sum (over a sharded dim: gathered to Replicate()). @example dt.cumsum(1); dt.cumsum(1, { dtype: 'float32' }) */
  cumsum(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): DTensor { return rules.alongDim('cumsum', this, dim, options); }
  /** Running product (over a sharded dim: gathered to Replicate()). @example dt.cumprod(1) */
  cumprod(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): DTensor { return rules.alongDim('cumprod', this, dim, options); }
  /** @example dt.transpose(0, 1) // Shard(0) becomes Shard(1) */
  transpose(dim0: number, dim1: number): DTensor { return rules.transpose(this, dim0, dim1); }
  /** @example dt.permute(1, 0) // Shard(0) becomes Shard(1) */
  permute(...dims: IntArgs): DTensor { return rules.permute(this, readPermutation('DTensor.permute', dims, this.shape)); }
  /** Cast to other's dtype (placements kept, a Partial reduced first, as to()). @example dt.typeAs(other) */
  typeAs(other: DTensor): DTensor { return this.to(otherArg('DTensor.typeAs', other).dtype); }
  /** dt.expand(other.shape). @example dt.expandAs(other) */
  expandAs(other: DTensor): DTensor { return this.expand(otherArg('DTensor.expandAs', other).shape); }
  /** The same values in another shape, a shard kept where PyTorch's DTensor keeps it (view-rules.ts). @example dt.reshape(-1) // Shard(0) of [8, 3] stays Shard(0) on 4 chips */
  reshape(...shape: IntArgs): DTensor { return views.reshapeRule(this, resolveReshape('DTensor.reshape', this.shape, intArgs('DTensor.reshape', shape, 'shape', -1))); }
  /** As reshape (view-rules.ts). @example dt.view(2, -1) */
  view(...shape: IntArgs): DTensor { return views.reshapeRule(this, resolveReshape('DTensor.view', this.shape, intArgs('DTensor.view', shape, 'shape', -1))); }
  /** length entries of dim from start; the other dims' shards kept, a sharded dim gathered first (view-rules.ts). @example dt.narrow(1, 0, 2) */
  narrow(dim: number, start: number, length: number): DTensor { return views.narrowRule(this, dim, start, length); }
  /** dt.reshape(other.shape). @example dt.reshapeAs(other) */
  reshapeAs(other: DTensor): DTensor { return this.reshape(otherArg('DTensor.reshapeAs', other).shape); }
  /** dt.view(other.shape). @example dt.viewAs(other) */
  viewAs(other: DTensor): DTensor { return this.view(otherArg('DTensor.viewAs', other).shape); }
  /** Matrix product of two 2-d DTensors, by matmul's rule. @example a.mm(b) */
  mm(mat2: DTensor): DTensor { return rules.mm(this, mat2); }
  /** All dims reversed. @example dt.T */
  get T(): DTensor { return rules.permute(this, Array.from({ length: this.ndim }, (_, i) => this.ndim - 1 - i)); }

  /**
   * Frees every chip's piece now (idempotent).
   * @example dt.dispose()
   */
  dispose(): void {
    this.#locals.forEach((t) => t.dispose());
  }

  /** Shape, dtype, mesh and placements (no values: not a sync point). */
  toString(): string {
    return `DTensor(${formatShape(this.shape)} ${this.dtype}, ${this.mesh}, ${formatPlacements(this.placements)})`;
  }

  [Symbol.for('Jupyter.display')](): Record<string, string> {
    const pieces = this.#locals.map((t) => `  ${t.device}: ${formatShape(t.shape)}`);
    return { 'text/plain': [this.toString(), ...pieces].join('\n') };
  }

  /** Its pieces and layout, so tpu.scope keeps a returned DTensor whole and tpu.compile takes DTensors as arguments and results. */
  [TENSOR_PARTS](): TensorParts {
    return {
      tensors: this.#locals,
      key: `DTensor(${formatShape(this.shape)}, ${this.mesh} on chips ${this.mesh.chips.join()}, ${formatPlacements(this.placements)})`,
      rebuild: (locals) => new DTensor(locals, this.mesh, this.placements, this.shape),
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/** What the pieces' gradients are now: the tensors, and their versions, buffers and pending values (backward replaces them; in-place updates and compiled replays change them). */
function gradStamps(locals: readonly Tensor[]): unknown[] {
  return locals.flatMap((t) => (t._grad ? [t._grad, t._grad._version, t._grad._buf, t._grad._node] : [null]));
}

/** The DTensor whose dtype or shape an op takes (typeAs, reshapeAs, ...). */
function otherArg(who: string, other: unknown): DTensor {
  if (!(other instanceof DTensor)) throw new TypeError(`${who}: other must be a DTensor; got ${describeValue(other)}`);
  return other;
}

export function checkMeshArg(who: string, arg: string, mesh: unknown): DeviceMesh {
  if (!(mesh instanceof DeviceMesh)) throw new TypeError(`${who}: ${arg} must be a DeviceMesh (tpu.initDeviceMesh); got ${describeValue(mesh)}`);
  if (mesh.axis !== null) throw new RangeError(`${who}: ${arg} must be a whole mesh (tpu.initDeviceMesh), not a view along axis '${mesh.axis}'; give one placement per mesh dimension instead`);
  return mesh;
}

export function checkSameMesh(who: string, arg: string, mesh: DeviceMesh, other: unknown): void {
  const m = checkMeshArg(who, arg, other);
  if (!shapesEqual(m.shape, mesh.shape) || m.names.join() !== mesh.names.join()) throw new RangeError(`${who}: ${arg} is ${m}, but the DTensor lives on ${mesh}`);
}

/** One placement per mesh dimension; Shard dims resolved against the tensor's rank (negative ones count from the end). */
export function checkPlacements(who: string, mesh: DeviceMesh, placements: unknown, ndim: number, arg = 'placements'): Placement[] {
  if (!Array.isArray(placements)) throw new TypeError(`${who}: ${arg} must be an array with one placement per mesh dimension (like [tpu.Shard(0)]); got ${describeValue(placements)}`);
  if (placements.length !== mesh.ndim) throw new RangeError(`${who}: ${arg} must hold ${mesh.ndim} placement${mesh.ndim === 1 ? '' : 's'} (one per dimension of ${mesh}); got ${placements.length}`);
  return placements.map((p: unknown, i) => {
    if (!isPlacement(p)) throw new TypeError(`${who}: ${arg}[${i}] must be tpu.Shard(dim), tpu.Replicate() or tpu.Partial(op); got ${describeValue(p)}`);
    if (p.kind !== 'shard') return p;
    if (ndim === 0) throw new RangeError(`${who}: ${arg}[${i}] is ${p}, but a 0-d tensor has no dim to shard`);
    return new ShardPlacement(normalizeDim(who, p.dim, ndim, `${arg}[${i}] Shard dim`));
  });
}

/**
 * Splits `x` over the mesh's chips as the placements say (torch.distributed.tensor.distribute_tensor):
 * one placement per mesh dimension; Shard pieces have torch.chunk's sizes; Partial('sum') parts are x / n.
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips], { names: ['dp'] });
 * tpu.distributeTensor(tpu.randn([10, 8]), mesh, [tpu.Shard(0)]).shape // [10, 8]
 * // on 4 chips its localTensors() have 3, 3, 3 and 1 rows; on a [2, 2] mesh, [tpu.Shard(0), tpu.Shard(1)] gives [5, 4] pieces
 */
export function distributeTensor(x: Tensor, mesh: DeviceMesh, placements: readonly Placement[]): DTensor {
  const who = 'tpu.distributeTensor';
  if (!(x instanceof Tensor)) throw new TypeError(`${who}: x must be a tensor; got ${describeValue(x)}`);
  if (x.disposed) throw new ReferenceError(`${who}: x is a disposed tensor ${x.describe()}`);
  checkMeshArg(who, 'mesh', mesh);
  const ps = checkPlacements(who, mesh, placements, x.ndim);
  if (x.requiresGrad && !x.isLeaf) throw new TypeError(`${who}: x must be a leaf tensor (as in PyTorch): it was computed from tensors that require grad; distribute the leaf, or x.detach()`);
  const why = x.requiresGrad ? noLeafGradReason(ps) : null;
  if (why) throw new TypeError(`${who}: x requires grad, but ${why.replace('its placements hold', 'placements hold')}`);
  const sumParts = ps.reduce((n, p, i) => n * partitionDivisor(who, p, mesh.shape[i]!), 1);
  if (sumParts !== 1 && !isFloating(x.dtype)) throw new TypeError(`${who}: Partial('sum') parts of a ${x.dtype} tensor would be x / n; give a floating tensor`);
  // The slices copied to other chips (and x / n) are freed at once: only the pieces stay. As in
  // PyTorch, the pieces of a tensor that requires grad are the leaves of a new DTensor.
  const locals = noGrad(() => freeUnlessTracked(() => {
    const whole = sumParts !== 1 ? x.div(sumParts) : x;
    return mesh.chips.map((chip, k) => {
      const { start, size } = localBox(x.shape, mesh, ps, k);
      const piece = start.reduce((t, s, d) => (size[d] === x.shape[d] ? t : t.narrow(d, s, size[d]!)), whole);
      const moved = piece.toChip(chip);
      // A piece left on x's chip is a view of x: copied, so that the DTensor's in-place ops leave
      // x alone, as PyTorch's scatter copies (x itself, a Replicate piece, shares its storage, as
      // PyTorch's in-place broadcast does).
      return moved === piece && piece !== whole ? piece.clone() : moved;
    });
  }));
  const dt = new DTensor(locals.map((t) => (t === x ? t.detach() : t)), mesh, ps, [...x.shape]);
  return x.requiresGrad ? dt.requiresGrad_() : dt;
}
