// The options object of every creation function (tpu.tensor, zeros, arange, randint, ...).
import { assertDType, type DType } from './dtype.js';
import { readOptions } from './options.js';
import { settings } from './device/settings.js';
import { requireDeviceChip, type Device } from './device-argument.js';
import { specialized, specializedOptions } from './jit/live-number.js';

export interface CreationOptions {
  dtype?: DType;
  /** Record operations on this tensor for backward (floating dtypes only; see autograd/creation.ts). */
  requiresGrad?: boolean;
  /** The chip whose memory holds it (default 0; tpu.device().chips emulated chips). */
  chip?: number;
  /** PyTorch's device= for that chip: 'tpu:N' (what x.device reads; 'xla:N' the same). */
  device?: Device;
}

/** Options that make a tensor of numbers: the overloads listed first, so signature help shows them. */
export interface NumberCreationOptions extends CreationOptions {
  dtype?: Exclude<DType, 'bool'>;
}

/** Options that make a bool tensor (a BoolTensor, whose item() is a boolean). */
export interface BoolCreationOptions extends CreationOptions {
  dtype: 'bool';
}

/** requiresGrad is applied by autograd/creation.ts around every creation function. */
export const CREATION_KEYS = ['dtype', 'requiresGrad', 'chip', 'device'] as const;

export function creationOptions(op: string, o: unknown): CreationOptions {
  const read = specializedOptions(readOptions<CreationOptions>(op, o, CREATION_KEYS));
  if (read.dtype !== undefined) assertDType(read.dtype, op);
  if (read.device !== undefined) {
    const chip = deviceOptionChip(op, read.device);
    if (read.chip !== undefined && read.chip !== chip) throw new TypeError(`${op}: chip ${read.chip} and device '${read.device}' name different chips; give one of them`);
    return { ...read, chip };
  }
  if (read.chip !== undefined) checkChip(op, read.chip);
  return read;
}

/** The chip of a `device` option ('tpu:N', 'xla:N'), checked against the session's chips. */
export function deviceOptionChip(op: string, device: unknown): number {
  return checkChip(op, requireDeviceChip(op, device), `the chip of device '${String(device)}'`);
}

/** A chip index of this session: an integer below tpu.device().chips (a tpu.compile number argument: its value). */
export function checkChip(op: string, chip: unknown, arg = 'chip'): number {
  chip = specialized(chip);
  const n = settings.chips();
  if (!Number.isInteger(chip) || (chip as number) < 0 || (chip as number) >= n) {
    throw new RangeError(`${op}: ${arg} must be an integer in [0, ${n}) (the session has ${n} chip${n > 1 ? 's' : ''}: TPU_KERNEL_CHIPS or tpu.setDevice({ chips })); got ${JSON.stringify(chip)}`);
  }
  return chip as number;
}
