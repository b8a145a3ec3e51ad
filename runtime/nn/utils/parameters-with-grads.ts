// The `parameters` argument of tpu.nn.utils' gradient clipping, read as PyTorch reads it: one
// tensor or an iterable of them (module.parameters(): plain tensors, DTensors, DDP's replicas,
// fullyShard's DTensors), those whose gradient is null left out.
import { Tensor } from '../../tensor.js';
import { DTensor } from '../../distributed/dtensor.js';
import { describeValue } from '../../distributed/describe-value.js';

export type Parameters = Tensor | DTensor | Iterable<Tensor | DTensor>;

/** The parameters that have a gradient; an error names `parameters` (and the bad item's index) otherwise. */
export function parametersWithGrads(who: string, parameters: unknown): (Tensor | DTensor)[] {
  const one = parameters instanceof Tensor || parameters instanceof DTensor;
  const iterable = typeof parameters === 'object' && parameters !== null && Symbol.iterator in parameters;
  if (!one && !iterable) throw new TypeError(`${who}: parameters must be a tensor or an iterable of tensors (model.parameters()); got ${describeValue(parameters)}`);
  const list = one ? [parameters] : [...(parameters as Iterable<unknown>)];
  list.forEach((p, i) => {
    if (!(p instanceof Tensor || p instanceof DTensor)) throw new TypeError(`${who}: parameters[${i}] must be a tensor or a DTensor; got ${describeValue(p)}`);
  });
  return (list as (Tensor | DTensor)[]).filter((p) => gradOf(p) !== null);
}

/** p's gradient as runtime code reads it (not handed out, so zeroGrad still frees it at once). */
export function gradOf(p: Tensor | DTensor): Tensor | DTensor | null {
  return p instanceof DTensor ? p._gradValue() : p._grad;
}
