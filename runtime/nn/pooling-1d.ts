// nn.MaxPool1d and nn.AvgPool1d over the 1-d pooling ops.
import type { Tensor } from '../tensor.js';
import { avgPool1d, maxPool1d, type Pool1dOptions } from '../ops/nn/pooling-1d.js';
import { Module } from './module.js';

/**
 * 1-D max pooling as a layer (torch.nn.MaxPool1d).
 * @example new tpu.nn.MaxPool1d(2).forward(tpu.tensor([[[1, 3, 2, 0]]])) // [[[3, 2]]]
 */
export class MaxPool1d extends Module {
  constructor(readonly kernelSize: number | readonly number[], readonly options: Omit<Pool1dOptions, 'countIncludePad'> = {}) {
    super();
  }

  forward(x: Tensor): Tensor {
    return maxPool1d(x, this.kernelSize, this.options);
  }
}

/**
 * 1-D average pooling as a layer (torch.nn.AvgPool1d).
 * @example new tpu.nn.AvgPool1d(2).forward(tpu.tensor([[[1, 3, 2, 0]]])) // [[[2, 1]]]
 */
export class AvgPool1d extends Module {
  constructor(readonly kernelSize: number | readonly number[], readonly options: Omit<Pool1dOptions, 'dilation'> = {}) {
    super();
  }

  forward(x: Tensor): Tensor {
    return avgPool1d(x, this.kernelSize, this.options);
  }
}
