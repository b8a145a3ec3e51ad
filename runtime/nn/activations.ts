// Activation modules over the runtime's activation ops.
import type { Tensor } from '../tensor.js';
import type { GeluOptions } from '../ops/nn/activations.js';
import { Module } from './module.js';


/**
 * max(x, 0) as a layer (torch.nn.ReLU).
 * @example new tpu.nn.Sequential(new tpu.nn.Linear(4, 8), new tpu.nn.ReLU())
 */
export class ReLU extends Module {
  forward(x: Tensor): Tensor {
    return x.relu();
  }
}

/**
 * GELU as a layer (torch.nn.GELU).
 * @example new tpu.nn.GELU().forward(x)
 */
export class GELU extends Module {
  constructor(readonly options: GeluOptions = {}) {
    super();
  }

  forward(x: Tensor): Tensor {
    return x.gelu(this.options);
  }
}

/**
 * tanh as a layer (torch.nn.Tanh).
 * @example new tpu.nn.Tanh().forward(x)
 */
export class Tanh extends Module {
  forward(x: Tensor): Tensor {
    return x.tanh();
  }
}
