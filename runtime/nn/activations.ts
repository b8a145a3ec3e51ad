// Activation modules and GELU.
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

/**
 * GELU, tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) (PyTorch's
 * approximate='tanh'; within 1e-3 of the erf form).
 */
export function gelu(x: Tensor): Tensor {
  const inner = x.mul(x).mul(x).mul(0.044715).add(x).mul(SQRT_2_OVER_PI);
  return x.mul(inner.tanh().add(1)).mul(0.5);
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
