// torch.nn.Softmax, LogSoftmax and Softmin: their op over the dim the layer was given.
import type { Tensor } from '../tensor.js';
import { softmax } from '../ops/composed.js';
import { logSoftmax } from '../ops/statistics.js';
import { softmin } from '../ops/nn/smooth-activations.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

interface DimOption {
  dim: number;
}

/** The layer's dim, required: PyTorch's choice of one when it is omitted is deprecated. */
abstract class OverDim extends Module {
  readonly dim: number;

  constructor(args: readonly unknown[]) {
    super();
    const layer = new.target.name;
    const { dim } = layerArguments<DimOption>(layer, args, ['dim']);
    if (dim === undefined) throw new TypeError(`nn.${layer}: dim is required (PyTorch's implicit choice of dim is deprecated); e.g. new tpu.nn.${layer}(-1)`);
    if (!Number.isInteger(dim)) throw new TypeError(`nn.${layer}: dim must be an integer; got ${JSON.stringify(dim)}`);
    this.dim = dim;
  }

  protected override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}

/**
 * exp(x) / sum(exp(x)) along dim, as a layer (torch.nn.Softmax).
 * @example new tpu.nn.Softmax(1).forward(tpu.tensor([[0, 0]])) // [[0.5, 0.5]]
 */
export class Softmax extends OverDim {
  constructor(...args: [dim: number] | [options: DimOption]) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return softmax(x, this.dim);
  }
}

/**
 * log(softmax(x)) along dim, as a layer (torch.nn.LogSoftmax).
 * @example new tpu.nn.LogSoftmax(-1).forward(logits)
 */
export class LogSoftmax extends OverDim {
  constructor(...args: [dim: number] | [options: DimOption]) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return logSoftmax(x, this.dim);
  }
}

/**
 * softmax(-x) along dim, as a layer (torch.nn.Softmin).
 * @example new tpu.nn.Softmin({ dim: 1 }).forward(logits)
 */
export class Softmin extends OverDim {
  constructor(...args: [dim: number] | [options: DimOption]) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return softmin(x, this.dim);
  }
}
