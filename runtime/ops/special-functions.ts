// lgamma, digamma, polygamma(1, ·) and erfinv: primitives, so each gradient is the next
// function's value (d lgamma = digamma, d digamma = polygamma(1)) rather than the derivative
// of an approximation; each backend lowers them as float32 formulas
// (device/special-functions/). Integer and bool inputs give float32, as PyTorch.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { unary } from './elementwise.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

export const trigammaOp = unary('trigamma', {
  promotesToFloat: true,
  grad: () => {
    throw new RangeError('polygamma: the gradient of polygamma(1, x) (the second derivative of digamma, the third of lgamma) needs polygamma(2, x), which is not implemented');
  },
});

export const digammaOp = unary('digamma', {
  promotesToFloat: true,
  grad: (g, [x]) => [g.mul(apply(trigammaOp, [x!], {}))],
});

export const lgammaOp = unary('lgamma', {
  promotesToFloat: true,
  grad: (g, [x]) => [g.mul(apply(digammaOp, [x!], {}))],
});

export const erfinvOp = unary('erfinv', {
  promotesToFloat: true,
  // d erfinv(x) = √π / 2 · exp(erfinv(x)²)
  grad: (g, _x, out) => [g.mul(out.square().exp().mul(Math.sqrt(Math.PI) / 2))],
});

/**
 * The n-th derivative of digamma (torch.polygamma) for n = 0 (digamma) and n = 1.
 * @example tpu.polygamma(1, tpu.tensor([1])) // [1.6449] (π²/6)
 */
export function polygamma(n: number, x: Tensor): Tensor {
  tensorArg('polygamma', 'input', x);
  n = specialized(n);
  if (n === 0) return apply(digammaOp, [x], {});
  if (n === 1) return apply(trigammaOp, [x], {});
  throw new RangeError(`polygamma: n must be 0 or 1 (higher orders are not implemented); got ${JSON.stringify(n)}`);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * log |Γ(x)|, +inf at 0 and the negative integers (torch.lgamma).
     * @example tpu.tensor([0.5, 3]).lgamma() // [0.5724, 0.6931]
     */
    lgamma(): Tensor;
    /**
     * ψ(x) = d/dx log Γ(x) (torch.digamma); its gradient is polygamma(1, x).
     * @example tpu.tensor([1]).digamma() // [-0.5772]
     */
    digamma(): Tensor;
    /**
     * The n-th derivative of digamma, n 0 or 1 (torch.polygamma; x.polygamma(n)).
     * @example tpu.tensor([1]).polygamma(1) // [1.6449]
     */
    polygamma(n: number): Tensor;
    /**
     * The inverse of erf: ±inf at ±1, NaN outside [-1, 1] (torch.erfinv).
     * @example tpu.tensor([0, 0.5]).erfinv() // [0, 0.4769]
     */
    erfinv(): Tensor;
  }
}
installMethods({
  lgamma() { return apply(lgammaOp, [this], {}); },
  digamma() { return apply(digammaOp, [this], {}); },
  polygamma(n) { return polygamma(n, this); },
  erfinv() { return apply(erfinvOp, [this], {}); },
});
