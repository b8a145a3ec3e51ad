// The layers of nn.RNN, nn.LSTM and nn.GRU: a stack of numLayers recurrences, each run forward
// (and backward in time when bidirectional) over the sequence from its first layer's input
// projection, composed from linear, the gate functions, select and stack (so autograd, fused
// mode and tpu.compile see ordinary ops). Parameters are named as PyTorch's
// (weight_ih_l0, bias_hh_l1_reverse, weight_hr_l0), so stateDict() keys match.
import type { DType } from '../dtype.js';
import { formatShape, shapesEqual } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { zeros } from '../creation.js';
import { concat, stack } from '../ops/concat.js';
import { linear } from '../ops/linalg.js';
import { dropout } from '../ops/nn/attention.js';
import { Module } from './module.js';
import { uniformParameter } from './init.js';
import { positiveInt } from './checks.js';
import { GATE_COUNT, recurrentStep, type CellKind, type StepWeights } from './recurrent-step.js';

export interface RecurrentOptions {
  numLayers?: number;
  bias?: boolean;
  batchFirst?: boolean;
  /** Dropout on each layer's output but the last's, in training mode. */
  dropout?: number;
  bidirectional?: boolean;
  dtype?: DType;
}

/** What the constructors take, by position or by name. */
export type RecurrentArguments = Partial<RecurrentOptions & { projSize: number; nonlinearity: 'tanh' | 'relu' }>;

export function checkBoolean(who: string, name: string, v: unknown): boolean | undefined {
  if (v !== undefined && typeof v !== 'boolean') throw new TypeError(`${who}: ${name} must be a boolean; got ${JSON.stringify(v)}`);
  return v;
}

/** A cell's weight_ih, weight_hh, bias_ih, bias_hh as PyTorch shapes them, U(-1/√hidden, 1/√hidden). */
export function cellParameters(kind: CellKind, inputSize: number, hiddenSize: number, stateSize: number, bias: boolean, dtype: DType): Tensor[] {
  const rows = GATE_COUNT[kind] * hiddenSize;
  const bound = 1 / Math.sqrt(hiddenSize);
  return [
    uniformParameter([rows, inputSize], bound, dtype),
    uniformParameter([rows, stateSize], bound, dtype),
    ...(bias ? [uniformParameter([rows], bound, dtype), uniformParameter([rows], bound, dtype)] : []),
  ];
}

/** The dtype check of an input or a state against the layer's weights, naming the argument. */
export function checkDType(who: string, name: string, t: Tensor, dtype: DType): void {
  if (t.dtype !== dtype) throw new TypeError(`${who}: ${name} must be ${dtype} as the layer's weights; got ${t.dtype}`);
}

export abstract class RecurrentBase extends Module {
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly numLayers: number;
  readonly bias: boolean;
  readonly batchFirst: boolean;
  readonly dropout: number;
  readonly bidirectional: boolean;
  readonly projSize: number;
  protected readonly kind: CellKind;

  protected constructor(kind: CellKind, readonly layerName: string, inputSize: number, hiddenSize: number, o: RecurrentArguments) {
    super();
    const who = `nn.${layerName}`;
    inputSize = positiveInt(who, 'inputSize', inputSize);
    hiddenSize = positiveInt(who, 'hiddenSize', hiddenSize);
    const numLayers = positiveInt(who, 'numLayers', o.numLayers ?? 1);
    const p = o.dropout ?? 0;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`${who}: dropout must be a probability in [0, 1]; got ${JSON.stringify(p)}`);
    const projSize = o.projSize ?? 0;
    if (!Number.isInteger(projSize) || projSize < 0) throw new RangeError(`${who}: projSize must be a non-negative integer; got ${JSON.stringify(projSize)}`);
    if (projSize >= hiddenSize) throw new RangeError(`${who}: projSize must be smaller than hiddenSize (${hiddenSize}); got ${projSize}`);
    this.kind = kind;
    this.inputSize = inputSize;
    this.hiddenSize = hiddenSize;
    this.numLayers = numLayers;
    this.bias = checkBoolean(who, 'bias', o.bias) ?? true;
    this.batchFirst = checkBoolean(who, 'batchFirst', o.batchFirst) ?? false;
    this.dropout = p;
    this.bidirectional = checkBoolean(who, 'bidirectional', o.bidirectional) ?? false;
    this.projSize = projSize;
    const dtype = o.dtype ?? 'float32';
    const out = projSize || hiddenSize;
    const self = this as unknown as Record<string, Tensor>;
    for (let layer = 0; layer < this.numLayers; layer++) {
      for (let d = 0; d < this.numDirections; d++) {
        const [wIh, wHh, bIh, bHh] = cellParameters(kind, layer === 0 ? inputSize : out * this.numDirections, hiddenSize, out, this.bias, dtype);
        const names = this.parameterNames(layer, d);
        // PyTorch's order: weight_ih, weight_hh, bias_ih, bias_hh, weight_hr
        self[names.weightIh] = wIh!;
        self[names.weightHh] = wHh!;
        if (bIh && bHh) [self[names.biasIh], self[names.biasHh]] = [bIh, bHh];
        if (projSize) self[names.weightHr] = uniformParameter([projSize, hiddenSize], 1 / Math.sqrt(hiddenSize), dtype);
      }
    }
  }

  get numDirections(): number {
    return this.bidirectional ? 2 : 1;
  }

  /** PyTorch's all_weights: per layer and direction, [weight_ih, weight_hh, bias_ih, bias_hh, weight_hr] as present. */
  get allWeights(): Tensor[][] {
    const out: Tensor[][] = [];
    for (let layer = 0; layer < this.numLayers; layer++) {
      for (let d = 0; d < this.numDirections; d++) {
        out.push(Object.values(this.parameterNames(layer, d)).map((k) => this.weight(k)).filter((t): t is Tensor => t !== null));
      }
    }
    return out;
  }

  /** PyTorch's flatten_parameters(): a cuDNN memory layout; nothing to do here. */
  flattenParameters(): void {}

  private parameterNames(layer: number, direction: number) {
    const s = `_l${layer}${direction === 1 ? '_reverse' : ''}`;
    return { weightIh: `weight_ih${s}`, weightHh: `weight_hh${s}`, biasIh: `bias_ih${s}`, biasHh: `bias_hh${s}`, weightHr: `weight_hr${s}` };
  }

  /** A parameter read by name at each forward: a replaced one (`lstm.weight_ih_l0 = w`) is used. */
  private weight(name: string): Tensor | null {
    return (this as unknown as Record<string, Tensor | undefined>)[name] ?? null;
  }

  /**
   * The layers over `input` from the states `hx` ([h0], or [h0, c0] for LSTM; zeros when null):
   * the last layer's output at every step and each state's final values per layer and direction.
   */
  protected run(input: Tensor, hx: readonly (Tensor | null | undefined)[], names: readonly string[]): [Tensor, Tensor[]] {
    const who = `nn.${this.layerName}`;
    if (input === null || typeof input !== 'object' || !('shape' in input)) throw new TypeError(`${who}: input must be a tensor; got ${input === null ? 'null' : typeof input}`);
    if (input.ndim !== 2 && input.ndim !== 3) throw new RangeError(`${who}: input must be 2-D [L, inputSize] (unbatched) or 3-D ${this.batchFirst ? '[N, L, inputSize]' : '[L, N, inputSize]'}; got ${formatShape(input.shape)}`);
    if (input.shape[input.ndim - 1] !== this.inputSize) throw new RangeError(`${who}: input's last dim must be inputSize ${this.inputSize}; got input of shape ${formatShape(input.shape)}`);
    const dtype = this.weight('weight_ih_l0')!.dtype;
    checkDType(who, 'input', input, dtype);
    const batched = input.ndim === 3;
    let x = batched ? (this.batchFirst ? input.transpose(0, 1) : input) : input.unsqueeze(1);
    const [length, batch] = x.shape as [number, number];
    if (length === 0) throw new RangeError(`${who}: the sequence must have at least one step; got input of shape ${formatShape(input.shape)}`);
    const stacked = this.numLayers * this.numDirections;
    const states = names.map((name, k) => {
      const size = k === 0 ? this.projSize || this.hiddenSize : this.hiddenSize;
      const want = batched ? [stacked, batch, size] : [stacked, size];
      const given = hx[k];
      if (given === undefined || given === null) return zeros([stacked, batch, size], { dtype });
      if (typeof given !== 'object' || !('shape' in given)) throw new TypeError(`${who}: ${name} must be a tensor; got ${typeof given}`);
      if (!shapesEqual(given.shape, want)) throw new RangeError(`${who}: ${name} must have shape ${formatShape(want)} for input of shape ${formatShape(input.shape)}; got ${formatShape(given.shape)}`);
      checkDType(who, name, given, dtype);
      return batched ? given : given.unsqueeze(1);
    });
    const finals: Tensor[][] = names.map(() => []);
    for (let layer = 0; layer < this.numLayers; layer++) {
      const outputs: Tensor[] = [];
      for (let d = 0; d < this.numDirections; d++) {
        const index = layer * this.numDirections + d;
        const [ys, last] = this.direction(x, states.map((s) => s.select(0, index)), layer, d);
        outputs.push(ys);
        last.forEach((s, k) => finals[k]!.push(s));
      }
      x = outputs.length === 1 ? outputs[0]! : concat(outputs, 2);
      if (this.training && this.dropout > 0 && layer < this.numLayers - 1) x = dropout(x, { p: this.dropout, training: true });
    }
    const output = batched ? (this.batchFirst ? x.transpose(0, 1) : x) : x.squeeze(1);
    return [output, finals.map((list) => (batched ? stack(list, 0) : stack(list, 0).squeeze(1)))];
  }

  /** One layer in one direction: its output at every step [L, N, out] and its final state. */
  private direction(x: Tensor, state: Tensor[], layer: number, d: number): [Tensor, Tensor[]] {
    const n = this.parameterNames(layer, d);
    const w: StepWeights = { weightHh: this.weight(n.weightHh)!, biasHh: this.weight(n.biasHh), weightHr: this.weight(n.weightHr) };
    // every step's input projection in one matmul
    const xp = linear(x, this.weight(n.weightIh)!, this.weight(n.biasIh));
    const length = x.shape[0]!;
    const ys: Tensor[] = new Array<Tensor>(length);
    for (let k = 0; k < length; k++) {
      const t = d === 1 ? length - 1 - k : k;
      state = recurrentStep(this.kind, xp.select(0, t), state, w);
      ys[t] = state[0]!;
    }
    return [stack(ys, 0), state];
  }

  protected override extraRepr(): string {
    const parts = [`${this.inputSize}`, `${this.hiddenSize}`];
    if (this.numLayers !== 1) parts.push(`numLayers=${this.numLayers}`);
    if (this.kind === 'RNN_RELU') parts.push(`nonlinearity='relu'`);
    if (!this.bias) parts.push('bias=false');
    if (this.batchFirst) parts.push('batchFirst=true');
    if (this.dropout !== 0) parts.push(`dropout=${this.dropout}`);
    if (this.bidirectional) parts.push('bidirectional=true');
    if (this.projSize) parts.push(`projSize=${this.projSize}`);
    return parts.join(', ');
  }
}
