// Argument checks shared by the layers: errors name the layer, the argument and the value.
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';

export function checkPositiveInt(layer: string, arg: string, v: unknown): void {
  if (!Number.isInteger(v) || (v as number) < 1) throw new RangeError(`${layer}: ${arg} must be a positive integer; got ${JSON.stringify(v)}`);
}

/** The input is a tensor whose dim `dim` has size `size`. */
export function checkInput(layer: string, x: unknown, dim: number, size: number): asserts x is Tensor {
  if (!(x instanceof Tensor)) throw new TypeError(`${layer}: input must be a tensor; got ${x === null ? 'null' : typeof x}`);
  const actual = x.shape[dim < 0 ? x.ndim + dim : dim];
  if (actual !== size) {
    throw new RangeError(`${layer}: input dim ${dim} must be ${size}; got input of shape ${formatShape(x.shape)}`);
  }
}
