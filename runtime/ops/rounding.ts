// floor ceil round trunc: integer inputs are returned as they are (PyTorch); round is
// half-to-even like torch.round. Their gradient is zero almost everywhere.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { unary } from './elementwise.js';
import { zerosLike } from './like.js';
import { readOptions } from '../options.js';
import { isFloating } from '../dtype.js';
import { installMethods } from '../install-methods.js';
import { specialized } from '../jit/live-number.js';

function rounding(name: string) {
  return unary(name, {
    rejects: ['bool'],
    grad: (grad) => [zerosLike(grad)],
  });
}

export const floor = rounding('floor');
export const ceil = rounding('ceil');
export const round = rounding('round');
export const trunc = rounding('trunc');

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Rounds down, elementwise.
     * @example x.floor()
     */
    floor(): Tensor;
    /**
     * Rounds up, elementwise.
     * @example x.ceil()
     */
    ceil(): Tensor;
    /**
     * Half to even; { decimals } rounds to that many decimal places (negative: tens, hundreds...).
     * @example
     * tpu.tensor([0.5, 1.5, 2.5]).round() // [0, 2, 2]
     * tpu.tensor([2.345]).round({ decimals: 1 }) // [2.3]
     */
    round(options?: { decimals?: number }): Tensor;
    /**
     * Rounds toward zero, elementwise.
     * @example x.trunc()
     */
    trunc(): Tensor;
    /**
     * The fractional part x - trunc(x), the sign of x; floating-point tensors only, as PyTorch's (torch.frac).
     * @example tpu.tensor([2.5, -1.25]).frac() // [0.5, -0.25]
     */
    frac(): Tensor;
  }
}
installMethods(Object.fromEntries([floor, ceil, trunc].map((op) => [op.name, function (this: Tensor) { return apply(op, [this], {}); }])));

installMethods({
  frac() {
    if (!isFloating(this.dtype)) throw new TypeError(`frac: input must be floating point (float32 or bfloat16), as in PyTorch; got ${this.dtype}`);
    // exact (the fraction of a float is a float of the same precision); the gradient is g
    return this.sub(apply(trunc, [this], {}));
  },
});

/** torch.round(x, decimals=d): round(x·10^d)/10^d (for d < 0: round(x/10^-d)·10^-d), in x's dtype. */
installMethods({
  round(this: Tensor, options?: { decimals?: number }) {
    const decimals = specialized(readOptions<{ decimals: number }>('round', options, ['decimals']).decimals ?? 0);
    if (!Number.isInteger(decimals)) throw new TypeError(`round: decimals must be an integer; got ${JSON.stringify(decimals)}`);
    if (decimals === 0 || !isFloating(this.dtype)) return apply(round, [this], {});
    const scale = 10 ** Math.abs(decimals);
    return decimals > 0 ? apply(round, [this.mul(scale)], {}).div(scale) : apply(round, [this.div(scale)], {}).mul(scale);
  },
});
