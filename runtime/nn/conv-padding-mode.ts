// nn.Conv1d/Conv2d's paddingMode (PyTorch's padding_mode): 'zeros' is the convolution's own
// padding; 'reflect', 'replicate' and 'circular' pad the input with F.pad first and convolve
// with none, as PyTorch does (its _reversed_padding_repeated_twice: last dim first, and for
// 'same' the odd unit on the right).
import { formatShape } from '../shape.js';
import { describeValue } from '../distributed/describe-value.js';
import type { ConvOptions } from '../ops/nn/conv.js';
import { pad } from '../ops/pad.js';
import type { Tensor } from '../tensor.js';

const MODES = ['zeros', 'reflect', 'replicate', 'circular'] as const;
export type PaddingMode = (typeof MODES)[number];

/** The F.pad amounts (before, after per dim, last dim first) of a layer's padding. */
function padAmounts(layer: string, kernel: readonly number[], o: ConvOptions): number[] {
  const perDim = (v: number | readonly number[] | undefined, fallback: number, name: string): number[] => {
    const list = v === undefined ? kernel.map(() => fallback) : typeof v === 'number' ? kernel.map(() => v) : [...v];
    if (list.length !== kernel.length || !list.every((n) => Number.isInteger(n) && n >= 0)) {
      throw new RangeError(`${layer}: ${name} must be an integer ≥ 0 or ${kernel.length} of them; got ${JSON.stringify(v)}`);
    }
    return list;
  };
  let pairs: [number, number][];
  if (o.padding === 'valid') pairs = kernel.map(() => [0, 0]);
  else if (o.padding === 'same') {
    const stride = perDim(o.stride, 1, 'stride');
    if (stride.some((s) => s !== 1)) throw new RangeError(`${layer}: padding 'same' needs stride 1; got ${formatShape(stride)}`);
    const dilation = perDim(o.dilation, 1, 'dilation');
    pairs = kernel.map((k, d) => {
      const total = dilation[d]! * (k - 1);
      return [Math.floor(total / 2), total - Math.floor(total / 2)];
    });
  } else pairs = perDim(o.padding as number | readonly number[] | undefined, 0, 'padding').map((p) => [p, p]);
  return pairs.reverse().flat();
}

/** The paddingMode of a conv layer's options, checked: null for 'zeros' (the convolution pads), else the mode and the F.pad amounts. */
function edgePadding(layer: string, kernel: readonly number[], mode: unknown, o: ConvOptions): { mode: Exclude<PaddingMode, 'zeros'>; amounts: number[] } | null {
  if (mode === undefined || mode === 'zeros') return null;
  if (!MODES.includes(mode as PaddingMode)) throw new RangeError(`${layer}: paddingMode must be one of ${MODES.map((m) => `'${m}'`).join(', ')}; got ${describeValue(mode)}`);
  return { mode: mode as Exclude<PaddingMode, 'zeros'>, amounts: padAmounts(layer, kernel, o) };
}

/**
 * A conv layer's padding: the options its convolution gets, and for a paddingMode other than
 * 'zeros' the input padded so first (the convolution's own padding then 0).
 */
export class LayerPadding {
  readonly conv: ConvOptions;
  private readonly edge: ReturnType<typeof edgePadding>;

  constructor(layer: string, kernel: readonly number[], options: Omit<ConvOptions, 'bias'> & { bias?: unknown; dtype?: unknown; paddingMode?: PaddingMode }) {
    const { bias: _bias, dtype: _dtype, paddingMode, ...conv } = options;
    this.edge = edgePadding(layer, kernel, paddingMode, conv);
    this.conv = this.edge ? { ...conv, padding: 0 } : conv;
  }

  /** x as the convolution takes it. */
  input(x: Tensor): Tensor {
    return this.edge ? pad(x, this.edge.amounts, { mode: this.edge.mode }) : x;
  }
}
