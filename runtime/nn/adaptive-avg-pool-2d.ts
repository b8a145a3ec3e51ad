// nn.AdaptiveAvgPool2d over the adaptiveAvgPool2d op.
import type { Tensor } from '../tensor.js';
import { adaptiveAvgPool2d } from '../ops/nn/adaptive-avg-pool.js';
import { Module } from './module.js';

/**
 * Average pooling to a fixed output size (torch.nn.AdaptiveAvgPool2d).
 * @example new tpu.nn.AdaptiveAvgPool2d(1).forward(tpu.randn([2, 3, 8, 8])).shape // [2, 3, 1, 1]
 */
export class AdaptiveAvgPool2d extends Module {
  constructor(readonly outputSize: number | readonly (number | null)[]) {
    super();
  }

  forward(x: Tensor): Tensor {
    return adaptiveAvgPool2d(x, this.outputSize);
  }
}
