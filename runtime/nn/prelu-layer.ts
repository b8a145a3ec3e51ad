// torch.nn.PReLU: a learned slope below 0, one for all channels or one per channel.
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { prelu } from '../ops/nn/prelu.js';
import { numberOption } from '../ops/nn/number-option.js';
import { Module } from './module.js';
import { constantParameter } from './init.js';
import { positiveInt } from './checks.js';
import { layerArguments } from './layer-arguments.js';

export interface PReLUOptions {
  /** 1 (one slope for all) or the input's channels, dim 1 (default 1). */
  numParameters?: number;
  /** The slopes' first value (default 0.25). */
  init?: number;
  dtype?: DType;
}

/**
 * x for x > 0, weight·x otherwise, weight learned (torch.nn.PReLU; 1 parameter, 0.25).
 * @example new tpu.nn.PReLU(3).forward(images) // one slope per channel
 */
export class PReLU extends Module {
  readonly numParameters: number;
  weight: Tensor;

  constructor(...args: [numParameters?: number, init?: number] | [numParameters: number, options: Omit<PReLUOptions, 'numParameters'>]
    | [numParameters: number, init: number, options: Pick<PReLUOptions, 'dtype'>] | [options: PReLUOptions]) {
    super();
    const o = layerArguments<PReLUOptions>('PReLU', args, ['numParameters', 'init'], ['dtype']);
    this.numParameters = o.numParameters ?? 1;
    positiveInt('PReLU', 'numParameters', this.numParameters);
    const init = numberOption('nn.PReLU', 'init', o.init, 0.25);
    this.weight = constantParameter([this.numParameters], init, o.dtype ?? 'float32');
  }

  forward(x: Tensor): Tensor {
    return prelu(x, this.weight);
  }

  protected override extraRepr(): string {
    return `numParameters=${this.numParameters}`;
  }
}
