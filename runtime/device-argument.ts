// PyTorch's device argument of .to() (x.to(device), model.to(device)): 'tpu' or 'tpu:N' names a
// chip, as a tensor's own x.device reads; PyTorch/XLA's 'xla' and 'xla:N' name the same chips.
// A CPU or GPU device is refused, naming what to do instead: tensors live on the TPU session.
import { assertDType, type DType } from './dtype.js';
import { isOptions, readOptions } from './options.js';

/** A device string: a chip of this session. */
export type Device = 'tpu' | `tpu:${number}` | 'xla' | `xla:${number}`;

const CHIP = /^(?:tpu|xla)(?::(\d+))?$/;
const ELSEWHERE = /^(?:cpu|cuda|mps|meta|xpu|hip)(?::\d+)?$/;

/** The chip `value` names when it is a device string, else undefined (a dtype, say). */
export function deviceChip(who: string, value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = CHIP.exec(value);
  if (m) return m[1] === undefined ? 0 : Number(m[1]);
  if (ELSEWHERE.test(value)) {
    throw new TypeError(
      `${who}: device '${value}' is not one of this session's: tensors live on its TPU chips ('tpu:0', ... as x.device reads); ` +
        'read values to the host with .array(), .tolist() or .item()',
    );
  }
  return undefined;
}

/** deviceChip for a value that must be a device (a `device` option). */
export function requireDeviceChip(who: string, value: unknown): number {
  const chip = deviceChip(who, value);
  if (chip === undefined) throw new TypeError(`${who}: device must be 'tpu' or 'tpu:N' (a chip, as x.device reads); got ${JSON.stringify(value)}`);
  return chip;
}

/**
 * The dtype and chip of .to()'s arguments as PyTorch reads them, Tensor.to's and Module.to's:
 * (dtype), (device), (device, dtype) or ({ dtype, device }).
 */
export function toArguments(who: string, target: unknown, second: unknown): { dtype?: DType; chip?: number } {
  if (isOptions(target)) {
    const o = readOptions<{ dtype?: DType; device?: Device }>(who, target, ['dtype', 'device']);
    return { dtype: o.dtype === undefined ? undefined : assertDType(o.dtype, who), chip: o.device === undefined ? undefined : requireDeviceChip(who, o.device) };
  }
  const chip = deviceChip(who, target);
  if (chip === undefined) return { dtype: assertDType(target, who, "its argument (a dtype, or a device such as 'tpu:0')") };
  return { chip, dtype: second === undefined ? undefined : assertDType(second, who) };
}
