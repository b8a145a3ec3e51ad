// The padding layers of torch.nn (ZeroPad, ConstantPad, ReflectionPad, ReplicationPad; 1d and
// 2d): pad over the last 1 or 2 dims, the padding one integer for every side or one per side,
// last dim first ([left, right] or [left, right, top, bottom]), as PyTorch's.
import type { Tensor } from '../tensor.js';
import { pad, type PadOptions } from '../ops/pad.js';
import { numberOption } from '../ops/nn/number-option.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

type Padding1d = number | readonly [number, number];
type Padding2d = number | readonly [number, number, number, number];

/** One padding layer: its sides and how it fills them. */
abstract class PadLayer extends Module {
  readonly padding: number[];

  constructor(padding: unknown, dims: 1 | 2, private readonly fill: PadOptions) {
    super();
    const layer = new.target.name;
    const sides = 2 * dims;
    const list = typeof padding === 'number' ? new Array<number>(sides).fill(padding) : padding;
    if (!Array.isArray(list) || list.length !== sides || !list.every(Number.isInteger)) {
      throw new TypeError(`nn.${layer}: padding must be an integer or ${sides} of them (last dim first); got ${JSON.stringify(padding)}`);
    }
    this.padding = [...list] as number[];
  }

  forward(x: Tensor): Tensor {
    return pad(x, this.padding, this.fill);
  }

  protected override extraRepr(): string {
    return `[${this.padding.join(', ')}]`;
  }
}

/** ConstantPad1d and 2d: the padding and a fill value, both required as in PyTorch. */
abstract class ConstantPadLayer extends PadLayer {
  readonly value: number;

  constructor(args: readonly unknown[], dims: 1 | 2) {
    const layer = `ConstantPad${dims}d`;
    const o = layerArguments<{ padding: unknown; value: number }>(layer, args, ['padding', 'value']);
    if (o.value === undefined) throw new TypeError(`nn.${layer}: value is required, as in PyTorch`);
    const value = numberOption(`nn.${layer}`, 'value', o.value, 0);
    super(o.padding, dims, { value });
    this.value = value;
  }

  protected override extraRepr(): string {
    return `padding=${super.extraRepr()}, value=${this.value}`;
  }
}

/**
 * Zeros around the last dim (torch.nn.ZeroPad1d).
 * @example new tpu.nn.ZeroPad1d([1, 2]).forward(tpu.ones([1, 2])) // [[0, 1, 1, 0, 0]]
 */
export class ZeroPad1d extends PadLayer {
  constructor(padding: Padding1d) {
    super(padding, 1, {});
  }
}

/**
 * Zeros around the last two dims (torch.nn.ZeroPad2d).
 * @example new tpu.nn.ZeroPad2d(1).forward(tpu.ones([1, 1, 2, 2])).shape // [1, 1, 4, 4]
 */
export class ZeroPad2d extends PadLayer {
  constructor(padding: Padding2d) {
    super(padding, 2, {});
  }
}

/**
 * A constant around the last dim (torch.nn.ConstantPad1d).
 * @example new tpu.nn.ConstantPad1d(1, 3.5).forward(tpu.zeros([1, 1])) // [[3.5, 0, 3.5]]
 */
export class ConstantPad1d extends ConstantPadLayer {
  constructor(...args: [padding: Padding1d, value: number] | [options: { padding: Padding1d; value: number }]) {
    super(args, 1);
  }
}

/**
 * A constant around the last two dims (torch.nn.ConstantPad2d).
 * @example new tpu.nn.ConstantPad2d([1, 1, 0, 2], -1).forward(images)
 */
export class ConstantPad2d extends ConstantPadLayer {
  constructor(...args: [padding: Padding2d, value: number] | [options: { padding: Padding2d; value: number }]) {
    super(args, 2);
  }
}

/**
 * The last dim mirrored at its edges, the edge not repeated (torch.nn.ReflectionPad1d).
 * @example new tpu.nn.ReflectionPad1d(2).forward(tpu.tensor([[1, 2, 3]])) // [[3, 2, 1, 2, 3, 2, 1]]
 */
export class ReflectionPad1d extends PadLayer {
  constructor(padding: Padding1d) {
    super(padding, 1, { mode: 'reflect' });
  }
}

/**
 * The last two dims mirrored at their edges (torch.nn.ReflectionPad2d).
 * @example new tpu.nn.ReflectionPad2d(1).forward(images)
 */
export class ReflectionPad2d extends PadLayer {
  constructor(padding: Padding2d) {
    super(padding, 2, { mode: 'reflect' });
  }
}

/**
 * The last dim's edge values repeated (torch.nn.ReplicationPad1d).
 * @example new tpu.nn.ReplicationPad1d([2, 0]).forward(tpu.tensor([[1, 2]])) // [[1, 1, 1, 2]]
 */
export class ReplicationPad1d extends PadLayer {
  constructor(padding: Padding1d) {
    super(padding, 1, { mode: 'replicate' });
  }
}

/**
 * The last two dims' edge values repeated (torch.nn.ReplicationPad2d).
 * @example new tpu.nn.ReplicationPad2d(1).forward(images)
 */
export class ReplicationPad2d extends PadLayer {
  constructor(padding: Padding2d) {
    super(padding, 2, { mode: 'replicate' });
  }
}
