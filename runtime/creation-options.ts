// The options object of every creation function (tpu.tensor, zeros, arange, randint, ...).
import { assertDType, type DType } from './dtype.js';
import { readOptions } from './options.js';

export interface CreationOptions {
  dtype?: DType;
  /** Record operations on this tensor for backward (floating dtypes only; see autograd/creation.ts). */
  requiresGrad?: boolean;
}

/** requiresGrad is applied by autograd/creation.ts around every creation function. */
const CREATION_KEYS = ['dtype', 'requiresGrad'] as const;

export function creationOptions(op: string, o: unknown): CreationOptions {
  const read = readOptions<CreationOptions>(op, o, CREATION_KEYS);
  if (read.dtype !== undefined) assertDType(read.dtype, op);
  return read;
}
