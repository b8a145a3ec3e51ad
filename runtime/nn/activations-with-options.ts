// Activation layers with options (torch.nn.LeakyReLU, ELU, CELU, Hardtanh, Softplus), each over
// its op: the options by position or by name, as PyTorch's, their defaults shown by toString().
import type { Tensor } from '../tensor.js';
import { leakyRelu, elu, celu, hardtanh, type LeakyReluOptions, type AlphaOption, type HardtanhOptions } from '../ops/nn/piecewise-activations.js';
import { softplus, type SoftplusOptions } from '../ops/nn/smooth-activations.js';
import { numberOption } from '../ops/nn/number-option.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

/**
 * x for x > 0, negativeSlope·x otherwise, as a layer (torch.nn.LeakyReLU; negativeSlope 0.01).
 * @example new tpu.nn.LeakyReLU(0.2).forward(tpu.tensor([-1, 2])) // [-0.2, 2]
 */
export class LeakyReLU extends Module {
  readonly negativeSlope: number;

  constructor(...args: [negativeSlope?: number] | [options: LeakyReluOptions]) {
    super();
    const o = layerArguments<LeakyReluOptions>('LeakyReLU', args, ['negativeSlope']);
    this.negativeSlope = numberOption('nn.LeakyReLU', 'negativeSlope', o.negativeSlope, 0.01);
  }

  forward(x: Tensor): Tensor {
    return leakyRelu(x, { negativeSlope: this.negativeSlope });
  }

  protected override extraRepr(): string {
    return `negativeSlope=${this.negativeSlope}`;
  }
}

/** ELU and CELU: one alpha, 1 by default. */
abstract class AlphaActivation extends Module {
  readonly alpha: number;

  constructor(args: readonly unknown[]) {
    super();
    const layer = new.target.name;
    this.alpha = numberOption(`nn.${layer}`, 'alpha', layerArguments<AlphaOption>(layer, args, ['alpha']).alpha, 1);
  }

  protected override extraRepr(): string {
    return `alpha=${this.alpha}`;
  }
}

/**
 * x for x > 0, alpha·(eˣ - 1) otherwise, as a layer (torch.nn.ELU; alpha 1).
 * @example new tpu.nn.ELU({ alpha: 0.5 }).forward(x)
 */
export class ELU extends AlphaActivation {
  constructor(...args: [alpha?: number] | [options: AlphaOption]) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return elu(x, { alpha: this.alpha });
  }
}

/**
 * max(0, x) + min(0, alpha·(e^(x/alpha) - 1)) as a layer (torch.nn.CELU; alpha 1).
 * @example new tpu.nn.CELU(2).forward(x)
 */
export class CELU extends AlphaActivation {
  constructor(...args: [alpha?: number] | [options: AlphaOption]) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return celu(x, { alpha: this.alpha });
  }
}

/**
 * x clamped to [minVal, maxVal] as a layer (torch.nn.Hardtanh; -1 and 1).
 * @example new tpu.nn.Hardtanh(-2, 2).forward(tpu.tensor([-3, 1, 5])) // [-2, 1, 2]
 */
export class Hardtanh extends Module {
  readonly minVal: number;
  readonly maxVal: number;

  constructor(...args: [minVal?: number, maxVal?: number] | [minVal: number, options: Omit<HardtanhOptions, 'minVal'>] | [options: HardtanhOptions]) {
    super();
    const o = layerArguments<HardtanhOptions>('Hardtanh', args, ['minVal', 'maxVal']);
    this.minVal = numberOption('nn.Hardtanh', 'minVal', o.minVal, -1);
    this.maxVal = numberOption('nn.Hardtanh', 'maxVal', o.maxVal, 1);
  }

  forward(x: Tensor): Tensor {
    return hardtanh(x, { minVal: this.minVal, maxVal: this.maxVal });
  }

  protected override extraRepr(): string {
    return `minVal=${this.minVal}, maxVal=${this.maxVal}`;
  }
}

/**
 * log(1 + e^(beta·x)) / beta, x itself where beta·x > threshold, as a layer (torch.nn.Softplus; 1 and 20).
 * @example new tpu.nn.Softplus({ beta: 2 }).forward(x)
 */
export class Softplus extends Module {
  readonly beta: number;
  readonly threshold: number;

  constructor(...args: [beta?: number, threshold?: number] | [beta: number, options: Omit<SoftplusOptions, 'beta'>] | [options: SoftplusOptions]) {
    super();
    const o = layerArguments<SoftplusOptions>('Softplus', args, ['beta', 'threshold']);
    this.beta = numberOption('nn.Softplus', 'beta', o.beta, 1);
    this.threshold = numberOption('nn.Softplus', 'threshold', o.threshold, 20);
  }

  forward(x: Tensor): Tensor {
    return softplus(x, { beta: this.beta, threshold: this.threshold });
  }

  protected override extraRepr(): string {
    return `beta=${this.beta}, threshold=${this.threshold}`;
  }
}
