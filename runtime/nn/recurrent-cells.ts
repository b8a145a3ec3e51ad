// nn.RNNCell, nn.LSTMCell, nn.GRUCell (torch.nn's): one time step, the same step as the layers'
// (recurrent-step.ts), input [N, inputSize] or [inputSize], the state zeros when not given.
import type { DType } from '../dtype.js';
import { formatShape, shapesEqual } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { zeros } from '../creation.js';
import { linear } from '../ops/linalg.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';
import { positiveInt } from './checks.js';
import { cellParameters, checkBoolean, checkDType } from './recurrent-base.js';
import { elmanKind, recurrentStep, type CellKind } from './recurrent-step.js';

export interface CellOptions {
  bias?: boolean;
  dtype?: DType;
}

export interface RNNCellOptions extends CellOptions {
  nonlinearity?: 'tanh' | 'relu';
}

abstract class CellBase extends Module {
  weight_ih: Tensor;
  weight_hh: Tensor;
  bias_ih: Tensor | null;
  bias_hh: Tensor | null;
  readonly bias: boolean;

  readonly inputSize: number;
  readonly hiddenSize: number;

  protected constructor(protected readonly kind: CellKind, readonly cellName: string, inputSize: number, hiddenSize: number, o: CellOptions) {
    super();
    inputSize = this.inputSize = positiveInt(`nn.${cellName}`, 'inputSize', inputSize);
    hiddenSize = this.hiddenSize = positiveInt(`nn.${cellName}`, 'hiddenSize', hiddenSize);
    this.bias = checkBoolean(`nn.${cellName}`, 'bias', o.bias) ?? true;
    const [wIh, wHh, bIh, bHh] = cellParameters(kind, inputSize, hiddenSize, hiddenSize, this.bias, o.dtype ?? 'float32');
    this.weight_ih = wIh!;
    this.weight_hh = wHh!;
    this.bias_ih = bIh ?? null;
    this.bias_hh = bHh ?? null;
  }

  /** The step from `states` ([hx], or [hx, cx] for LSTMCell; zeros when absent), input and states 1-D or 2-D alike. */
  protected step(input: Tensor, states: readonly (Tensor | null | undefined)[], names: readonly string[]): Tensor[] {
    const who = `nn.${this.cellName}`;
    if (input === null || typeof input !== 'object' || !('shape' in input)) throw new TypeError(`${who}: input must be a tensor; got ${input === null ? 'null' : typeof input}`);
    if (input.ndim !== 1 && input.ndim !== 2) throw new RangeError(`${who}: input must be 1-D [inputSize] or 2-D [N, inputSize]; got ${formatShape(input.shape)}`);
    if (input.shape[input.ndim - 1] !== this.inputSize) throw new RangeError(`${who}: input's last dim must be inputSize ${this.inputSize}; got input of shape ${formatShape(input.shape)}`);
    checkDType(who, 'input', input, this.weight_ih.dtype);
    const batched = input.ndim === 2;
    const want = batched ? [input.shape[0]!, this.hiddenSize] : [this.hiddenSize];
    const given = names.map((name, k) => {
      const s = states[k];
      if (s === undefined || s === null) return zeros(want, { dtype: input.dtype });
      if (typeof s !== 'object' || !('shape' in s)) throw new TypeError(`${who}: ${name} must be a tensor; got ${typeof s}`);
      if (!shapesEqual(s.shape, want)) throw new RangeError(`${who}: ${name} must have shape ${formatShape(want)} for input of shape ${formatShape(input.shape)}; got ${formatShape(s.shape)}`);
      checkDType(who, name, s, this.weight_ih.dtype);
      return s;
    });
    const xp = linear(input, this.weight_ih, this.bias_ih);
    return recurrentStep(this.kind, xp, given, { weightHh: this.weight_hh, biasHh: this.bias_hh, weightHr: null });
  }

  protected override extraRepr(): string {
    return `${this.inputSize}, ${this.hiddenSize}${this.bias ? '' : ', bias=false'}${this.kind === 'RNN_RELU' ? ", nonlinearity='relu'" : ''}`;
  }
}

/**
 * h' = tanh(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh) (or relu) (torch.nn.RNNCell).
 * @example const cell = new tpu.nn.RNNCell(3, 5); cell.forward(tpu.randn([2, 3])).shape // [2, 5]
 */
export class RNNCell extends CellBase {
  readonly nonlinearity: 'tanh' | 'relu';

  constructor(inputSize: number, hiddenSize: number, ...rest: [bias?: boolean, nonlinearity?: 'tanh' | 'relu', options?: RNNCellOptions] | [options?: RNNCellOptions]) {
    const o = layerArguments<RNNCellOptions>('RNNCell', rest, ['bias', 'nonlinearity'], ['dtype']);
    super(elmanKind('nn.RNNCell', o.nonlinearity), 'RNNCell', inputSize, hiddenSize, o);
    this.nonlinearity = o.nonlinearity ?? 'tanh';
  }

  forward(input: Tensor, hx?: Tensor | null): Tensor {
    return this.step(input, [hx], ['hx'])[0]!;
  }
}

/**
 * One LSTM step: [h', c'] from x and [h, c] (torch.nn.LSTMCell).
 * @example const cell = new tpu.nn.LSTMCell(3, 5); const [h, c] = cell.forward(tpu.randn([2, 3])); c.shape // [2, 5]
 */
export class LSTMCell extends CellBase {
  constructor(inputSize: number, hiddenSize: number, ...rest: [bias?: boolean, options?: CellOptions] | [options?: CellOptions]) {
    super('LSTM', 'LSTMCell', inputSize, hiddenSize, layerArguments<CellOptions>('LSTMCell', rest, ['bias'], ['dtype']));
  }

  forward(input: Tensor, hx?: readonly [Tensor, Tensor] | null): [Tensor, Tensor] {
    if (hx !== undefined && hx !== null && (!Array.isArray(hx) || hx.length !== 2)) throw new TypeError('nn.LSTMCell: hx must be [h, c], an array of two tensors');
    const [h, c] = this.step(input, hx ?? [], ['h', 'c']);
    return [h!, c!];
  }
}

/**
 * One GRU step (torch.nn.GRUCell).
 * @example const cell = new tpu.nn.GRUCell(3, 5); cell.forward(tpu.randn([3]), tpu.zeros([5])).shape // [5]
 */
export class GRUCell extends CellBase {
  constructor(inputSize: number, hiddenSize: number, ...rest: [bias?: boolean, options?: CellOptions] | [options?: CellOptions]) {
    super('GRU', 'GRUCell', inputSize, hiddenSize, layerArguments<CellOptions>('GRUCell', rest, ['bias'], ['dtype']));
  }

  forward(input: Tensor, hx?: Tensor | null): Tensor {
    return this.step(input, [hx], ['hx'])[0]!;
  }
}
