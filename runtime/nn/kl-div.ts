// F.kl_div: the pointwise KL divergence of a target from log-probabilities, as PyTorch's.
import { readOptions } from '../options.js';
import type { Tensor } from '../tensor.js';
import { composite } from '../modes/composite.js';
import { xlogy } from '../ops/xlogy.js';
import { checkTensor, reduce, sameShape, type Reduction } from './losses.js';

export interface KlDivOptions {
  /** 'mean' (default: over every element, as PyTorch's), 'batchmean' (the sum over input.shape[0]: the true KL divergence), 'sum' or 'none'. */
  reduction?: Reduction | 'batchmean';
  /** The target holds log-probabilities too (default false). */
  logTarget?: boolean;
}

/**
 * target·(log target - input) (or e^target·(target - input) with logTarget) for input of
 * log-probabilities (F.kl_div); a 0 target contributes 0.
 * @example tpu.nn.klDiv(tpu.tensor([-1, -1]), tpu.tensor([0.5, 0.5]), { reduction: 'batchmean' }) // 0.153426
 */
export function klDiv(input: Tensor, target: Tensor, options: KlDivOptions = {}): Tensor {
  const who = 'klDiv';
  const o = readOptions<KlDivOptions>(who, options, ['reduction', 'logTarget']);
  checkTensor(who, 'input', input);
  checkTensor(who, 'target', target);
  sameShape(who, input, target);
  const logTarget = o.logTarget ?? false;
  if (typeof logTarget !== 'boolean') throw new TypeError(`${who}: logTarget must be a boolean; got ${JSON.stringify(logTarget)}`);
  const r = o.reduction ?? 'mean';
  if (!['mean', 'batchmean', 'sum', 'none'].includes(r)) throw new RangeError(`${who}: reduction must be 'mean', 'batchmean', 'sum' or 'none'; got ${JSON.stringify(o.reduction)}`);
  return composite(who, () => {
    const pointwise = logTarget ? target.exp().mul(target.sub(input)) : xlogy(target, target).sub(target.mul(input));
    if (r !== 'batchmean') return reduce(pointwise, r, who);
    const sum = pointwise.sum();
    return input.ndim === 0 ? sum : sum.div(input.shape[0]!);
  });
}
