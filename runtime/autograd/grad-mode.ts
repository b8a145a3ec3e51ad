// Whether op applications are recorded for backward: tpu.noGrad / tpu.enableGrad scope it,
// tpu.setGradEnabled sets it (torch.no_grad, enable_grad, set_grad_enabled).
/**
 * How many noGrad scopes (or setGradEnabled(false)) are in force: a count, not a flag, so two
 * async noGrad calls that overlap each end their own part.
 */
let disabled = 0;

export function gradEnabled(): boolean {
  return disabled === 0;
}

function checkFn(who: string, fn: unknown): void {
  if (typeof fn !== 'function') throw new TypeError(`${who}: fn must be a function; got ${fn === null ? 'null' : typeof fn}`);
}

/**
 * Runs fn with recording off (`enable` false: one more noGrad in force) or on (all of them
 * lifted), until fn returns or, for an async fn, settles. Leaving noGrad takes its one away
 * from the count as it is then (a setGradEnabled(true) inside fn left it at 0); leaving
 * enableGrad puts back the count from before.
 */
function scoped<T>(fn: () => T, enable: boolean): T {
  const before = disabled;
  disabled = enable ? 0 : disabled + 1;
  let sync = true;
  try {
    const result = fn();
    if (result instanceof Promise) {
      sync = false;
      return result.finally(() => leave(enable, before)) as T;
    }
    return result;
  } finally {
    if (sync) leave(enable, before);
  }
}

function leave(enabled: boolean, before: number): void {
  disabled = enabled ? before : Math.max(0, disabled - 1);
}

/**
 * Runs fn without recording gradients (also for an async fn, until it settles): torch.no_grad as a function.
 * @example const y = tpu.noGrad(() => model.forward(x))
 */
export function noGrad<T>(fn: () => T): T {
  checkFn('tpu.noGrad', fn);
  return scoped(fn, false);
}

/**
 * Runs fn recording gradients even inside tpu.noGrad (also for an async fn, until it settles):
 * torch.enable_grad as a function.
 * @example tpu.noGrad(() => tpu.enableGrad(() => tpu.ones([1], { requiresGrad: true }).mul(2))).requiresGrad // true
 */
export function enableGrad<T>(fn: () => T): T {
  checkFn('tpu.enableGrad', fn);
  return scoped(fn, true);
}

/**
 * True unless inside tpu.noGrad or after tpu.setGradEnabled(false) (torch.is_grad_enabled).
 * @example tpu.noGrad(() => tpu.isGradEnabled()) // false
 */
export function isGradEnabled(): boolean {
  return gradEnabled();
}

/**
 * Turns gradient recording on or off (torch.set_grad_enabled): from now on, or with fn only
 * while fn runs (the context-manager form, `with torch.set_grad_enabled(training):`).
 * @example tpu.setGradEnabled(false, () => tpu.ones([1], { requiresGrad: true }).mul(2)).requiresGrad // false
 */
export function setGradEnabled(mode: boolean): void;
export function setGradEnabled<T>(mode: boolean, fn: () => T): T;
export function setGradEnabled<T>(mode: boolean, fn?: () => T): T | void {
  if (typeof mode !== 'boolean') throw new TypeError(`tpu.setGradEnabled: mode must be a boolean; got ${JSON.stringify(mode) ?? typeof mode}`);
  if (fn !== undefined) {
    checkFn('tpu.setGradEnabled', fn);
    return mode ? enableGrad(fn) : noGrad(fn);
  }
  if (mode) disabled = 0;
  else if (disabled === 0) disabled = 1;
}
