// nn.Embedding: rows of a [numEmbeddings, dim] table picked by int32 indices, N(0, 1) init.
// The lookup is a one-hot matmul, so its gradient (a scatter-add) comes from matmul's.
import type { DType } from '../dtype.js';
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { Module } from './module.js';
import { normalParameter } from './init.js';
import { checkPositiveInt } from './checks.js';
import { oneHot } from './functional.js';

export class Embedding extends Module {
  weight: Tensor;

  constructor(readonly numEmbeddings: number, readonly embeddingDim: number, options: { dtype?: DType } = {}) {
    super();
    checkPositiveInt('Embedding', 'numEmbeddings', numEmbeddings);
    checkPositiveInt('Embedding', 'embeddingDim', embeddingDim);
    this.weight = normalParameter([numEmbeddings, embeddingDim], options.dtype ?? 'float32');
  }

  forward(indices: Tensor): Tensor {
    if (!(indices instanceof Tensor) || indices.dtype !== 'int32') {
      throw new TypeError(`Embedding: indices must be an int32 tensor; got ${indices instanceof Tensor ? indices.dtype + ' ' + formatShape(indices.shape) : typeof indices}`);
    }
    const rows = oneHot(indices.reshape([-1]), this.numEmbeddings).to(this.weight.dtype).matmul(this.weight);
    return rows.reshape([...indices.shape, this.embeddingDim]);
  }

  protected override extraRepr(): string {
    return `${this.numEmbeddings}, ${this.embeddingDim}`;
  }
}
