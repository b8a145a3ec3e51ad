// A tensor given a value of another dtype or on another chip in place, keeping its identity, as
// PyTorch's Module.to does (`param.data = param.to(...)`): the modules, optimizers and compiled
// functions holding the tensor hold the converted one. The pending region runs first (its
// recipes read the old value as it was), compiled functions trace again (their programs take the
// old dtype and chip), and views taken before keep their values (converted-bases.ts).
import type { Tensor } from '../tensor.js';
import type { DType } from '../dtype.js';
import { flushRegion } from '../modes/mode.js';
import { materialize } from '../modes/materialize.js';
import { adopt } from '../modes/adopt.js';
import { noGrad } from '../autograd/grad-mode.js';
import { noteReplacement, tracing } from '../jit/trace-record.js';
import { noteConverted } from './converted-bases.js';

export function convertInPlace(who: string, t: Tensor, dtype: DType, chip: number): void {
  if (t.dtype === dtype && t.chip === chip) return;
  if (t.disposed) throw new ReferenceError(`${who}: the tensor ${t.describe()} was disposed`);
  if (tracing()) throw new Error(`${who}: converting ${t.describe()} to ${dtype} on tpu:${chip} inside a function tpu.compile traces; call it before the compiled function`);
  const value = noGrad(() => t.to({ dtype, device: `tpu:${chip}` }));
  flushRegion(who);
  materialize(value, who);
  adopt(t, value);
  // dtype and chip are fixed for every other tensor: only this conversion changes them
  const fields = t as { dtype: DType; chip: number };
  fields.dtype = dtype;
  fields.chip = chip;
  t._strides = value._strides;
  t._remake = null;
  // its own storage now: no longer a view of anything
  t._viewOf = undefined;
  t._versionOf = undefined;
  t._version++;
  noteConverted(t);
  noteReplacement();
}
