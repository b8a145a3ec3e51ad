// Activation layers of no options, each over its op (tpu.nn.functional's form), and GELU.
import type { Tensor } from '../tensor.js';
import { gelu, silu, type GeluOptions } from '../ops/nn/activations.js';
import { selu, relu6, hardsigmoid, hardswish } from '../ops/nn/piecewise-activations.js';
import { logSigmoid, mish, softsign, tanhshrink } from '../ops/nn/smooth-activations.js';
import { readOptions } from '../options.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';
import { inplaceOption, maybeInPlace, type InplaceOption } from './inplace-option.js';

/** An activation layer that takes no arguments (PyTorch's take none either): one given is an error, not ignored. */
export abstract class OptionFreeActivation extends Module {
  constructor(...args: []) {
    super();
    if (args.length > 0) {
      throw new TypeError(`nn.${new.target.name}: takes no arguments, as in PyTorch; got ${args.map((a) => JSON.stringify(a)).join(', ')}`);
    }
  }

  abstract override forward(x: Tensor): Tensor;
}

/** The layer class `name` (its toString() and errors say it) whose forward is `op`. */
function activation(name: string, op: (x: Tensor) => Tensor): new () => OptionFreeActivation {
  const layer = class extends OptionFreeActivation {
    forward(x: Tensor): Tensor {
      return op(x);
    }
  };
  Object.defineProperty(layer, 'name', { value: name });
  return layer;
}

/** An activation layer whose one argument is PyTorch's inplace, by position or as `{ inplace }`. */
export abstract class InplaceActivation extends Module {
  readonly inplace: boolean;

  constructor(...args: [inplace?: boolean] | [options: InplaceOption]) {
    super();
    this.inplace = inplaceOption(new.target.name, layerArguments<InplaceOption>(new.target.name, args, ['inplace']).inplace);
  }

  abstract override forward(x: Tensor): Tensor;

  protected override extraRepr(): string {
    return this.inplace ? 'inplace=true' : '';
  }
}

/** The layer class `name` whose forward is `op`, written into its input with `{ inplace: true }`. */
function inplaceActivation(name: string, op: (x: Tensor) => Tensor): new (...args: [inplace?: boolean] | [options: InplaceOption]) => InplaceActivation {
  const layer = class extends InplaceActivation {
    forward(x: Tensor): Tensor {
      return maybeInPlace(this.inplace, name, x, op);
    }
  };
  Object.defineProperty(layer, 'name', { value: name });
  return layer;
}

/**
 * max(x, 0) as a layer (torch.nn.ReLU).
 * @example new tpu.nn.Sequential(new tpu.nn.Linear(4, 8), new tpu.nn.ReLU())
 */
export const ReLU = inplaceActivation('ReLU', (x) => x.relu());

/**
 * GELU as a layer (torch.nn.GELU): `{ approximate: 'tanh' }` for the tanh approximation.
 * @example new tpu.nn.GELU().forward(x)
 */
export class GELU extends Module {
  readonly options: GeluOptions;

  constructor(options: GeluOptions = {}) {
    super();
    this.options = readOptions<GeluOptions>('nn.GELU', options, ['approximate']);
  }

  forward(x: Tensor): Tensor {
    return gelu(x, this.options);
  }

  protected override extraRepr(): string {
    return `approximate='${this.options.approximate ?? 'none'}'`;
  }
}

/**
 * tanh as a layer (torch.nn.Tanh).
 * @example new tpu.nn.Tanh().forward(x)
 */
export const Tanh = activation('Tanh', (x) => x.tanh());

/**
 * 1 / (1 + e^-x) as a layer (torch.nn.Sigmoid).
 * @example new tpu.nn.Sigmoid().forward(tpu.tensor([0])) // [0.5]
 */
export const Sigmoid = activation('Sigmoid', (x) => x.sigmoid());

/**
 * x·sigmoid(x) as a layer (torch.nn.SiLU).
 * @example new tpu.nn.SiLU().forward(x)
 */
export const SiLU = inplaceActivation('SiLU', silu);

/**
 * The self-normalizing ELU as a layer (torch.nn.SELU).
 * @example new tpu.nn.SELU().forward(x)
 */
export const SELU = inplaceActivation('SELU', selu);

/**
 * x clamped to [0, 6] as a layer (torch.nn.ReLU6).
 * @example new tpu.nn.ReLU6().forward(tpu.tensor([-1, 3, 8])) // [0, 3, 6]
 */
export const ReLU6 = inplaceActivation('ReLU6', relu6);

/**
 * clamp(x + 3, 0, 6) / 6 as a layer (torch.nn.Hardsigmoid).
 * @example new tpu.nn.Hardsigmoid().forward(x)
 */
export const Hardsigmoid = inplaceActivation('Hardsigmoid', hardsigmoid);

/**
 * x·clamp(x + 3, 0, 6) / 6 as a layer (torch.nn.Hardswish).
 * @example new tpu.nn.Hardswish().forward(x)
 */
export const Hardswish = inplaceActivation('Hardswish', hardswish);

/**
 * log(sigmoid(x)) as a layer (torch.nn.LogSigmoid).
 * @example new tpu.nn.LogSigmoid().forward(x)
 */
export const LogSigmoid = activation('LogSigmoid', logSigmoid);

/**
 * x·tanh(softplus(x)) as a layer (torch.nn.Mish).
 * @example new tpu.nn.Mish().forward(x)
 */
export const Mish = inplaceActivation('Mish', mish);

/**
 * x / (1 + |x|) as a layer (torch.nn.Softsign).
 * @example new tpu.nn.Softsign().forward(tpu.tensor([1, -3])) // [0.5, -0.75]
 */
export const Softsign = activation('Softsign', softsign);

/**
 * x - tanh(x) as a layer (torch.nn.Tanhshrink).
 * @example new tpu.nn.Tanhshrink().forward(x)
 */
export const Tanhshrink = activation('Tanhshrink', tanhshrink);
