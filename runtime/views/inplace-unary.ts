// x.relu_(), x.exp_(), x.sqrt_(), ...: PyTorch's in-place forms of the unary ops, each the op's
// value written back into x (arithmeticInPlace: views and other names of x see it; a leaf that
// requires grad refuses it outside tpu.noGrad, as PyTorch does).
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { arithmeticInPlace } from './inplace-ops.js';

const UNARY = [
  'relu', 'sigmoid', 'tanh', 'exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'sqrt', 'rsqrt', 'square', 'reciprocal',
  'abs', 'neg', 'sign', 'floor', 'ceil', 'round', 'trunc', 'frac', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'erf',
] as const;

type InPlaceUnary = { readonly [K in (typeof UNARY)[number] as `${K}_`]: () => Tensor };

declare module '../tensor.js' {
  /** x.relu_(), x.exp_(), ...: in place, the op's value written into x; returns x (torch.Tensor.relu_ and friends). */
  interface Tensor extends InPlaceUnary {}
}

installMethods(Object.fromEntries(UNARY.map((op) => [`${op}_`, function (this: Tensor) {
  // the gradient of relu, sqrt, ... reads the old value: computed from a copy when it needs one
  return arithmeticInPlace(`${op}_`, this, (self) => self[op](), [this]);
}])) as Partial<Tensor>);
