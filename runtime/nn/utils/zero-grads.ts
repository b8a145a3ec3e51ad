// zeroGrad's two ways, as PyTorch's zero_grad(set_to_none=...): drop each gradient (the
// default, autograd/release-grad.ts), or keep it and write zeros into it, so that a step taken
// before the next backward still sees a gradient (momentum and weight decay move the
// parameter, as in PyTorch).
import { Tensor } from '../../tensor.js';
import { DTensor } from '../../distributed/dtensor.js';
import { hasWholeGrads } from '../../distributed/dtensor-grad.js';
import { noGrad } from '../../autograd/grad-mode.js';
import { releaseGrad } from '../../autograd/release-grad.js';
import { readOptions } from '../../options.js';

export interface ZeroGradOptions {
  /** Set each .grad to null (default true); false writes zeros into the gradients instead. */
  setToNone?: boolean;
}

/** Reads zeroGrad's argument: PyTorch's `zero_grad(False)` or `zero_grad(set_to_none=False)`. */
function readSetToNone(who: string, arg: boolean | ZeroGradOptions | undefined): boolean {
  const value = typeof arg === 'boolean' ? arg : readOptions<ZeroGradOptions>(who, arg, ['setToNone']).setToNone ?? true;
  if (typeof value !== 'boolean') throw new TypeError(`${who}: setToNone must be a boolean; got ${JSON.stringify(value)}`);
  return value;
}

/** Clears the gradients of `params` as zeroGrad(options) asks. */
export function zeroGrads(who: string, params: Iterable<Tensor | DTensor>, arg: boolean | ZeroGradOptions | undefined): void {
  const setToNone = readSetToNone(who, arg);
  for (const p of params) {
    if (setToNone) {
      if (p instanceof Tensor) releaseGrad(p);
      else p.grad = null;
    } else {
      // a DTensor's .grad is built from its pieces' and cached: zeroing them in place would go
      // unseen, unless its pieces' gradients are its own (fullyShard's)
      if (p instanceof DTensor && !hasWholeGrads(p)) throw new TypeError(`${who}: setToNone: false is not supported for DTensor parameters; call ${who}() (PyTorch's default, set_to_none=True)`);
      for (const t of p instanceof DTensor ? p.localTensors() : [p]) noGrad(() => t._grad?.zero_());
    }
  }
}
