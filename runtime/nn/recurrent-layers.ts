// nn.RNN, nn.LSTM, nn.GRU (torch.nn's): constructor arguments by position as PyTorch's, then one
// options object; forward(input, hx?) returning [output, h_n] ([output, [h_n, c_n]] for LSTM).
import type { Tensor } from '../tensor.js';
import { layerArguments } from './layer-arguments.js';
import { RecurrentBase, type RecurrentArguments, type RecurrentOptions } from './recurrent-base.js';
import { elmanKind } from './recurrent-step.js';

type Tail<O> = [numLayers?: number, options?: O] | [options?: O];

/** The arguments after inputSize and hiddenSize by name, PyTorch's positional order `positions`. */
function argumentsOf(layer: string, args: readonly unknown[], positions: readonly (keyof RecurrentArguments)[]): RecurrentArguments {
  return layerArguments<RecurrentArguments>(layer, args, positions, ['dtype']);
}

const COMMON = ['numLayers', 'bias', 'batchFirst', 'dropout', 'bidirectional'] as const;

export interface RNNOptions extends RecurrentOptions {
  nonlinearity?: 'tanh' | 'relu';
}

export interface LSTMOptions extends RecurrentOptions {
  /** h projected to this size by weight_hr (0: none); smaller than hiddenSize. */
  projSize?: number;
}

export type GRUOptions = RecurrentOptions;

/**
 * Elman RNN: h_t = tanh(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh) (or relu), layer over layer (torch.nn.RNN).
 * @example const rnn = new tpu.nn.RNN(3, 5, 2, { batchFirst: true }); const [out, hn] = rnn.forward(tpu.randn([4, 7, 3])); out.shape // [4, 7, 5]
 */
export class RNN extends RecurrentBase {
  readonly nonlinearity: 'tanh' | 'relu';

  constructor(inputSize: number, hiddenSize: number, ...rest: Tail<RNNOptions> | [numLayers: number, nonlinearity: 'tanh' | 'relu', options?: RNNOptions]) {
    const o = argumentsOf('RNN', rest, ['numLayers', 'nonlinearity', 'bias', 'batchFirst', 'dropout', 'bidirectional']);
    super(elmanKind('nn.RNN', o.nonlinearity), 'RNN', inputSize, hiddenSize, o);
    this.nonlinearity = o.nonlinearity ?? 'tanh';
  }

  /** input [L, N, inputSize] ([N, L, ...] with batchFirst) or [L, inputSize]; hx [numLayers·D, N, hiddenSize] (zeros if absent). */
  forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor] {
    const [output, [h]] = this.run(input, [hx], ['hx']);
    return [output, h!];
  }
}

/**
 * Long short-term memory, gates i, f, g, o as PyTorch's (torch.nn.LSTM); projSize > 0 projects h.
 * @example const lstm = new tpu.nn.LSTM(3, 5); const [out, [hn, cn]] = lstm.forward(tpu.randn([7, 2, 3])); hn.shape // [1, 2, 5]
 */
export class LSTM extends RecurrentBase {
  constructor(inputSize: number, hiddenSize: number, ...rest: Tail<LSTMOptions>) {
    super('LSTM', 'LSTM', inputSize, hiddenSize, argumentsOf('LSTM', rest, [...COMMON, 'projSize']));
  }

  /** input as RNN's; hx = [h0, c0], h0 [numLayers·D, N, projSize || hiddenSize], c0 [numLayers·D, N, hiddenSize] (zeros if absent). */
  forward(input: Tensor, hx?: readonly [Tensor, Tensor] | null): [Tensor, [Tensor, Tensor]] {
    if (hx !== undefined && hx !== null && (!Array.isArray(hx) || hx.length !== 2)) throw new TypeError('nn.LSTM: hx must be [h0, c0], an array of two tensors');
    const [output, [h, c]] = this.run(input, hx ?? [], ['h0', 'c0']);
    return [output, [h!, c!]];
  }
}

/**
 * Gated recurrent unit, gates r, z, n as PyTorch's, n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)) (torch.nn.GRU).
 * @example const gru = new tpu.nn.GRU(3, 5, 2); const [out, hn] = gru.forward(tpu.randn([7, 3])); hn.shape // [2, 5]
 */
export class GRU extends RecurrentBase {
  constructor(inputSize: number, hiddenSize: number, ...rest: Tail<GRUOptions>) {
    super('GRU', 'GRU', inputSize, hiddenSize, argumentsOf('GRU', rest, [...COMMON]));
  }

  /** As RNN's forward. */
  forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor] {
    const [output, [h]] = this.run(input, [hx], ['hx']);
    return [output, h!];
  }
}
