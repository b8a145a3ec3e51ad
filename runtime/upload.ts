// Host values to the device, once (a counted transfer), for tpu.tensor and the other creation
// functions (creation.ts, creation-computed.ts). Small integer values stay known on the host
// for index checks (host-known-indices.ts).
import { toStorage, type DType } from './dtype.js';
import { HOST_KNOWN_MAX, hostNumbers, noteHostValues, type HostIndices } from './host-known-indices.js';
import type { Shape } from './shape.js';
import { chipSession } from './device/current.js';
import { Tensor } from './tensor.js';
import { noteUpload, tracing } from './jit/trace-record.js';

/** Host values to the device; `values` is called again when a tpu.compile replay remakes the tensor. */
export function upload(op: string, values: () => ArrayLike<number> | BigInt64Array, shape: Shape, dtype: DType, chip = 0): Tensor {
  const session = chipSession(chip);
  // Device memory is reserved before the host values are built: a request over the HBM
  // capacity fails before a host array of that size is made.
  const buffer = session.allocate(dtype, shape, op);
  let known: Float64Array | null = null;
  try {
    const storage = toStorage(dtype, values(), `tpu.${op}`);
    // small integer values are kept (a copy: the upload transfers the storage) for index checks
    if ((dtype === 'int32' || dtype === 'int64') && storage.length <= HOST_KNOWN_MAX) known = hostNumbers(storage as HostIndices);
    session.upload(buffer, storage);
  } catch (e) {
    session.free(buffer); // no phantom live tensor after a failed conversion or host allocation
    throw e;
  }
  const made = Tensor.fromBuffer(buffer, shape, dtype);
  if (known) noteHostValues(made, known);
  if (tracing()) noteUpload(made, () => upload(op, values, shape, dtype, chip));
  return made;
}
