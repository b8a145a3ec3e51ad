// Activation layers with options (torch.nn.LeakyReLU, ELU, CELU, Hardtanh, Softplus), each over
// its op: the options by position or by name, as PyTorch's, their defaults shown by toString();
// all but Softplus take PyTorch's inplace.
import type { Tensor } from '../tensor.js';
import { leakyRelu, elu, celu, hardtanh, type LeakyReluOptions, type AlphaOption, type HardtanhOptions } from '../ops/nn/piecewise-activations.js';
import { softplus, type SoftplusOptions } from '../ops/nn/smooth-activations.js';
import { numberOption } from '../ops/nn/number-option.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';
import { inplaceOption, inplaceRepr, maybeInPlace, type InplaceOption } from './inplace-option.js';

/**
 * x for x > 0, negativeSlope·x otherwise, as a layer (torch.nn.LeakyReLU; negativeSlope 0.01).
 * @example new tpu.nn.LeakyReLU(0.2).forward(tpu.tensor([-1, 2])) // [-0.2, 2]
 */
export class LeakyReLU extends Module {
  readonly negativeSlope: number;
  readonly inplace: boolean;

  constructor(...args: [negativeSlope?: number, inplace?: boolean] | [negativeSlope: number, options: InplaceOption] | [options: LeakyReluOptions & InplaceOption]) {
    super();
    const o = layerArguments<LeakyReluOptions & InplaceOption>('LeakyReLU', args, ['negativeSlope', 'inplace']);
    this.negativeSlope = numberOption('nn.LeakyReLU', 'negativeSlope', o.negativeSlope, 0.01);
    this.inplace = inplaceOption('LeakyReLU', o.inplace);
  }

  forward(x: Tensor): Tensor {
    return maybeInPlace(this.inplace, 'LeakyReLU', x, (v) => leakyRelu(v, { negativeSlope: this.negativeSlope }));
  }

  protected override extraRepr(): string {
    return `negativeSlope=${this.negativeSlope}${inplaceRepr(this.inplace)}`;
  }
}

/** ELU and CELU: one alpha, 1 by default. */
abstract class AlphaActivation extends Module {
  readonly alpha: number;
  readonly inplace: boolean;

  constructor(args: readonly unknown[]) {
    super();
    const layer = new.target.name;
    const o = layerArguments<AlphaOption & InplaceOption>(layer, args, ['alpha', 'inplace']);
    this.alpha = numberOption(`nn.${layer}`, 'alpha', o.alpha, 1);
    this.inplace = inplaceOption(layer, o.inplace);
  }

  protected override extraRepr(): string {
    return `alpha=${this.alpha}${inplaceRepr(this.inplace)}`;
  }
}

type AlphaArgs = [alpha?: number, inplace?: boolean] | [alpha: number, options: InplaceOption] | [options: AlphaOption & InplaceOption];

/**
 * x for x > 0, alpha·(eˣ - 1) otherwise, as a layer (torch.nn.ELU; alpha 1).
 * @example new tpu.nn.ELU({ alpha: 0.5 }).forward(x)
 */
export class ELU extends AlphaActivation {
  constructor(...args: AlphaArgs) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return maybeInPlace(this.inplace, 'ELU', x, (v) => elu(v, { alpha: this.alpha }));
  }
}

/**
 * max(0, x) + min(0, alpha·(e^(x/alpha) - 1)) as a layer (torch.nn.CELU; alpha 1).
 * @example new tpu.nn.CELU(2).forward(x)
 */
export class CELU extends AlphaActivation {
  constructor(...args: AlphaArgs) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return maybeInPlace(this.inplace, 'CELU', x, (v) => celu(v, { alpha: this.alpha }));
  }
}

/**
 * x clamped to [minVal, maxVal] as a layer (torch.nn.Hardtanh; -1 and 1).
 * @example new tpu.nn.Hardtanh(-2, 2).forward(tpu.tensor([-3, 1, 5])) // [-2, 1, 2]
 */
export class Hardtanh extends Module {
  readonly minVal: number;
  readonly maxVal: number;
  readonly inplace: boolean;

  constructor(...args: [minVal?: number, maxVal?: number, inplace?: boolean] | [minVal: number, options: Omit<HardtanhOptions, 'minVal'> & InplaceOption]
    | [minVal: number, maxVal: number, options: InplaceOption] | [options: HardtanhOptions & InplaceOption]) {
    super();
    const o = layerArguments<HardtanhOptions & InplaceOption>('Hardtanh', args, ['minVal', 'maxVal', 'inplace']);
    this.minVal = numberOption('nn.Hardtanh', 'minVal', o.minVal, -1);
    this.maxVal = numberOption('nn.Hardtanh', 'maxVal', o.maxVal, 1);
    this.inplace = inplaceOption('Hardtanh', o.inplace);
  }

  forward(x: Tensor): Tensor {
    return maybeInPlace(this.inplace, 'Hardtanh', x, (v) => hardtanh(v, { minVal: this.minVal, maxVal: this.maxVal }));
  }

  protected override extraRepr(): string {
    return `minVal=${this.minVal}, maxVal=${this.maxVal}${inplaceRepr(this.inplace)}`;
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
