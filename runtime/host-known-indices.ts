// The values of small int32 and int64 tensors uploaded from the host (index tensors written as
// tpu.tensor([...], { dtype: 'int32' }), tpu.arange(n)): index ops check them at the call, in every mode, with
// an error naming the op, the bad index and the valid range. Other indices are device data
// and fail on the device.
import type { DeviceBuffer } from './device/memory.js';
import type { Tensor } from './tensor.js';

/** Larger uploads are not remembered (the copy would cost more than it saves). */
export const HOST_KNOWN_MAX = 4096;

const known = new WeakMap<Tensor, { buf: DeviceBuffer; values: ArrayLike<number> }>();

export function noteHostValues(t: Tensor, values: ArrayLike<number>): void {
  if (t._buf) known.set(t, { buf: t._buf, values });
}

/** The values, while the tensor still holds the buffer they were uploaded to (no in-place update since). */
function hostValues(t: Tensor): ArrayLike<number> | undefined {
  const k = known.get(t);
  return k && t._buf === k.buf && t._node === null && !t.disposed ? k.values : undefined;
}

/**
 * Throws when a host-known index is outside [low, size): low = -size where negative indices
 * count from the end (advanced indexing), 0 where PyTorch refuses them. `skip` is a value
 * that is always allowed (crossEntropy's ignoreIndex).
 */
export function checkHostIndices(op: string, what: string, index: Tensor, size: number, negativesWrap: boolean, skip?: number): void {
  const values = hostValues(index);
  if (!values) return;
  const low = negativesWrap ? -size : 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if ((v >= low && v < size) || v === skip) continue;
    const why = v < 0 && !negativesWrap && v >= -size ? ' (negative indices are errors here, as in PyTorch)' : '';
    throw new RangeError(`${op}: ${what} ${v} at position ${i} is out of range [${low}, ${size - 1}]${why}`);
  }
}
