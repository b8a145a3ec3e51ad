// The flat positions of a bool mask's true values: the length of x[mask], masked_select and
// nonzero, which only the device knows. Eager modes read the mask (one sync, as PyTorch's
// nonzero on an accelerator; in fused mode the pending region runs first and the profile names
// the cut "the mask read of <op>"). tpu.compile, whose programs have static shapes, has no mask
// values while it traces: there it is an error naming what to use instead.
import type { HostArray } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { tracing } from '../jit/trace-record.js';

/** What an op whose result is sized by a mask's count says under tpu.compile. */
export interface CountedBy {
  /** The count, as the message names it: "the mask's count of true values". */
  readonly count: string;
  /** What to write instead, inside or outside the compiled function. */
  readonly instead: string;
}

/**
 * The values of `t`, read from the device because they size `op`'s result (`what`: "the mask",
 * "the input"); under tpu.compile an error naming what to use instead.
 */
export function readSizingValues(op: string, t: Tensor, what: string, countedBy: CountedBy): HostArray {
  if (tracing()) {
    throw new RangeError(`${op}: the result's length is ${countedBy.count}, which tpu.compile does not have while tracing ` +
      `(a compiled function is one program of static shapes): ${countedBy.instead}`);
  }
  return t._readSync(`the ${what} read of ${op}`);
}

/** The positions (row-major) where the bool `mask` is true, read from the device. */
export function truePositions(op: string, mask: Tensor, countedBy: CountedBy): Int32Array {
  const values = readSizingValues(op, mask, 'mask', countedBy);
  let count = 0;
  for (let i = 0; i < values.length; i++) if (values[i]) count++;
  const positions = new Int32Array(count);
  for (let i = 0, k = 0; k < count; i++) if (values[i]) positions[k++] = i;
  return positions;
}
