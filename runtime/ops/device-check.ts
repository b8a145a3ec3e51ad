// deviceCheck(x, code): x itself, or a failed program where the int32 code is not 0 (the
// check's text, device/device-check.ts, becomes the DeviceError's message). How a composed op
// refuses an input whose fault only the device sees (a zero pivot) without a host read per call.
import { formatShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { apply } from '../modes/dispatch.js';
import type { DeviceCheck } from '../device/device-check.js';
import { defineOp } from './op.js';
import { constantTensor } from './constant.js';
import { where } from './where.js';

export const deviceCheckOp = defineOp<DeviceCheck>({
  name: 'deviceCheck',
  // it fails on the device: strict mode records its call site, a fused region runs apart the values that do not read it
  readsDeviceIndices: true,
  infer([x, code]) {
    if (code!.dtype !== 'int32' || code!.shape.length !== 0) throw new TypeError(`deviceCheck: the code must be an int32 scalar; got ${code!.dtype} ${formatShape(code!.shape)}`);
    if (x!.dtype === 'bool') throw new TypeError('deviceCheck: a bool value cannot be checked (its lowerings pass floats and integers)');
    return { shape: x!.shape, dtype: x!.dtype };
  },
  grad: (g) => [g, null],
  gradReads: 'none',
});

/**
 * x, failing on the device where some batch element's info is not 0: info [...batch] int32
 * holds 0 for a good element, else its failing position k (1-based, at most check.n). The
 * first failing element is reported, as PyTorch's linalg errors do.
 */
export function checkedOnDevice(x: Tensor, info: Tensor, check: DeviceCheck): Tensor {
  const count = info.numel();
  if (count === 0) return x;
  const flat = info.reshape([count]);
  const none = count * check.n + 1;
  // b·n + k of each failing element, `none` for the others: the smallest is the first failure
  const starts = constantTensor(Array.from({ length: count }, (_, b) => b * check.n), [count], 'int32');
  const first = where(flat.gt(0), starts.add(flat), none).amin();
  return apply(deviceCheckOp, [x, where(first.eq(none), 0, first)], check);
}

/** The first position (1-based) of each row of `good` [..., n] that is false, 0 where all are true: int32 [...]. */
export function firstFailure(good: Tensor): Tensor {
  const n = good.shape[good.ndim - 1]!;
  const positions = constantTensor(Array.from({ length: n }, (_, k) => k + 1), [n], 'int32');
  const first = where(good, n + 1, positions).amin(-1);
  return where(first.gt(n), 0, first);
}
