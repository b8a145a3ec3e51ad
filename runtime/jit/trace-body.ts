// Running a compiled function's body once as a trace (tpu.compile, and its .lower): in a
// tpu.scope, with value reads and mode switches refused, since the body becomes one program.
// A refused read the body caught is still an error: the trace would follow its catch branch,
// which eager execution does not take.
import { scope } from '../scope.js';
import { forbidModeSwitchWhile } from '../modes/mode.js';
import { forbidSyncWhile, refusedReadsIn } from '../modes/materialize.js';

export const dataDependent = (name: string) =>
  `tpu.compile(${name}) is tracing: reading a tensor value is not possible there, nothing has run yet ` +
  '(a compiled function becomes one program, so it cannot branch on or print values it computes). ' +
  'Select on the device instead (x.where(cond, other), or arithmetic such as mask.mul(a)), or return the ' +
  'tensor and read it (item(), data()) after the call, outside the compiled function.';

const modeSwitch = (name: string) =>
  `tpu.compile(${name}) is tracing: the whole function runs as one program, so it cannot switch modes inside. ` +
  'Switch modes outside the compiled function (or call it inside tpu.withMode).';

/** fn's result; `caller` names the entry in errors ("tpu.compile(step)", "tpu.compile(step).lower"). */
export function traceBody<T>(name: string, caller: string, fn: () => T): T {
  const [result, refused] = refusedReadsIn(() =>
    forbidModeSwitchWhile(modeSwitch(name), () => forbidSyncWhile(dataDependent(name), () => scope(fn))));
  if (result instanceof Promise) {
    // The error below replaces the promise's own outcome: never left unhandled.
    result.catch(() => {});
    throw new TypeError(`${caller}: the function must be synchronous (it returned a Promise)`);
  }
  if (refused) throw new Error(`${caller}: the function caught this error, but a trace cannot continue past it: ${refused.message}`);
  return result;
}
