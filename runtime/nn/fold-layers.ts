// torch.nn.Unfold and Fold over the unfold and fold functions, arguments by position or by name
// as PyTorch's; checked when the layer is made.
import type { Tensor } from '../tensor.js';
import { fold, unfold, type FoldOptions } from '../ops/nn/fold.js';
import { pair } from '../ops/nn/conv.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

type Size = number | readonly number[];

interface UnfoldArguments extends FoldOptions {
  kernelSize?: Size;
}

interface FoldArguments extends UnfoldArguments {
  outputSize?: Size;
}

const show = (v: Size) => (typeof v === 'number' ? String(v) : `[${v.join(', ')}]`);

/** The block arguments read and checked (errors naming the layer), defaults filled in. */
function blockArguments(layer: string, o: UnfoldArguments): Required<FoldOptions> & { kernelSize: Size } {
  const who = `nn.${layer}`;
  if (o.kernelSize === undefined) throw new TypeError(`${who}: kernelSize is required, as in PyTorch`);
  const args = { kernelSize: o.kernelSize, dilation: o.dilation ?? 1, padding: o.padding ?? 0, stride: o.stride ?? 1 };
  pair(who, 'kernelSize', args.kernelSize, [], 1);
  pair(who, 'dilation', args.dilation, [], 1);
  pair(who, 'padding', args.padding, [], 0);
  pair(who, 'stride', args.stride, [], 1);
  return args;
}

/**
 * The sliding blocks of images [n, c, h, w] as columns [n, c·kh·kw, blocks] (torch.nn.Unfold).
 * @example new tpu.nn.Unfold(2, { stride: 2 }).forward(tpu.zeros([1, 3, 4, 4])).shape // [1, 12, 4]
 */
export class Unfold extends Module {
  readonly kernelSize: Size;
  readonly dilation: Size;
  readonly padding: Size;
  readonly stride: Size;

  constructor(...args: [kernelSize: Size, dilation?: Size, padding?: Size, stride?: Size] | [kernelSize: Size, options: FoldOptions] | [options: UnfoldArguments]) {
    super();
    ({ kernelSize: this.kernelSize, dilation: this.dilation, padding: this.padding, stride: this.stride } =
      blockArguments('Unfold', layerArguments<UnfoldArguments>('Unfold', args, ['kernelSize', 'dilation', 'padding', 'stride'])));
  }

  forward(x: Tensor): Tensor {
    return unfold(x, this.kernelSize, { dilation: this.dilation, padding: this.padding, stride: this.stride });
  }

  protected override extraRepr(): string {
    return `kernelSize=${show(this.kernelSize)}, dilation=${show(this.dilation)}, padding=${show(this.padding)}, stride=${show(this.stride)}`;
  }
}

/**
 * Columns [n, c·kh·kw, blocks] summed back into images [n, c, ...outputSize] (torch.nn.Fold).
 * @example new tpu.nn.Fold([4, 4], 2, { stride: 2 }).forward(tpu.zeros([1, 12, 4])).shape // [1, 3, 4, 4]
 */
export class Fold extends Module {
  readonly outputSize: Size;
  readonly kernelSize: Size;
  readonly dilation: Size;
  readonly padding: Size;
  readonly stride: Size;

  constructor(...args: [outputSize: Size, kernelSize: Size, dilation?: Size, padding?: Size, stride?: Size] | [outputSize: Size, kernelSize: Size, options: FoldOptions] | [options: FoldArguments]) {
    super();
    const o = layerArguments<FoldArguments>('Fold', args, ['outputSize', 'kernelSize', 'dilation', 'padding', 'stride']);
    if (o.outputSize === undefined) throw new TypeError('nn.Fold: outputSize is required, as in PyTorch');
    this.outputSize = o.outputSize;
    pair('nn.Fold', 'outputSize', this.outputSize, [], 1);
    ({ kernelSize: this.kernelSize, dilation: this.dilation, padding: this.padding, stride: this.stride } = blockArguments('Fold', o));
  }

  forward(x: Tensor): Tensor {
    return fold(x, this.outputSize, this.kernelSize, { dilation: this.dilation, padding: this.padding, stride: this.stride });
  }

  protected override extraRepr(): string {
    return `outputSize=${show(this.outputSize)}, kernelSize=${show(this.kernelSize)}, dilation=${show(this.dilation)}, padding=${show(this.padding)}, stride=${show(this.stride)}`;
  }
}
