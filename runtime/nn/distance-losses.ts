// Losses of the elementwise difference input - target (F.l1_loss, F.smooth_l1_loss,
// F.huber_loss), composed in PyTorch's forms: where PyTorch's backward kernel compares
// (|d| against beta or delta) this selects the same way, so the gradients at the kinks are
// PyTorch's. Each is one composed op (composite.ts).
import { readOptions } from '../options.js';
import type { Tensor } from '../tensor.js';
import { composite } from '../modes/composite.js';
import { where } from '../ops/where.js';
import { within } from '../ops/nn/piecewise-activations.js';
import { numberOption } from '../ops/nn/number-option.js';
import { checkTensor, reduce, sameShape, type LossOptions } from './losses.js';

function checkPair(who: string, input: Tensor, target: Tensor): void {
  checkTensor(who, 'input', input);
  checkTensor(who, 'target', target);
  sameShape(who, input, target);
}

/**
 * Mean absolute error (F.l1_loss); the gradient at input = target is 0.
 * @example tpu.nn.l1Loss(tpu.tensor([1, 2]), tpu.tensor([1, 4])) // 1
 */
export function l1Loss(input: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  const o = readOptions<LossOptions>('l1Loss', options, ['reduction']);
  checkPair('l1Loss', input, target);
  return composite('l1Loss', () => reduce(input.sub(target).abs(), o.reduction, 'l1Loss'));
}

/**
 * 0.5·d²/k where |d| < k, else |d| - k/2 (`scale` 1/k) or k·(|d| - k/2) (`scale` k): smooth L1
 * and Huber; the gradient at |d| = k is the linear part's.
 */
function quadraticNearZero(input: Tensor, target: Tensor, k: number, linearScale: number, quadraticDivisor: number): Tensor {
  const d = input.sub(target);
  const z = d.abs();
  const near = z.lt(k);
  const q = within(near, d);
  const quadratic = q.mul(0.5).mul(q);
  const linear = z.sub(0.5 * k);
  return where(near, quadraticDivisor === 1 ? quadratic : quadratic.div(quadraticDivisor), linearScale === 1 ? linear : linear.mul(linearScale));
}

export interface SmoothL1LossOptions extends LossOptions {
  /** Where the loss turns from quadratic to linear (default 1; 0 is l1Loss). */
  beta?: number;
}

/**
 * 0.5·d²/beta where |d| < beta, else |d| - beta/2, d = input - target (F.smooth_l1_loss).
 * @example tpu.nn.smoothL1Loss(tpu.tensor([0, 0]), tpu.tensor([0.5, 3])) // 1.3125
 */
export function smoothL1Loss(input: Tensor, target: Tensor, options: SmoothL1LossOptions = {}): Tensor {
  const who = 'smoothL1Loss';
  const o = readOptions<SmoothL1LossOptions>(who, options, ['reduction', 'beta']);
  const beta = numberOption(who, 'beta', o.beta, 1);
  if (beta < 0) throw new RangeError(`${who}: beta must be 0 or more (PyTorch's smooth_l1_loss takes no negative beta); got ${beta}`);
  if (beta === 0) return l1Loss(input, target, { reduction: o.reduction }); // as PyTorch's
  checkPair(who, input, target);
  return composite(who, () => reduce(quadraticNearZero(input, target, beta, 1, beta), o.reduction, who));
}

export interface HuberLossOptions extends LossOptions {
  /** Where the loss turns from quadratic to linear (default 1, more than 0). */
  delta?: number;
}

/**
 * 0.5·d² where |d| < delta, else delta·(|d| - delta/2), d = input - target (F.huber_loss).
 * @example tpu.nn.huberLoss(tpu.tensor([0, 0]), tpu.tensor([0.5, 3]), { delta: 2 }) // 2.0625
 */
export function huberLoss(input: Tensor, target: Tensor, options: HuberLossOptions = {}): Tensor {
  const who = 'huberLoss';
  const o = readOptions<HuberLossOptions>(who, options, ['reduction', 'delta']);
  const delta = numberOption(who, 'delta', o.delta, 1);
  if (!(delta > 0)) throw new RangeError(`${who}: delta must be more than 0 (as PyTorch's huber_loss); got ${delta}`);
  checkPair(who, input, target);
  return composite(who, () => reduce(quadraticNearZero(input, target, delta, delta, 1), o.reduction, who));
}
