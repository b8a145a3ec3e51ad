// Module.to(dtype): every floating parameter and buffer of a module tree cast to a floating
// dtype, as PyTorch's nn.Module.to. A tensor's dtype is fixed here, so each one cast is a new
// tensor put in its place (requiresGrad, parameter status and .grad carried over; a tensor held
// twice, a tied weight, replaced once): an optimizer must be made after .to(), which
// refuseReplaced enforces.
import { assertDType, isFloating, type DType } from '../dtype.js';
import { isOptions, readOptions } from '../options.js';
import { Tensor } from '../tensor.js';
import { keep } from '../scope.js';
import { noGrad } from '../autograd/grad-mode.js';
import { setRequiresGrad } from '../autograd/tensor-methods.js';
import { DTensor } from '../distributed/dtensor.js';
import { isParameter, markParameter, noteReplacedByTo } from './registered-parameters.js';

/** Module.to's argument: a dtype, or `{ dtype }`, as Tensor.to takes it. */
export function moduleDType(arg: unknown): DType {
  const dtype = assertDType(isOptions(arg) ? readOptions<{ dtype: DType }>('Module.to', arg, ['dtype']).dtype : arg, 'Module.to');
  if (!isFloating(dtype)) throw new TypeError(`Module.to: dtype must be a floating-point dtype (float32, bfloat16), as PyTorch's nn.Module.to; got ${dtype}`);
  return dtype;
}

function cast(t: Tensor, dtype: DType): Tensor {
  const out = keep(noGrad(() => t.to(dtype)));
  if (t.requiresGrad) setRequiresGrad(out, true, 'Module.to');
  if (isParameter(t)) markParameter(out);
  const g = t._grad;
  if (g && !g.disposed) out.grad = keep(noGrad(() => g.to(dtype)));
  noteReplacedByTo(t, dtype);
  return out;
}

/** Casts the floating tensors held by `modules` (each module once; their own properties) to `dtype` in place of the old ones. */
export function castModules(modules: readonly object[], dtype: DType): void {
  const made = new Map<Tensor, Tensor>();
  for (const m of modules) {
    for (const [k, v] of Object.entries(m)) {
      if (v instanceof DTensor && v.dtype !== dtype) {
        throw new TypeError(`Module.to: '${k}' is a DTensor of dtype ${v.dtype}: casting a sharded parameter is not supported; call .to() before distributing the module`);
      }
      if (!(v instanceof Tensor) || v._gradNode !== null || !isFloating(v.dtype) || v.dtype === dtype) continue;
      let out = made.get(v);
      if (!out) made.set(v, (out = cast(v, dtype)));
      (m as unknown as Record<string, Tensor>)[k] = out;
    }
  }
}
