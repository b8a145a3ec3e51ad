// nn.Sequential: modules applied in order; parameters named 0.weight, 1.bias, ...
import { Tensor } from '../tensor.js';
import { Module } from './module.js';

/**
 * Layers applied in order (torch.nn.Sequential).
 * @example const model = new tpu.nn.Sequential(new tpu.nn.Linear(4, 8), new tpu.nn.ReLU(), new tpu.nn.Linear(8, 1))
 */
export class Sequential extends Module {
  readonly layers: Module[];
  /** model[i]: the i-th layer, as PyTorch's Sequential indexing. */
  readonly [index: number]: Module;

  constructor(...layers: Module[]) {
    super();
    layers.forEach((m, i) => {
      if (!(m instanceof Module)) throw new TypeError(`Sequential: argument ${i} must be a Module; got ${m === null ? 'null' : typeof m}`);
    });
    this.layers = layers;
    // model[0] as PyTorch's indexing; not enumerable, so the layers are named once (0.weight, not layers.0.weight)
    layers.forEach((_, i) => Object.defineProperty(this, i, { get: () => this.layers[i], enumerable: false, configurable: true }));
  }

  /** The number of layers (len(model)). */
  get length(): number {
    return this.layers.length;
  }

  override namedChildren(): [string, Module][] {
    return this.layers.map((m, i) => [String(i), m]);
  }

  forward(x: Tensor): Tensor {
    if (!(x instanceof Tensor)) throw new TypeError(`Sequential: input must be a tensor; got ${typeof x}`);
    return this.layers.reduce((h, m) => m.forward(h), x);
  }
}
