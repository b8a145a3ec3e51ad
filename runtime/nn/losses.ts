// Composed functions of tpu.nn (plain TypeScript over primitives: gradients and fusion
// come for free). Losses follow PyTorch's definitions and default reduction 'mean'. Each is
// one composed op (composite.ts): debug mode checks the loss, not its intermediates (the
// log of a 0 probability, a -inf logit's log-probability).
import { broadcastShapes, formatShape, shapesEqual } from '../shape.js';
import { isFloating, isInteger } from '../dtype.js';
import { readOptions } from '../options.js';
import { where } from '../ops/where.js';
import { checkHostIndices, hostIndicesWithout } from '../host-known-indices.js';
import { Tensor } from '../tensor.js';
import { gatherChecked, INT32_INDEX_HINT } from '../ops/gather-scatter.js';
import { composite } from '../modes/composite.js';
import { untracked } from '../views/view-tracking.js';
import { sharingVersion } from '../autograd/past-values.js';
import { specialized } from '../jit/live-number.js';

export type Reduction = 'mean' | 'sum' | 'none';

export function reduce(loss: Tensor, reduction: Reduction | undefined, who: string): Tensor {
  const r = reduction ?? 'mean';
  if (r === 'mean') return loss.mean();
  if (r === 'sum') return loss.sum();
  if (r === 'none') return loss;
  throw new RangeError(`${who}: reduction must be 'mean', 'sum' or 'none'; got ${JSON.stringify(reduction)}`);
}

export function checkTensor(who: string, arg: string, v: unknown): Tensor {
  if (!(v instanceof Tensor)) throw new TypeError(`${who}: ${arg} must be a tensor; got ${v === null ? 'null' : typeof v}`);
  return v;
}

export function sameShape(who: string, input: Tensor, target: Tensor): void {
  if (!shapesEqual(input.shape, target.shape)) {
    throw new RangeError(`${who}: input ${formatShape(input.shape)} and target ${formatShape(target.shape)} must have the same shape`);
  }
}

export interface LossOptions {
  reduction?: Reduction;
}

export interface CrossEntropyOptions extends LossOptions {
  /** A rescaling weight per class, shape [C]. */
  weight?: Tensor | null;
  /** Targets equal to this class index contribute nothing (PyTorch's default -100). */
  ignoreIndex?: number;
  /** ε in [0, 1]: the target becomes (1 - ε)·onehot + ε/C. */
  labelSmoothing?: number;
}

/**
 * PyTorch's F.cross_entropy: logits [N, C] or [N, C, d...] (or [C]) against int32 class
 * indices [N, d...] or class probabilities of the input's shape.
  * @example tpu.nn.crossEntropy(tpu.zeros([1, 4]), tpu.tensor(new Int32Array([2]))) // 1.386294
 */
export function crossEntropy(input: Tensor, target: Tensor, options: CrossEntropyOptions = {}): Tensor {
  const who = 'crossEntropy';
  const o = readOptions<CrossEntropyOptions>(who, options, ['reduction', 'weight', 'ignoreIndex', 'labelSmoothing']);
  checkTensor(who, 'input', input);
  checkTensor(who, 'target', target);
  if (input.ndim < 1 || !isFloating(input.dtype)) throw new TypeError(`${who}: input must be floating-point logits [N, C], [N, C, d...] or [C]; got ${input.describe()}`);
  const classes = input.ndim === 1 ? input.shape[0]! : input.shape[1]!;
  const eps = specialized(o.labelSmoothing ?? 0);
  if (typeof eps !== 'number' || !(eps >= 0 && eps <= 1)) throw new RangeError(`${who}: labelSmoothing must be a number in [0, 1]; got ${JSON.stringify(eps)}`);
  const { ignore, weight } = classOptions(who, o, classes);
  // Its reshapes are the runtime's own, never views to the user (nor are PyTorch's): tracked,
  // each call listed one more view on the target, which a training loop keeps for good, and
  // every 64 of them cost a full garbage collection.
  // Bound, not a closure per call: V8 drops a closure's optimized code at each full collection
  // once no closure of it lives (docs/runtime.md, W6).
  return composite(who, untrackedCrossEntropy.bind(null, input, target, o, classes, eps, ignore, weight));
}

function untrackedCrossEntropy(...args: Parameters<typeof crossEntropyOf>): Tensor {
  return untracked(crossEntropyOf.bind(null, ...args));
}

/** Classes on the last dim, one row per sample: [N * d..., C] (logits [N, C] as they are: no ops). */
function classesLast(t: Tensor, classes: number): Tensor {
  if (t.ndim === 2) return t;
  return (t.ndim === 1 ? t : t.movedim(1, -1)).reshape([-1, classes]);
}

/** The batch shape of logits [N, C, d...] ([N, d...]) or [C] ([]). */
function batchShapeOf(input: Tensor): number[] {
  return input.ndim === 1 ? [] : [input.shape[0]!, ...input.shape.slice(2)];
}

function crossEntropyOf(input: Tensor, target: Tensor, o: CrossEntropyOptions, classes: number, eps: number, ignore: number, weight: Tensor | null): Tensor {
  const who = 'crossEntropy';
  const logp = classesLast(input.logSoftmax(input.ndim === 1 ? 0 : 1), classes);
  if (!isFloating(target.dtype)) return classIndexLoss(who, logp, input, target, o.reduction, eps, ignore, weight);
  // class probabilities: -Σ_c w_c·t_c·log p_c per sample; 'mean' divides by the sample count
  const batchShape = batchShapeOf(input);
  if (!shapesEqual(target.shape, input.shape) && shapesEqual(target.shape, batchShape)) {
    throw new TypeError(`${who}: target must hold int32 class indices; got ${target.dtype} ${INT32_INDEX_HINT}`);
  }
  if (!shapesEqual(target.shape, input.shape)) throw new RangeError(`${who}: probability targets must have the input's shape ${formatShape(input.shape)}; got ${formatShape(target.shape)}`);
  const probs = targetView(classesLast(target, classes), target);
  const t = eps === 0 ? probs : probs.mul(1 - eps).add(eps / classes);
  const loss = t.mul(weight === null ? logp : logp.mul(weight)).sum(-1).neg();
  return reduce(loss.reshape(batchShape), o.reduction, who);
}

/**
 * A view of the target shares its version counter (as PyTorch's): backward refuses a value
 * it saved from the target once the target was written in place.
 */
function targetView(view: Tensor, target: Tensor): Tensor {
  return view === target ? view : sharingVersion(view, target);
}

/**
 * -w_t·log p_t per sample (PyTorch's nll_loss), logp [samples, C] of input (logits or
 * log-probabilities [N, C, d...] or [C]) against integer class indices; label smoothing ε
 * mixes in -Σ_c w_c·log p_c / C.
 */
function classIndexLoss(who: string, logp: Tensor, input: Tensor, target: Tensor, reduction: Reduction | undefined, eps: number, ignore: number, weight: Tensor | null): Tensor {
  const classes = logp.shape[1]!;
  const batchShape = batchShapeOf(input);
  if (!isInteger(target.dtype)) throw new TypeError(`${who}: target must hold int32 or int64 class indices; got ${target.dtype} ${INT32_INDEX_HINT}`);
  if (!shapesEqual(target.shape, batchShape)) {
    throw new RangeError(`${who}: target must have shape ${formatShape(batchShape)} (one class index per sample of input ${formatShape(input.shape)}); got ${formatShape(target.shape)}`);
  }
  // Checked here, the labels cannot fail the gather on the device (ignored ones read class 0).
  const inRange = checkHostIndices(who, 'target', target, classes, false, ignore);
  const t = targetView(target.ndim === 1 ? target : target.reshape([-1]), target);
  const r = reduction ?? 'mean';
  // Labels known on the host, none of them ignored (a training batch): every sample counts,
  // so the selections by `keep` and the count are left out. The same bits (each left-out op
  // multiplied by 1, selected the value or divided by the sample count), ~10 fewer ops
  // recorded, differentiated and run a step (W6 fused: its program 73 -> 63 nodes).
  if (inRange && weight === null && eps === 0 && (r === 'mean' || r === 'sum' || r === 'none') && hostIndicesWithout(target, ignore)) {
    const nll = gatherChecked(logp, 1, t.unsqueeze(1), true).squeeze(1).neg();
    return r === 'none' ? nll.reshape(batchShape) : r === 'sum' ? nll.sum() : nll.sum().div(t.shape[0]!);
  }
  const keep = t.ne(ignore);
  // an ignored target may be any value: it reads class 0 and is multiplied by 0
  const safe = where(keep, t, 0);
  const kept = keep.to(logp.dtype);
  const sampleWeight = weight === null ? kept : weight.indexSelect(0, safe).mul(kept);
  // an ignored sample's terms are 0 by selection: times 0, a -inf log-probability would be NaN
  // (so without class weights, a kept sample's weight 1 needs no product)
  const picked = gatherChecked(logp, 1, safe.unsqueeze(1), inRange).squeeze(1);
  const nll = where(keep, (weight === null ? picked : picked.mul(sampleWeight)).neg(), 0);
  const smooth = eps === 0 ? null : where(keep, (weight === null ? logp : logp.mul(weight)).sum(-1).neg(), 0);
  const combine = (a: Tensor, b: Tensor | null) => (b === null ? a : a.mul(1 - eps).add(b.mul(eps / classes)));
  if (r === 'none') return combine(nll, smooth).reshape(batchShape);
  if (r === 'sum') return combine(nll.sum(), smooth?.sum() ?? null);
  if (r === 'mean') {
    const total = sampleWeight.sum();
    return combine(nll.sum().div(total), smooth?.sum().div(total) ?? null);
  }
  return reduce(nll, r, who); // names the bad reduction
}

export interface NllLossOptions extends LossOptions {
  /** A rescaling weight per class, shape [C]. */
  weight?: Tensor | null;
  /** Targets equal to this class index contribute nothing (PyTorch's default -100). */
  ignoreIndex?: number;
}

/**
 * PyTorch's F.nll_loss: -weight[t]·input[t] per sample, of log-probabilities [N, C],
 * [N, C, d...] or [C] against int32 or int64 class indices [N, d...] ('mean' divides by the
 * kept samples' total weight).
 * @example tpu.nn.nllLoss(tpu.tensor([[-1, -2]]), tpu.tensor(new Int32Array([1]))) // 2
 */
export function nllLoss(input: Tensor, target: Tensor, options: NllLossOptions = {}): Tensor {
  const who = 'nllLoss';
  const o = readOptions<NllLossOptions>(who, options, ['reduction', 'weight', 'ignoreIndex']);
  checkTensor(who, 'input', input);
  checkTensor(who, 'target', target);
  if (input.ndim < 1 || !isFloating(input.dtype)) throw new TypeError(`${who}: input must be floating-point log-probabilities [N, C], [N, C, d...] or [C]; got ${input.describe()}`);
  const classes = input.ndim === 1 ? input.shape[0]! : input.shape[1]!;
  const { ignore, weight } = classOptions(who, o, classes);
  // bound, not closures, as crossEntropy's
  return composite(who, untrackedNllLoss.bind(null, input, target, o.reduction, classes, ignore, weight));
}

function untrackedNllLoss(...args: Parameters<typeof nllLossOf>): Tensor {
  return untracked(nllLossOf.bind(null, ...args));
}

function nllLossOf(input: Tensor, target: Tensor, reduction: Reduction | undefined, classes: number, ignore: number, weight: Tensor | null): Tensor {
  return classIndexLoss('nllLoss', classesLast(input, classes), input, target, reduction, 0, ignore, weight);
}

/** ignoreIndex (an integer, default -100) and weight (null or [classes]) of crossEntropy and nllLoss, checked. */
function classOptions(who: string, o: NllLossOptions, classes: number): { ignore: number; weight: Tensor | null } {
  const ignore = specialized(o.ignoreIndex ?? -100);
  if (!Number.isInteger(ignore)) throw new TypeError(`${who}: ignoreIndex must be an integer; got ${JSON.stringify(ignore)}`);
  const weight = o.weight ?? null;
  if (weight !== null && (!(weight instanceof Tensor) || weight.ndim !== 1 || weight.shape[0] !== classes)) {
    throw new RangeError(`${who}: weight must be a tensor of shape [${classes}] (one weight per class); got ${weight instanceof Tensor ? formatShape(weight.shape) : typeof weight}`);
  }
  return { ignore, weight };
}

/**
 * Mean squared error (F.mse_loss).
 * @example tpu.nn.mseLoss(tpu.tensor([1, 2]), tpu.tensor([1, 4])) // 2
 */
export function mseLoss(input: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  readOptions<LossOptions>('mseLoss', options, ['reduction']);
  checkTensor('mseLoss', 'input', input);
  checkTensor('mseLoss', 'target', target);
  sameShape('mseLoss', input, target);
  return composite('mseLoss', () => {
    const d = input.sub(target);
    return reduce(d.mul(d), options.reduction, 'mseLoss');
  });
}

export interface BinaryCrossEntropyOptions extends LossOptions {
  /** A rescaling weight of each element, broadcast to the input's shape (PyTorch's weight). */
  weight?: Tensor | null;
}

export interface BinaryCrossEntropyWithLogitsOptions extends BinaryCrossEntropyOptions {
  /** The positive examples' weight, broadcast to the input's shape: one per class, [C] against [N, C] (PyTorch's pos_weight). */
  posWeight?: Tensor | null;
}

/** An optional tensor option of a loss that scales its elements: null when absent, else one that broadcasts to the input's shape. */
function elementWeight(who: string, name: string, v: unknown, input: Tensor): Tensor | null {
  if (v === undefined || v === null) return null;
  const w = checkTensor(who, name, v);
  const shape = broadcastShapes(who, w.shape, input.shape, [name, 'input']);
  if (!shapesEqual(shape, input.shape)) {
    throw new RangeError(`${who}: ${name} ${formatShape(w.shape)} must broadcast to the input's shape ${formatShape(input.shape)}`);
  }
  return w;
}

/**
 * Binary cross entropy of probabilities in (0, 1) (F.binary_cross_entropy), each element
 * scaled by `weight` when given. Like PyTorch, each log term is clamped at -100 so p = 0 or 1
 * gives a finite loss.
  * @example tpu.nn.binaryCrossEntropy(tpu.tensor([0.5]), tpu.tensor([1])) // 0.6931
 */
export function binaryCrossEntropy(input: Tensor, target: Tensor, options: BinaryCrossEntropyOptions = {}): Tensor {
  const who = 'binaryCrossEntropy';
  const o = readOptions<BinaryCrossEntropyOptions>(who, options, ['reduction', 'weight']);
  checkTensor(who, 'input', input);
  checkTensor(who, 'target', target);
  sameShape(who, input, target);
  const weight = elementWeight(who, 'weight', o.weight, input);
  return composite(who, () => {
    // PyTorch's form, (t - 1)·max(log(1 - p), -100) - t·max(log p, -100), down to the sign of a zero loss
    const clampedLog = (p: Tensor) => p.log().maximum(-100);
    const loss = target.sub(1).mul(clampedLog(input.neg().add(1))).sub(target.mul(clampedLog(input)));
    return reduce(weight ? loss.mul(weight) : loss, o.reduction, who);
  });
}

/**
 * Binary cross entropy of logits, stable for any x, in PyTorch's form
 * (1 - t)·x + m + log(exp(-m) + exp(-x - m)) with m = max(-x, 0): the same at ±inf too
 * (inf at x = inf, NaN at x = -inf for a target in (0, 1)). With `posWeight` p the log term
 * is scaled by 1 + (p - 1)·t, with `weight` the whole loss, as PyTorch's.
 * @example tpu.nn.binaryCrossEntropyWithLogits(tpu.tensor([0]), tpu.tensor([1])) // 0.693147
 */
export function binaryCrossEntropyWithLogits(input: Tensor, target: Tensor, options: BinaryCrossEntropyWithLogitsOptions = {}): Tensor {
  const who = 'binaryCrossEntropyWithLogits';
  const o = readOptions<BinaryCrossEntropyWithLogitsOptions>(who, options, ['reduction', 'weight', 'posWeight']);
  checkTensor(who, 'input', input);
  checkTensor(who, 'target', target);
  sameShape(who, input, target);
  const weight = elementWeight(who, 'weight', o.weight, input);
  const posWeight = elementWeight(who, 'posWeight', o.posWeight, input);
  return composite(who, () => {
    const m = input.neg().relu();
    const logTerm = m.neg().exp().add(input.neg().sub(m).exp()).log();
    const linear = target.neg().add(1).mul(input);
    const loss = posWeight
      ? linear.add(posWeight.sub(1).mul(target).add(1).mul(logTerm.add(m)))
      : linear.add(m).add(logTerm);
    return reduce(weight ? loss.mul(weight) : loss, o.reduction, who);
  });
}
