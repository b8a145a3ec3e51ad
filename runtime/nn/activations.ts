// Activation modules over the runtime's activation ops.
import type { Tensor } from '../tensor.js';
import type { GeluOptions } from '../ops/nn/activations.js';
import { Module } from './module.js';


export class ReLU extends Module {
  forward(x: Tensor): Tensor {
    return x.relu();
  }
}

export class GELU extends Module {
  constructor(readonly options: GeluOptions = {}) {
    super();
  }

  forward(x: Tensor): Tensor {
    return x.gelu(this.options);
  }
}

export class Tanh extends Module {
  forward(x: Tensor): Tensor {
    return x.tanh();
  }
}
