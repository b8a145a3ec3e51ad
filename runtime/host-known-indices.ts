// The values of small integer tensors uploaded from the host (index tensors written as
// tpu.tensor([...], { dtype: 'int64' }), an Int32Array, tpu.arange): index ops check them at the call, in every mode, with
// an error naming the op, the bad index and the valid range. Other indices are device data
// and fail on the device.
import type { DeviceBuffer } from './device/memory.js';
import type { Tensor } from './tensor.js';
import { recheckOnReplay } from './jit/trace-record.js';

/** Larger uploads are not remembered (the copy would cost more than it saves). */
export const HOST_KNOWN_MAX = 4096;

// Kept as numbers (a copy): each read of an int64 element would make a BigInt, and every
// training step checks its labels (W6: 64 int64 labels read three times, ~4.6 KiB a step).
// Number() is exact within any valid range, as the checks compared before.
const known = new WeakMap<Tensor, { buf: DeviceBuffer; values: Float64Array }>();

/** int32 or int64 values. */
export type HostIndices = Int32Array | BigInt64Array;

/** The copy of uploaded values that noteHostValues keeps (made before the upload transfers them). */
export function hostNumbers(values: HostIndices): Float64Array {
  const numbers = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) numbers[i] = Number(values[i]!);
  return numbers;
}

/** Remembers the values (hostNumbers) uploaded to t's buffer. */
export function noteHostValues(t: Tensor, values: Float64Array): void {
  if (t._buf) known.set(t, { buf: t._buf, values });
}

/** The values, while the tensor still holds the buffer they were uploaded to (no in-place update since). */
function hostValues(t: Tensor): Float64Array | undefined {
  const k = known.get(t);
  return k && t._buf === k.buf && t._node === null && !t.disposed ? k.values : undefined;
}

/**
 * Throws when a host-known index is outside [low, size): low = -size where negative indices
 * count from the end (advanced indexing), 0 where PyTorch refuses them. `skip` is a value
 * that is always allowed (crossEntropy's ignoreIndex). Returns true when every value was
 * checked, so the op reading them cannot fail on the device (IndicesChecked); while
 * tpu.compile traces, only if each replay can check its own tensor's values first.
 */
export function checkHostIndices(op: string, what: string, index: Tensor, size: number, negativesWrap: boolean, skip?: number): boolean {
  const values = hostValues(index);
  if (!values) return false;
  const low = negativesWrap ? -size : 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if ((v >= low && v < size) || v === skip) continue;
    const why = v < 0 && !negativesWrap && v >= -size ? ' (negative indices are errors here, as in PyTorch)' : '';
    throw new RangeError(`${op}: ${what} ${v} at position ${i} is out of range [${low}, ${size - 1}]${why}`);
  }
  return recheckOnReplay(index, (t) => checkHostIndices(op, what, t, size, negativesWrap, skip));
}

/**
 * Whether the index's values are known on the host and none equals `value` (crossEntropy's
 * ignoreIndex: then every sample counts); while tpu.compile traces, only if each replay can
 * check its own tensor first (a replay whose labels hold it traces anew).
 */
export function hostIndicesWithout(index: Tensor, value: number): boolean {
  const values = hostValues(index);
  if (!values) return false;
  for (let i = 0; i < values.length; i++) if (values[i] === value) return false;
  return recheckOnReplay(index, (t) => hostIndicesWithout(t, value));
}
