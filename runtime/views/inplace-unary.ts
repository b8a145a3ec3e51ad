// x.relu_(), x.exp_(), x.sqrt_(), ...: PyTorch's in-place forms of the unary ops, each the op's
// value written back into x (arithmeticInPlace: views and other names of x see it; a leaf that
// requires grad refuses it outside tpu.noGrad, as PyTorch does).
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { arithmeticInPlace } from './inplace-ops.js';
import { describeValue } from '../distributed/describe-value.js';

declare module '../tensor.js' {
  interface Tensor {
    /** In place: max(x, 0); returns x (torch.Tensor.relu_). @example tpu.tensor([-1, 2]).relu_() // [0, 2] */
    relu_(): Tensor;
    /** In place: 1 / (1 + e^-x); returns x (torch.Tensor.sigmoid_). @example tpu.tensor([0]).sigmoid_() // [0.5] */
    sigmoid_(): Tensor;
    /** In place: tanh; returns x (torch.Tensor.tanh_). @example tpu.tensor([0]).tanh_() // [0] */
    tanh_(): Tensor;
    /** In place: e^x; returns x (torch.Tensor.exp_). @example tpu.tensor([0]).exp_() // [1] */
    exp_(): Tensor;
    /** In place: e^x - 1; returns x (torch.Tensor.expm1_). @example tpu.tensor([0]).expm1_() // [0] */
    expm1_(): Tensor;
    /** In place: the natural log; returns x (torch.Tensor.log_). @example tpu.tensor([1]).log_() // [0] */
    log_(): Tensor;
    /** In place: log(1 + x); returns x (torch.Tensor.log1p_). @example tpu.tensor([0]).log1p_() // [0] */
    log1p_(): Tensor;
    /** In place: the base-2 log; returns x (torch.Tensor.log2_). @example tpu.tensor([8]).log2_() // [3] */
    log2_(): Tensor;
    /** In place: the base-10 log; returns x (torch.Tensor.log10_). @example tpu.tensor([100]).log10_() // [2] */
    log10_(): Tensor;
    /** In place: the square root; returns x (torch.Tensor.sqrt_). @example tpu.tensor([4, 9]).sqrt_() // [2, 3] */
    sqrt_(): Tensor;
    /** In place: 1 / sqrt(x); returns x (torch.Tensor.rsqrt_). @example tpu.tensor([4]).rsqrt_() // [0.5] */
    rsqrt_(): Tensor;
    /** In place: x²; returns x (torch.Tensor.square_). @example tpu.tensor([-3]).square_() // [9] */
    square_(): Tensor;
    /** In place: 1 / x; returns x (torch.Tensor.reciprocal_). @example tpu.tensor([4]).reciprocal_() // [0.25] */
    reciprocal_(): Tensor;
    /** In place: |x|; returns x (torch.Tensor.abs_). @example tpu.tensor([-2, 3]).abs_() // [2, 3] */
    abs_(): Tensor;
    /** In place: -x; returns x (torch.Tensor.neg_). @example tpu.tensor([2]).neg_() // [-2] */
    neg_(): Tensor;
    /** In place: the sign (-1, 0, 1); returns x (torch.Tensor.sign_). @example tpu.tensor([-2, 0, 3]).sign_() // [-1, 0, 1] */
    sign_(): Tensor;
    /** In place: rounded down; returns x (torch.Tensor.floor_). @example tpu.tensor([1.5, -1.5]).floor_() // [1, -2] */
    floor_(): Tensor;
    /** In place: rounded up; returns x (torch.Tensor.ceil_). @example tpu.tensor([1.5, -1.5]).ceil_() // [2, -1] */
    ceil_(): Tensor;
    /**
     * In place: rounded half to even, to `decimals` places (default 0) as round; returns x (torch.Tensor.round_).
     * @example tpu.tensor([0.5, 1.5]).round_() // [0, 2]
     * @example tpu.tensor([1.25, 2.375]).round_({ decimals: 1 }) // [1.2, 2.4]
     */
    round_(options?: { decimals?: number }): Tensor;
    /** In place: rounded toward zero; returns x (torch.Tensor.trunc_). @example tpu.tensor([1.5, -1.5]).trunc_() // [1, -1] */
    trunc_(): Tensor;
    /** In place: x - trunc(x); returns x (torch.Tensor.frac_). @example tpu.tensor([1.25]).frac_() // [0.25] */
    frac_(): Tensor;
    /** In place: the sine; returns x (torch.Tensor.sin_). @example tpu.tensor([0]).sin_() // [0] */
    sin_(): Tensor;
    /** In place: the cosine; returns x (torch.Tensor.cos_). @example tpu.tensor([0]).cos_() // [1] */
    cos_(): Tensor;
    /** In place: the tangent; returns x (torch.Tensor.tan_). @example tpu.tensor([0]).tan_() // [0] */
    tan_(): Tensor;
    /** In place: the arcsine; returns x (torch.Tensor.asin_). @example tpu.tensor([0]).asin_() // [0] */
    asin_(): Tensor;
    /** In place: the arccosine; returns x (torch.Tensor.acos_). @example tpu.tensor([1]).acos_() // [0] */
    acos_(): Tensor;
    /** In place: the arctangent; returns x (torch.Tensor.atan_). @example tpu.tensor([0]).atan_() // [0] */
    atan_(): Tensor;
    /** In place: the hyperbolic sine; returns x (torch.Tensor.sinh_). @example tpu.tensor([0]).sinh_() // [0] */
    sinh_(): Tensor;
    /** In place: the hyperbolic cosine; returns x (torch.Tensor.cosh_). @example tpu.tensor([0]).cosh_() // [1] */
    cosh_(): Tensor;
    /** In place: the error function; returns x (torch.Tensor.erf_). @example tpu.tensor([0]).erf_() // [0] */
    erf_(): Tensor;
  }
}

const UNARY = ['relu', 'sigmoid', 'tanh', 'exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'sqrt', 'rsqrt', 'square', 'reciprocal', 'abs', 'neg', 'sign', 'floor', 'ceil', 'round', 'trunc', 'frac', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'erf'] as const;

installMethods(Object.fromEntries(UNARY.map((op) => [`${op}_`, function (this: Tensor, ...args: unknown[]) {
  // round_ passes round's { decimals } on; an argument to any other would be dropped unread
  if (op === 'round') return arithmeticInPlace('round_', this, (self) => self.round(args[0] as { decimals?: number } | undefined), [this]);
  if (args.length > 0) throw new TypeError(`${op}_: takes no arguments, as torch.Tensor.${op}_; got ${args.map(describeValue).join(', ')}`);
  // the gradient of relu, sqrt, ... reads the old value: computed from a copy when it needs one
  return arithmeticInPlace(`${op}_`, this, (self) => self[op](), [this]);
}])) as Partial<Tensor>);
