// nn.Embedding: rows of a [numEmbeddings, dim] table picked by int32 indices, N(0, 1) init.
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { embedding, paddingRow } from '../ops/nn/attention.js';
import { noGrad } from '../autograd/grad-mode.js';
import { Module } from './module.js';
import { normalParameter } from './init.js';
import { positiveInt } from './checks.js';
import { renormOptions } from '../ops/nn/embedding-renorm.js';
import { specializedOptions } from '../jit/live-number.js';

/**
 * A lookup table of num vectors of size dim (torch.nn.Embedding).
 * @example const emb = new tpu.nn.Embedding(1000, 64); emb.forward(ids)
 */
export class Embedding extends Module {
  weight: Tensor;
  /** The row that gets no gradient, zeros at first (PyTorch's padding_idx, resolved to 0..num-1); null for none. */
  readonly paddingIdx: number | null;
  /** Picked rows of a norm above it are scaled down to it in weight at each lookup (PyTorch's max_norm); null for none. */
  readonly maxNorm: number | null;
  readonly normType: number;

  readonly numEmbeddings: number;
  readonly embeddingDim: number;

  constructor(numEmbeddings: number, embeddingDim: number, options: EmbeddingModuleOptions = {}) {
    super();
    readOptions<EmbeddingModuleOptions>('nn.Embedding', options, ['dtype', 'paddingIdx', 'maxNorm', 'normType']);
    options = specializedOptions(options);
    numEmbeddings = this.numEmbeddings = positiveInt('Embedding', 'numEmbeddings', numEmbeddings);
    embeddingDim = this.embeddingDim = positiveInt('Embedding', 'embeddingDim', embeddingDim);
    this.paddingIdx = paddingRow('nn.Embedding', options.paddingIdx, numEmbeddings);
    const renorm = renormOptions('nn.Embedding', options.maxNorm, options.normType);
    this.maxNorm = renorm?.maxNorm ?? null;
    this.normType = renorm?.normType ?? 2;
    this.weight = normalParameter([numEmbeddings, embeddingDim], options.dtype ?? 'float32');
    const row = this.paddingIdx;
    if (row !== null) noGrad(() => this.weight.at(row).zero_());
  }

  forward(indices: Tensor): Tensor {
    return embedding(indices, this.weight, { paddingIdx: this.paddingIdx, maxNorm: this.maxNorm, normType: this.maxNorm === null ? undefined : this.normType });
  }

  protected override extraRepr(): string {
    const maxNorm = this.maxNorm === null ? '' : `, maxNorm=${this.maxNorm}${this.normType === 2 ? '' : `, normType=${this.normType}`}`;
    return `${this.numEmbeddings}, ${this.embeddingDim}${this.paddingIdx === null ? '' : `, paddingIdx=${this.paddingIdx}`}${maxNorm}`;
  }
}

export interface EmbeddingModuleOptions {
  dtype?: DType;
  /** The row that gets no gradient and starts as zeros (PyTorch's padding_idx; negative counts from the end). */
  paddingIdx?: number;
  /** Picked rows of a norm above it are scaled down to it in weight at each lookup (PyTorch's max_norm). */
  maxNorm?: number;
  /** The p of maxNorm's norm (2, PyTorch's norm_type). */
  normType?: number;
}
