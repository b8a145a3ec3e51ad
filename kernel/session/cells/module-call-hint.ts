// PyTorch calls a module (`model(x)`); a JavaScript object cannot be called, and V8 says only
// "model is not a function". Where the callee, a name or a path of names, holds an object with a
// `forward` method, the error says how to run it.
import vm from 'node:vm';

const CALLEE = /^([\w$]+(?:\.[\w$]+)*) is not a function$/;

/** `error` with the hint added to its message and stack, when it is such a call. */
export function withModuleCallHint(error: unknown, context: vm.Context): unknown {
  // the cell's TypeError is its context's: no instanceof
  if (typeof error !== 'object' || error === null || (error as Error).name !== 'TypeError') return error;
  const e = error as Error;
  const callee = CALLEE.exec(e.message)?.[1];
  if (!callee || !hasForward(callee, context)) return error;
  const message = `${e.message} (a module runs with ${callee}.forward(...): JavaScript cannot call an object)`;
  e.stack = e.stack?.replace(e.message, message);
  e.message = message;
  return error;
}

function hasForward(callee: string, context: vm.Context): boolean {
  try {
    const value = vm.runInContext(callee, context) as { forward?: unknown } | null | undefined;
    return typeof value?.forward === 'function';
  } catch {
    return false; // not a name the cells can see
  }
}
