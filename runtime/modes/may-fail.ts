// Which op applications can fail on the device: those whose output cannot be allocated there
// (large outputs) and those reading indices from device data. By default ('auto', call-site.ts)
// only such calls record their site, in strict mode and in fused regions alike: a capture
// costs several µs, small beside the device time of a large op.
import { ITEMSIZE } from '../dtype.js';
import { numel } from '../shape.js';
import type { Abstract } from '../ops/op.js';
import { readsUncheckedIndices, type Primitive } from '../primitive.js';

const LARGE_OUTPUT_BYTES = 1 << 20;

export function mayFailOnDevice(op: Primitive, attrs: unknown, out: Abstract): boolean {
  return readsUncheckedIndices(op, attrs) || numel(out.shape) * ITEMSIZE[out.dtype] >= LARGE_OUTPUT_BYTES;
}
