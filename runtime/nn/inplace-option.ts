// PyTorch's inplace=True of activation and dropout layers: the result written into the input,
// which the layer returns (x.relu_()'s way: views and other names of x see it; a leaf that
// requires grad refuses it, as in PyTorch).
import type { Tensor } from '../tensor.js';
import { arithmeticInPlace } from '../views/inplace-ops.js';

export interface InplaceOption {
  /** Write the result into the input and return it (default false). */
  inplace?: boolean;
}

export function inplaceOption(layer: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`nn.${layer}: inplace must be a boolean; got ${JSON.stringify(value)}`);
  return value;
}

/** toString()'s ", inplace=true" after a layer's other options, when given (PyTorch's repr adds it likewise). */
export const inplaceRepr = (inplace: boolean): string => (inplace ? ', inplace=true' : '');

/** f(x), written into x when `inplace` (computed from a copy of x when its gradient rule needs the old value). */
export function maybeInPlace(inplace: boolean, layer: string, x: Tensor, f: (x: Tensor) => Tensor): Tensor {
  return inplace ? arithmeticInPlace(`nn.${layer}`, x, f, [x]) : f(x);
}
