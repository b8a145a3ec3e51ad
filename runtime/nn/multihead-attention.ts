// nn.MultiheadAttention over linear, matmul and softmax (so autograd, fused mode and tpu.compile
// apply): PyTorch's parameters, masks and [output, weights] result.
import type { DType } from '../dtype.js';
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { byPosition } from '../options.js';
import { linear } from '../ops/linalg.js';
import { Module } from './module.js';
import { Linear } from './linear.js';
import { constantParameter, normalParameter, uniformParameter } from './init.js';
import { concat } from '../ops/concat.js';
import { filled } from '../ops/constant.js';
import { zeros_ } from './init-functions.js';
import { positiveInt } from './checks.js';
import { layerArguments } from './layer-arguments.js';
import { describeValue } from '../distributed/describe-value.js';
import { attentionProbabilities, attnMaskFor, causalMask, keyPaddingMaskFor, type AttentionSizes } from './attention-masks.js';

export interface MultiheadAttentionOptions {
  embedDim: number;
  numHeads: number;
  /** Dropout on the attention weights in training mode (default 0). */
  dropout?: number;
  /** Biases on the input and output projections (default true). */
  bias?: boolean;
  /** A learned key and value (biasK, biasV [1, 1, E]) appended to every sequence's keys and values (PyTorch's add_bias_kv; default false). */
  addBiasKv?: boolean;
  /** A key and value of zeros appended after the projections (PyTorch's add_zero_attn; default false). */
  addZeroAttn?: boolean;
  /** Features of key (default embedDim). */
  kdim?: number | null;
  /** Features of value (default embedDim). */
  vdim?: number | null;
  /** Inputs and output [N, L, E] (true) or [L, N, E] (false, the default). */
  batchFirst?: boolean;
  dtype?: DType;
}

/** What follows embedDim and numHeads: dropout, bias, addBiasKv, addZeroAttn, kdim, vdim, batchFirst by position, or these options. */
export type MultiheadAttentionLayerOptions = Omit<MultiheadAttentionOptions, 'embedDim' | 'numHeads'>;

export interface MultiheadAttentionForwardOptions {
  /** [N, S] ([S] unbatched): bool true = this key is padding, not attended to; float: added to the scores. */
  keyPaddingMask?: Tensor | null;
  /** Return the attention weights (default true); false returns null for them. */
  needWeights?: boolean;
  /** [L, S] or [N·numHeads, L, S]: bool true = may not attend; float: added to the scores. */
  attnMask?: Tensor | null;
  /** The weights averaged over the heads [N, L, S] (default true) or per head [N, numHeads, L, S]. */
  averageAttnWeights?: boolean;
  /** A hint that attnMask is the causal mask (PyTorch's is_causal: attnMask is still required). */
  isCausal?: boolean;
}

const OP = 'nn.MultiheadAttention';

function checkBoolean(name: string, v: unknown): void {
  if (v !== undefined && typeof v !== 'boolean') throw new TypeError(`${OP}: ${name} must be a boolean; got ${describeValue(v)}`);
}

/**
 * Attention over numHeads heads of embedDim / numHeads features each (torch.nn.MultiheadAttention).
 * Arguments by position as PyTorch's (embedDim, numHeads, dropout, bias, addBiasKv, addZeroAttn,
 * kdim, vdim, batchFirst), then options. forward returns [output, weights | null].
 * @example const [out, weights] = new tpu.nn.MultiheadAttention(8, 2, { batchFirst: true }).forward(tpu.randn([2, 5, 8]), tpu.randn([2, 6, 8]), tpu.randn([2, 6, 8])); weights!.shape // [2, 5, 6]
 */
export class MultiheadAttention extends Module {
  readonly embedDim: number;
  readonly numHeads: number;
  readonly headDim: number;
  readonly kdim: number;
  readonly vdim: number;
  readonly dropout: number;
  readonly batchFirst: boolean;
  readonly addZeroAttn: boolean;
  // declared in PyTorch's order of registration, which stateDict() follows
  inProjWeight: Tensor | null = null;
  qProjWeight: Tensor | null = null;
  kProjWeight: Tensor | null = null;
  vProjWeight: Tensor | null = null;
  inProjBias: Tensor | null = null;
  outProj: Linear;
  /** addBiasKv's learned key and value [1, 1, E] (PyTorch's bias_k, bias_v). */
  biasK: Tensor | null = null;
  biasV: Tensor | null = null;

  constructor(embedDim: number, numHeads: number, ...rest: (number | boolean | null | undefined | MultiheadAttentionLayerOptions)[]) {
    super();
    const o = layerArguments<MultiheadAttentionOptions>('MultiheadAttention', [embedDim, numHeads, ...rest],
      ['embedDim', 'numHeads', 'dropout', 'bias', 'addBiasKv', 'addZeroAttn', 'kdim', 'vdim', 'batchFirst'], ['dtype']);
    positiveInt(OP, 'embedDim', o.embedDim);
    positiveInt(OP, 'numHeads', o.numHeads);
    const E = o.embedDim!;
    if (E % o.numHeads! !== 0) throw new RangeError(`${OP}: embedDim must be divisible by numHeads; got embedDim ${E}, numHeads ${o.numHeads}`);
    for (const name of ['bias', 'batchFirst', 'addBiasKv', 'addZeroAttn'] as const) checkBoolean(name, o[name]);
    const dropout = o.dropout ?? 0;
    if (typeof dropout !== 'number' || !(dropout >= 0 && dropout <= 1)) throw new RangeError(`${OP}: dropout must be a probability in [0, 1]; got ${describeValue(dropout)}`);
    this.embedDim = E;
    this.numHeads = o.numHeads!;
    this.headDim = E / this.numHeads;
    this.kdim = o.kdim ?? E;
    this.vdim = o.vdim ?? E;
    positiveInt(OP, 'kdim', this.kdim);
    positiveInt(OP, 'vdim', this.vdim);
    this.dropout = dropout;
    this.batchFirst = o.batchFirst ?? false;
    this.addZeroAttn = o.addZeroAttn ?? false;
    const dtype = o.dtype ?? 'float32';
    // xavier_uniform_ as PyTorch initializes them: U(±√(6 / (fanIn + fanOut)))
    const xavier = (rows: number, cols: number) => uniformParameter([rows, cols], Math.sqrt(6 / (rows + cols)), dtype);
    if (this.kdim === E && this.vdim === E) this.inProjWeight = xavier(3 * E, E);
    else {
      this.qProjWeight = xavier(E, E);
      this.kProjWeight = xavier(E, this.kdim);
      this.vProjWeight = xavier(E, this.vdim);
    }
    const bias = o.bias ?? true;
    if (bias) this.inProjBias = constantParameter([3 * E], 0, dtype);
    this.outProj = new Linear(E, E, { bias, dtype });
    if (this.outProj.bias) zeros_(this.outProj.bias);
    if (o.addBiasKv) {
      // xavier_normal_ of [1, 1, E]: N(0, 2 / (E + E))
      this.biasK = normalParameter([1, 1, E], dtype, Math.sqrt(1 / E));
      this.biasV = normalParameter([1, 1, E], dtype, Math.sqrt(1 / E));
    }
  }

  /**
   * Attends query [L, N, E] ([N, L, E] with batchFirst, [L, E] unbatched) to key [S, N, kdim] and
   * value [S, N, vdim]. Options by position too, as PyTorch's (keyPaddingMask, needWeights,
   * attnMask, averageAttnWeights, isCausal).
   * Returns [output like query, weights [N, L, S] (per head: [N, numHeads, L, S]) or null].
   */
  forward(query: Tensor, key: Tensor, value: Tensor, ...args: unknown[]): [Tensor, Tensor | null] {
    const o = byPosition<MultiheadAttentionForwardOptions>(`${OP}.forward`, args, ['keyPaddingMask', 'needWeights', 'attnMask', 'averageAttnWeights', 'isCausal']);
    for (const name of ['needWeights', 'averageAttnWeights', 'isCausal'] as const) checkBoolean(name, o[name]);
    const needWeights = o.needWeights ?? true;
    const { q, k, v, batched } = this.batchFirstInputs(query, key, value);
    const [N, L] = q.shape as [number, number, number];
    const S = k.shape[1]!;
    const sizes: AttentionSizes = { batch: N, heads: this.numHeads, targetLength: L, sourceLength: S, batched };
    // the keys addBiasKv and addZeroAttn append, which every mask lets every query attend
    const extra = (this.biasK ? 1 : 0) + (this.addZeroAttn ? 1 : 0);
    const padded = (m: Tensor) => (extra === 0 ? m : concat([m, filled(OP, [...m.shape.slice(0, -1), extra], m.dtype === 'bool' ? false : 0, m.dtype)], -1));
    const masks: Tensor[] = [];
    const keyPadding = o.keyPaddingMask ?? null;
    const attnMask = o.attnMask ?? null;
    if (o.isCausal && attnMask === null) throw new TypeError(`${OP}: isCausal is a hint that attnMask is the causal mask: give attnMask too (as PyTorch requires)`);
    if (attnMask !== null) {
      const checked = attnMaskFor(OP, attnMask, sizes);
      // PyTorch's SDPA path takes the hint for the mask itself
      // (the causal mask over all S + extra keys, as PyTorch's scaled_dot_product_attention makes it)
      masks.push(o.isCausal && keyPadding === null && !needWeights ? causalMask(OP, { ...sizes, sourceLength: S + extra }) : padded(checked));
    }
    if (keyPadding !== null) masks.push(padded(keyPaddingMaskFor(OP, keyPadding, sizes)));
    const [qp, kp, vp] = this.appendedKeys(...this.project(q, k, v, query === key && key === value) as [Tensor, Tensor, Tensor]);
    const heads = (t: Tensor, length: number) => t.reshape([N, length, this.numHeads, this.headDim]).transpose(1, 2);
    const keys = S + extra;
    const dropoutP = this.training ? this.dropout : 0;
    const weights = attentionProbabilities(heads(qp, L), heads(kp, keys), { masks, safe: !needWeights, dropoutP });
    const attended = weights.matmul(heads(vp, keys)).transpose(1, 2).reshape([N, L, this.embedDim]);
    const out = this.outProj.forward(attended);
    const output = !batched ? out.squeeze(0) : this.batchFirst ? out : out.transpose(0, 1);
    if (!needWeights) return [output, null];
    const shown = o.averageAttnWeights ?? true ? weights.mean(1) : weights;
    return [output, batched ? shown : shown.squeeze(0)];
  }

  /** query, key, value as [N, L or S, features], after their checks. */
  private batchFirstInputs(query: Tensor, key: Tensor, value: Tensor): { q: Tensor; k: Tensor; v: Tensor; batched: boolean } {
    for (const [name, t] of [['query', query], ['key', key], ['value', value]] as const) {
      if (!(t instanceof Tensor)) throw new TypeError(`${OP}: ${name} must be a tensor; got ${describeValue(t)}`);
    }
    if (query.ndim !== 2 && query.ndim !== 3) throw new RangeError(`${OP}: query must be 3-D (batched) or 2-D (unbatched); got ${formatShape(query.shape)}`);
    const batched = query.ndim === 3;
    const layout = !batched ? '[L, E]' : this.batchFirst ? '[N, L, E]' : '[L, N, E]';
    for (const [name, t] of [['key', key], ['value', value]] as const) {
      if (t.ndim !== query.ndim) throw new RangeError(`${OP}: ${name} must be ${query.ndim}-D as query ${formatShape(query.shape)} is; got ${formatShape(t.shape)}`);
    }
    const toBatchFirst = (t: Tensor) => (!batched ? t.unsqueeze(0) : this.batchFirst ? t : t.transpose(0, 1));
    const [q, k, v] = [toBatchFirst(query), toBatchFirst(key), toBatchFirst(value)];
    const features: [string, Tensor, number, string][] = [['query', query, this.embedDim, 'embedDim'], ['key', key, this.kdim, 'kdim'], ['value', value, this.vdim, 'vdim']];
    for (const [name, t, want, what] of features) {
      if (t.shape[t.ndim - 1] !== want) throw new RangeError(`${OP}: ${name} must have ${what} = ${want} features (its last dim, layout ${layout}); got ${formatShape(t.shape)}`);
    }
    if (k.shape[0] !== q.shape[0] || v.shape[0] !== q.shape[0] || k.shape[1] !== v.shape[1]) {
      throw new RangeError(`${OP}: query ${formatShape(query.shape)}, key ${formatShape(key.shape)} and value ${formatShape(value.shape)} must share the batch size N, key and value the length S (layout ${layout})`);
    }
    return { q, k, v, batched };
  }

  /** Projected q, k, v [N, L or S, E] with addBiasKv's key and value and addZeroAttn's zeros appended to k and v, as PyTorch appends them. */
  private appendedKeys(q: Tensor, k: Tensor, v: Tensor): [Tensor, Tensor, Tensor] {
    const [N, , E] = k.shape as [number, number, number];
    if (this.biasK && this.biasV) {
      k = concat([k, this.biasK.expand([N, 1, E])], 1);
      v = concat([v, this.biasV.expand([N, 1, E])], 1);
    }
    if (this.addZeroAttn) {
      k = concat([k, filled(OP, [N, 1, E], 0, k.dtype)], 1);
      v = concat([v, filled(OP, [N, 1, E], 0, v.dtype)], 1);
    }
    return [q, k, v];
  }

  /** The input projections; self-attention (one tensor for all three) takes one matmul. */
  private project(q: Tensor, k: Tensor, v: Tensor, selfAttention: boolean): Tensor[] {
    const E = this.embedDim;
    const b = this.inProjBias;
    const biasPart = (i: number) => (b ? b.narrow(0, i * E, E) : null);
    const w = this.inProjWeight;
    if (w === null) return [linear(q, this.qProjWeight!, biasPart(0)), linear(k, this.kProjWeight!, biasPart(1)), linear(v, this.vProjWeight!, biasPart(2))];
    if (selfAttention) return linear(q, w, b).chunk(3, -1);
    return [q, k, v].map((x, i) => linear(x, w.narrow(0, i * E, E), biasPart(i)));
  }
}
