// The one way a file gives Tensor methods: it declares them on `interface Tensor`
// (declaration merging, so callers see their types) and installs their bodies here.
import { Tensor } from './tensor.js';

/** Installs methods on every tensor; in each, `this` is the tensor. A name installed twice throws. */
export function installMethods(methods: Partial<Tensor> & ThisType<Tensor>): void {
  for (const [name, method] of Object.entries(methods)) {
    if (name in Tensor.prototype) throw new Error(`Tensor.${name} is installed twice`);
    Object.defineProperty(Tensor.prototype, name, { value: method, writable: true, configurable: true, enumerable: true });
  }
}

/** Installs read-only properties computed from the tensor (x.T, x.isLeaf). */
export function installGetters(getters: { [K in keyof Tensor as Tensor[K] extends Function ? never : K]?: (this: Tensor) => Tensor[K] }): void {
  for (const [name, get] of Object.entries(getters)) {
    if (name in Tensor.prototype) throw new Error(`Tensor.${name} is installed twice`);
    Object.defineProperty(Tensor.prototype, name, { get, configurable: true });
  }
}
