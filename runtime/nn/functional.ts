// Composed functions of tpu.nn (plain TypeScript over primitives: gradients and fusion
// come for free). Losses follow PyTorch's definitions and default reduction 'mean'.
import { formatShape, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { INT32_INDEX_HINT } from '../ops/gather-scatter.js';

export type Reduction = 'mean' | 'sum' | 'none';

function reduce(loss: Tensor, reduction: Reduction | undefined, who: string): Tensor {
  const r = reduction ?? 'mean';
  if (r === 'mean') return loss.mean();
  if (r === 'sum') return loss.sum();
  if (r === 'none') return loss;
  throw new RangeError(`${who}: reduction must be 'mean', 'sum' or 'none'; got ${JSON.stringify(reduction)}`);
}

function checkTensor(who: string, arg: string, v: unknown): Tensor {
  if (!(v instanceof Tensor)) throw new TypeError(`${who}: ${arg} must be a tensor; got ${v === null ? 'null' : typeof v}`);
  return v;
}

function sameShape(who: string, input: Tensor, target: Tensor): void {
  if (!shapesEqual(input.shape, target.shape)) {
    throw new RangeError(`${who}: input ${formatShape(input.shape)} and target ${formatShape(target.shape)} must have the same shape`);
  }
}

export interface LossOptions {
  reduction?: Reduction;
}

/**
 * Cross entropy of logits [N, C] against int32 class indices [N] (PyTorch's
 * F.cross_entropy): mean over the batch of -log softmax(logits)[target].
 */
export function crossEntropy(logits: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  const who = 'crossEntropy';
  checkTensor(who, 'input', logits);
  checkTensor(who, 'target', target);
  if (logits.ndim !== 2) throw new RangeError(`${who}: input must be logits of shape [N, C]; got ${formatShape(logits.shape)}`);
  if (target.dtype !== 'int32') throw new TypeError(`${who}: target must hold int32 class indices; got ${target.dtype} ${INT32_INDEX_HINT}`);
  if (target.ndim !== 1 || target.shape[0] !== logits.shape[0]) {
    throw new RangeError(`${who}: target must have shape [${logits.shape[0]}] (one class index per row of input ${formatShape(logits.shape)}); got ${formatShape(target.shape)}`);
  }
  const picked = logits.logSoftmax(1).gather(1, target.reshape([target.shape[0]!, 1])).reshape([target.shape[0]!]);
  return reduce(picked.neg(), options.reduction, who);
}

/** Mean squared error (F.mse_loss). */
export function mseLoss(input: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  checkTensor('mseLoss', 'input', input);
  checkTensor('mseLoss', 'target', target);
  sameShape('mseLoss', input, target);
  const d = input.sub(target);
  return reduce(d.mul(d), options.reduction, 'mseLoss');
}

/**
 * Binary cross entropy of probabilities in (0, 1) (F.binary_cross_entropy). Like PyTorch,
 * each log term is clamped at -100 so p = 0 or 1 gives a finite loss.
 */
export function binaryCrossEntropy(input: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  checkTensor('binaryCrossEntropy', 'input', input);
  checkTensor('binaryCrossEntropy', 'target', target);
  sameShape('binaryCrossEntropy', input, target);
  const clampedLog = (p: Tensor) => p.log().add(100).relu().sub(100);
  const loss = target.mul(clampedLog(input)).add(target.neg().add(1).mul(clampedLog(input.neg().add(1))));
  return reduce(loss.neg(), options.reduction, 'binaryCrossEntropy');
}

/** Binary cross entropy of logits, stable for any x: max(x,0) - x*t + log(1 + exp(-|x|)). */
export function binaryCrossEntropyWithLogits(input: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  checkTensor('binaryCrossEntropyWithLogits', 'input', input);
  checkTensor('binaryCrossEntropyWithLogits', 'target', target);
  sameShape('binaryCrossEntropyWithLogits', input, target);
  const loss = input.relu().sub(input.mul(target)).add(input.abs().neg().exp().add(1).log());
  return reduce(loss, options.reduction, 'binaryCrossEntropyWithLogits');
}
