// Errors of the PJRT path: a failed PJRT call (with its status code) or a missing libtpu/addon.

/** A PJRT call failed: `code` is the status name (e.g. 'INVALID_ARGUMENT'), `pjrtCode` its number. */
export class PjrtError extends Error {
  override readonly name = 'PjrtError';
  constructor(
    message: string,
    readonly code: string,
    readonly pjrtCode: number | undefined,
  ) {
    super(message);
  }

  /** The addon's rejection as a PjrtError thrown from the awaiting caller (a useful stack). */
  static from(e: unknown): PjrtError {
    const err = e as { message?: string; code?: string; pjrtCode?: number };
    return new PjrtError(err.message ?? String(e), err.code ?? 'UNKNOWN', err.pjrtCode);
  }
}

/** libtpu or the native addon is not available here; the message says why and what to do. */
export class TpuCompilerUnavailableError extends Error {
  override readonly name = 'TpuCompilerUnavailableError';
}
