// LAPACK's `info` of a factorization, as PyTorch's *_ex functions return it and its errors
// report it: per batch element, 0 when it went through, else the first step that failed (1-based).
import type { Tensor } from '../../tensor.js';
import { readOptions } from '../../options.js';

export interface CheckErrorsOptions {
  /** Raise (fail on the device) where info is not 0, as the function without _ex (false by default, as PyTorch's). */
  checkErrors?: boolean;
}

/** The checkErrors option of a *_ex function (`extra`: its other keys). */
export function readCheckErrors(op: string, options: unknown, extra: readonly string[] = []): boolean {
  const { checkErrors = false } = readOptions<CheckErrorsOptions>(op, options, ['checkErrors', ...extra] as (keyof CheckErrorsOptions)[]);
  if (typeof checkErrors !== 'boolean') throw new TypeError(`${op}: checkErrors must be a boolean; got ${JSON.stringify(checkErrors)}`);
  return checkErrors;
}

/** `full` [...batch] of a factorization of A broadcast to `batch`, cut to A's own batch: what PyTorch factors once. */
export function ofOwnBatch(full: Tensor, own: readonly number[]): Tensor {
  let info = full;
  while (info.ndim > own.length) info = info.select(0, 0);
  own.forEach((d, i) => {
    if (d === 1 && info.shape[i] !== 1) info = info.narrow(i, 0, 1);
  });
  return info;
}
