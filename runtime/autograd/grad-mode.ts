// Whether op applications are recorded for backward (tpu.noGrad turns it off).
let disabled = 0;

export function gradEnabled(): boolean {
  return disabled === 0;
}

/**
 * Runs fn without recording gradients (also for an async fn, until it settles): torch.no_grad as a function.
 * @example const y = tpu.noGrad(() => model.forward(x))
 */
export function noGrad<T>(fn: () => T): T {
  if (typeof fn !== 'function') throw new TypeError(`tpu.noGrad: fn must be a function; got ${typeof fn}`);
  disabled++;
  let sync = true;
  try {
    const result = fn();
    if (result instanceof Promise) {
      sync = false;
      return result.finally(() => disabled--) as T;
    }
    return result;
  } finally {
    if (sync) disabled--;
  }
}

/** Runs fn (synchronous) recording gradients even inside noGrad: torch.enable_grad, for the runtime's own use. */
export function enableGrad<T>(fn: () => T): T {
  const outer = disabled;
  disabled = 0;
  try {
    return fn();
  } finally {
    disabled = outer;
  }
}
