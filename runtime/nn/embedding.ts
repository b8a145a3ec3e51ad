// nn.Embedding: rows of a [numEmbeddings, dim] table picked by int32 indices, N(0, 1) init.
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { embedding } from '../ops/nn/attention.js';
import { Module } from './module.js';
import { normalParameter } from './init.js';
import { checkPositiveInt } from './checks.js';

/**
 * A lookup table of num vectors of size dim (torch.nn.Embedding).
 * @example const emb = new tpu.nn.Embedding(1000, 64); emb.forward(ids)
 */
export class Embedding extends Module {
  weight: Tensor;

  constructor(readonly numEmbeddings: number, readonly embeddingDim: number, options: { dtype?: DType } = {}) {
    super();
    readOptions<{ dtype?: DType }>('nn.Embedding', options, ['dtype']);
    checkPositiveInt('Embedding', 'numEmbeddings', numEmbeddings);
    checkPositiveInt('Embedding', 'embeddingDim', embeddingDim);
    this.weight = normalParameter([numEmbeddings, embeddingDim], options.dtype ?? 'float32');
  }

  forward(indices: Tensor): Tensor {
    return embedding(indices, this.weight);
  }

  protected override extraRepr(): string {
    return `${this.numEmbeddings}, ${this.embeddingDim}`;
  }
}
