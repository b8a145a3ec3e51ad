// The loss layers (torch.nn.CrossEntropyLoss, MSELoss, ...): each holds its options and runs its
// loss function, forward(input, target). A class weight is a buffer, as PyTorch registers it.
import type { Tensor } from '../tensor.js';
import {
  crossEntropy, nllLoss, mseLoss, binaryCrossEntropy, binaryCrossEntropyWithLogits,
  type BinaryCrossEntropyOptions, type BinaryCrossEntropyWithLogitsOptions, type CrossEntropyOptions, type NllLossOptions,
} from './losses.js';
import { l1Loss, smoothL1Loss, huberLoss } from './distance-losses.js';
import { klDiv } from './kl-div.js';
import { cosineEmbeddingLoss, type CosineEmbeddingLossOptions } from './cosine-embedding-loss.js';
import { readOptions } from '../options.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

/** A loss layer of options `O`, checked for unknown keys when it is made; their values by the loss function. */
export abstract class Loss<O extends object> extends Module {
  protected readonly options: Partial<O>;

  constructor(options: unknown, accepted: readonly (keyof O & string)[]) {
    super();
    this.options = readOptions<O>(`nn.${new.target.name}`, options, accepted);
  }
}

/** A loss layer of options O, forward(input, target). */
export abstract class PairLoss<O extends object> extends Loss<O> {
  abstract override forward(input: Tensor, target: Tensor): Tensor;
}

/** The layer class `name` (its toString() and errors say it) over the loss function `loss`. */
function pairLoss<O extends object>(name: string, loss: (input: Tensor, target: Tensor, options?: O) => Tensor, accepted: readonly (keyof NoInfer<O> & string)[]): new (options?: O) => PairLoss<O> {
  const layer = class extends PairLoss<O> {
    constructor(options: O = {} as O) {
      super(options, accepted);
    }

    forward(input: Tensor, target: Tensor): Tensor {
      return loss(input, target, this.options as O);
    }
  };
  Object.defineProperty(layer, 'name', { value: name });
  return layer;
}

/** A loss with a weight (by position too, as PyTorch's), kept as a buffer: per class (CrossEntropyLoss, NLLLoss) or per element (BCELoss). */
abstract class WeightedLoss<O extends { weight?: Tensor | null }> extends Module {
  readonly weight: Tensor | null;
  protected options: Partial<O>;

  constructor(args: readonly unknown[], keywordOnly: readonly (keyof O & string)[]) {
    super();
    const { weight, ...options } = layerArguments<O>(new.target.name, args, ['weight'], keywordOnly);
    this.weight = weight ?? null;
    this.options = options as Partial<O>;
  }
}

/**
 * Cross entropy of logits against class indices or probabilities (torch.nn.CrossEntropyLoss; tpu.nn.crossEntropy's options).
 * @example new tpu.nn.CrossEntropyLoss().forward(tpu.zeros([1, 4]), tpu.tensor(new Int32Array([2]))) // 1.386294
 */
export class CrossEntropyLoss extends WeightedLoss<CrossEntropyOptions> {
  constructor(...args: [options?: CrossEntropyOptions] | [weight: Tensor | null, options?: Omit<CrossEntropyOptions, 'weight'>]) {
    super(args, ['reduction', 'ignoreIndex', 'labelSmoothing']);
  }

  forward(input: Tensor, target: Tensor): Tensor {
    return crossEntropy(input, target, { ...this.options, weight: this.weight });
  }
}

/**
 * Negative log likelihood of log-probabilities against class indices (torch.nn.NLLLoss; tpu.nn.nllLoss's options).
 * @example new tpu.nn.NLLLoss().forward(tpu.tensor([[-1, -2]]), tpu.tensor(new Int32Array([1]))) // 2
 */
export class NLLLoss extends WeightedLoss<NllLossOptions> {
  constructor(...args: [options?: NllLossOptions] | [weight: Tensor | null, options?: Omit<NllLossOptions, 'weight'>]) {
    super(args, ['reduction', 'ignoreIndex']);
  }

  forward(input: Tensor, target: Tensor): Tensor {
    return nllLoss(input, target, { ...this.options, weight: this.weight });
  }
}

/**
 * Mean squared error (torch.nn.MSELoss; `{ reduction }`).
 * @example new tpu.nn.MSELoss().forward(tpu.tensor([1, 2]), tpu.tensor([1, 4])) // 2
 */
export const MSELoss = pairLoss('MSELoss', mseLoss, ['reduction']);

/**
 * Mean absolute error (torch.nn.L1Loss; `{ reduction }`).
 * @example new tpu.nn.L1Loss().forward(tpu.tensor([1, 2]), tpu.tensor([1, 4])) // 1
 */
export const L1Loss = pairLoss('L1Loss', l1Loss, ['reduction']);

/**
 * Quadratic below beta, linear above (torch.nn.SmoothL1Loss; `{ reduction, beta }`).
 * @example new tpu.nn.SmoothL1Loss().forward(tpu.tensor([0, 0]), tpu.tensor([0.5, 3])) // 1.3125
 */
export const SmoothL1Loss = pairLoss('SmoothL1Loss', smoothL1Loss, ['reduction', 'beta']);

/**
 * Quadratic below delta, delta-scaled linear above (torch.nn.HuberLoss; `{ reduction, delta }`).
 * @example new tpu.nn.HuberLoss({ delta: 2 }).forward(tpu.tensor([0, 0]), tpu.tensor([0.5, 3])) // 2.0625
 */
export const HuberLoss = pairLoss('HuberLoss', huberLoss, ['reduction', 'delta']);

/**
 * Binary cross entropy of probabilities (torch.nn.BCELoss; a weight per element by position or `{ weight, reduction }`).
 * @example new tpu.nn.BCELoss().forward(tpu.tensor([0.5]), tpu.tensor([1])) // 0.6931
 */
export class BCELoss extends WeightedLoss<BinaryCrossEntropyOptions> {
  constructor(...args: [options?: BinaryCrossEntropyOptions] | [weight: Tensor | null, options?: Omit<BinaryCrossEntropyOptions, 'weight'>]) {
    super(args, ['reduction']);
  }

  forward(input: Tensor, target: Tensor): Tensor {
    return binaryCrossEntropy(input, target, { ...this.options, weight: this.weight });
  }
}

/**
 * Binary cross entropy of logits (torch.nn.BCEWithLogitsLoss; a weight per element by position
 * or `{ weight, reduction, posWeight }`); posWeight is a buffer too, as PyTorch's pos_weight.
 * @example new tpu.nn.BCEWithLogitsLoss({ posWeight: tpu.tensor([3]) }).forward(tpu.tensor([0]), tpu.tensor([1])) // 2.079442
 */
export class BCEWithLogitsLoss extends WeightedLoss<BinaryCrossEntropyWithLogitsOptions> {
  readonly posWeight: Tensor | null;

  constructor(...args: [options?: BinaryCrossEntropyWithLogitsOptions] | [weight: Tensor | null, options?: Omit<BinaryCrossEntropyWithLogitsOptions, 'weight'>]) {
    super(args, ['reduction', 'posWeight']);
    const { posWeight, ...options } = this.options;
    this.posWeight = posWeight ?? null;
    this.options = options;
  }

  forward(input: Tensor, target: Tensor): Tensor {
    return binaryCrossEntropyWithLogits(input, target, { ...this.options, weight: this.weight, posWeight: this.posWeight });
  }
}

/**
 * KL divergence of a target from log-probabilities (torch.nn.KLDivLoss; `{ reduction, logTarget }`).
 * @example new tpu.nn.KLDivLoss({ reduction: 'batchmean' }).forward(tpu.tensor([-1, -1]), tpu.tensor([0.5, 0.5])) // 0.153426
 */
export const KLDivLoss = pairLoss('KLDivLoss', klDiv, ['reduction', 'logTarget']);

/**
 * 1 - cos for pairs labelled 1, max(0, cos - margin) for -1 (torch.nn.CosineEmbeddingLoss; `{ reduction, margin }`): forward(x1, x2, target).
 * @example new tpu.nn.CosineEmbeddingLoss().forward(tpu.tensor([[1, 0]]), tpu.tensor([[0, 1]]), tpu.tensor([1])) // 1
 */
export class CosineEmbeddingLoss extends Loss<CosineEmbeddingLossOptions> {
  constructor(options: CosineEmbeddingLossOptions = {}) {
    super(options, ['reduction', 'margin']);
  }

  forward(x1: Tensor, x2: Tensor, target: Tensor): Tensor {
    return cosineEmbeddingLoss(x1, x2, target, this.options);
  }
}
