// gelu and silu, composed. bfloat16 inputs are computed in float32 and rounded once at the
// end (as PyTorch's kernels do). The constants are program constants, so the graph matches
// ONNX Runtime's Gelu fusion pattern and runs as one Gelu kernel in a fused program.
import { readOptions } from '../../options.js';
import { Tensor } from '../../tensor.js';
import { scalarConstant } from '../constant.js';
import { composite } from '../../modes/composite.js';
import { ownInput } from '../identity.js';
import { installMethods } from '../../install-methods.js';
import { isFloating } from '../../dtype.js';

export interface GeluOptions {
  /** 'none' (default): exact, with erf; 'tanh': the tanh approximation. */
  approximate?: 'none' | 'tanh';
}

/**
 * Runs op's body f in float32 for a bfloat16 input, rounding the result back once. Integer and
 * bool inputs are an error, as in PyTorch (its kernels for these ops have no integer version).
 */
export function inFloat32(op: string, x: Tensor, f: (x: Tensor) => Tensor): Tensor {
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: input must be a floating-point tensor (float32 or bfloat16), as in PyTorch; got ${x.dtype}. Cast it first: x.to('float32')`);
  if (x.dtype === 'float32') return f(ownInput(x));
  return f(x.to('float32')).to('bfloat16');
}

/**
 * An empty input of softmax or logSoftmax, as PyTorch returns it (a copy), whatever its dtype
 * and whichever dim is empty: its kernel, which refuses integer dtypes, never runs on no
 * elements, and a row of no elements has no max to shift by ([3, 0] over dim 1 is [3, 0]).
 * Undefined for any other input.
 */
export function emptyPassesThrough(x: Tensor): Tensor | undefined {
  return x.numel() === 0 ? x.clone() : undefined;
}

const c = (v: number) => scalarConstant(v, 'float32');

/**
 * Gaussian error linear unit (torch.nn.functional.gelu).
 * @example tpu.nn.functional.gelu(x)
 */
export function gelu(x: Tensor, opts: GeluOptions = {}): Tensor {
  readOptions<GeluOptions>('gelu', opts, ['approximate']);
  const mode = opts.approximate ?? 'none';
  if (mode !== 'none' && mode !== 'tanh') throw new TypeError(`gelu: approximate must be 'none' or 'tanh'; got ${JSON.stringify(mode)}`);
  return composite('gelu', () => inFloat32('gelu', x, (v) => {
    if (mode === 'none') {
      // PyTorch's kernel gives NaN at +inf (its vectorized erf path; -inf is NaN by the formula):
      // v - v is NaN at ±inf and +0 elsewhere, and y - (+0) keeps every y, -0 too. Elementwise
      // only, so the generated loops still take it (a where would not). x / √2, not x·(1/√2):
      // ONNX Runtime fuses this form into its Gelu kernel when the program runs there.
      const y = v.div(c(Math.SQRT2)).erf().add(c(1)).mul(v).mul(c(0.5));
      return y.sub(v.sub(v));
    }
    // (0.5·x)·(1 + tanh(√(2/π)·(x + 0.044715·x³))): halved first, as PyTorch, so x near the
    // float32 maximum (x³ overflows, tanh is 1) stays x instead of overflowing to inf.
    const inner = v.mul(v).mul(v).mul(c(0.044715)).add(v).mul(c(Math.sqrt(2 / Math.PI)));
    return v.mul(c(0.5)).mul(inner.tanh().add(c(1)));
  }));
}

/**
 * x * sigmoid(x) (torch.nn.functional.silu).
 * @example tpu.nn.functional.silu(x)
 */
export function silu(x: Tensor): Tensor {
  return composite('silu', () => inFloat32('silu', x, (v) => v.mul(v.sigmoid())));
}

declare module '../../tensor.js' {
  interface Tensor {
    /**
     * Gaussian error linear unit (torch.nn.functional.gelu).
     * @example x.gelu()
     */
    gelu(opts?: GeluOptions): Tensor;
    /**
     * x * sigmoid(x) (torch.nn.functional.silu).
     * @example x.silu()
     */
    silu(): Tensor;
  }
}
installMethods({
  gelu(opts) { return gelu(this, opts); },
  silu() { return silu(this); },
});
