// Activation modules and GELU.
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

/** GELU, exact (erf) form as PyTorch's default: 0.5·x·(1 + erf(x/√2)). */
export function gelu(x: Tensor): Tensor {
  return x.mul(x.mul(Math.SQRT1_2).erf().add(1)).mul(0.5);
}

export class ReLU extends Module {
  forward(x: Tensor): Tensor {
    return x.relu();
  }
}

export class GELU extends Module {
  forward(x: Tensor): Tensor {
    return gelu(x);
  }
}

export class Tanh extends Module {
  forward(x: Tensor): Tensor {
    return x.tanh();
  }
}
