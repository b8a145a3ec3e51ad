// Hardshrink, Softshrink and Threshold as layers (torch.nn's), over their ops: the options by
// position or by name, as PyTorch's; Threshold takes PyTorch's inplace.
import type { Tensor } from '../tensor.js';
import { hardshrink, softshrink, threshold, type LambdOption, type ThresholdOptions } from '../ops/nn/shrink-activations.js';
import { numberOption } from '../ops/nn/number-option.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';
import { inplaceOption, inplaceRepr, maybeInPlace, type InplaceOption } from './inplace-option.js';

/** Hardshrink and Softshrink: one lambd, 0.5 by default, shown as PyTorch's repr shows it. */
abstract class ShrinkLayer extends Module {
  readonly lambd: number;

  constructor(args: readonly unknown[]) {
    super();
    const layer = new.target.name;
    this.lambd = numberOption(`nn.${layer}`, 'lambd', layerArguments<LambdOption>(layer, args, ['lambd']).lambd, 0.5);
  }

  protected override extraRepr(): string {
    return String(this.lambd);
  }
}

/**
 * 0 where |x| ≤ lambd, x elsewhere, as a layer (torch.nn.Hardshrink; lambd 0.5).
 * @example new tpu.nn.Hardshrink(1).forward(tpu.tensor([-2, 0.5, 3])) // [-2, 0, 3]
 */
export class Hardshrink extends ShrinkLayer {
  constructor(...args: [lambd?: number] | [LambdOption]) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return hardshrink(x, this.lambd);
  }
}

/**
 * x ∓ lambd outside [-lambd, lambd], 0 inside, as a layer (torch.nn.Softshrink; lambd 0.5).
 * @example new tpu.nn.Softshrink(1).forward(tpu.tensor([-2, 0.5, 3])) // [-1, 0, 2]
 */
export class Softshrink extends ShrinkLayer {
  constructor(...args: [lambd?: number] | [LambdOption]) {
    super(args);
  }

  forward(x: Tensor): Tensor {
    return softshrink(x, this.lambd);
  }
}

/**
 * value where x ≤ threshold, x elsewhere, as a layer (torch.nn.Threshold; both required).
 * @example new tpu.nn.Threshold(0.1, 20).forward(tpu.tensor([-1, 0.5])) // [20, 0.5]
 */
export class Threshold extends Module {
  readonly threshold: number;
  readonly value: number;
  readonly inplace: boolean;

  constructor(...args: [threshold: number, value: number, inplace?: boolean] | [threshold: number, value: number, options: InplaceOption] | [options: ThresholdOptions & InplaceOption]) {
    super();
    const o = layerArguments<ThresholdOptions & InplaceOption>('Threshold', args, ['threshold', 'value', 'inplace']);
    for (const name of ['threshold', 'value'] as const) if (o[name] === undefined) throw new TypeError(`nn.Threshold: ${name} is required, as in PyTorch`);
    this.threshold = numberOption('nn.Threshold', 'threshold', o.threshold, 0);
    this.value = numberOption('nn.Threshold', 'value', o.value, 0);
    this.inplace = inplaceOption('Threshold', o.inplace);
  }

  forward(x: Tensor): Tensor {
    return maybeInPlace(this.inplace, 'Threshold', x, (v) => threshold(v, this.threshold, this.value));
  }

  protected override extraRepr(): string {
    return `threshold=${this.threshold}, value=${this.value}${inplaceRepr(this.inplace)}`;
  }
}
