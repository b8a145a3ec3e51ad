// PyTorch habits JavaScript answers with an error that does not say what to write:
// - calling a module (`model(x)`): V8 says "model is not a function"; where the callee, a name or
//   a path of names, holds an object with a `forward` method, the error says how to run it;
// - a keyword argument (`x.sum(dim=1)`): JavaScript assigns there, so in a cell (strict code) an
//   undeclared name is "dim is not defined"; where the cell writes `dim=` in an argument list,
//   the error says to pass options;
// - a Python builtin (`print`, `len`, `range`, `True`, `None`, `torch`): "print is not defined"
//   says what JavaScript writes instead;
// - changing a tensor's shape array (`x.shape[0] = 1`, `x.shape.reverse()`): it is frozen, as
//   torch.Size is immutable, and V8's "Cannot assign to read only property '0' of object
//   '[object Array]'" names no shape; where the cell reads a `.shape`, the error says to copy it.
import vm from 'node:vm';

const CALLEE = /^([\w$]+(?:\.[\w$]+)*) is not a function$/;
const UNDEFINED_NAME = /^([\w$]+) is not defined$/;
const FROZEN_ARRAY = /^Cannot (assign to read only property '[^']*' of object '\[object Array\]'|add property [^,]*, object is not extensible|delete property '[^']*' of \[object Array\])$/;

/** `error` with a hint added to its message and stack, where it is one of those habits. */
export function withPythonHabitHints(error: unknown, code: string, context: vm.Context): unknown {
  // the cell's errors are its context's: no instanceof
  if (typeof error !== 'object' || error === null) return error;
  const e = error as Error;
  const callee = e.name === 'TypeError' ? CALLEE.exec(e.message)?.[1] : undefined;
  if (callee && hasForward(callee, context)) return hinted(e, `a module runs with ${callee}.forward(...): JavaScript cannot call an object`);
  const name = e.name === 'ReferenceError' ? UNDEFINED_NAME.exec(e.message)?.[1] : undefined;
  if (name && new RegExp(`[(,]\\s*${name.replace(/\$/g, '\\$')}\\s*=(?![=>])`).test(code)) {
    return hinted(e, `a Python keyword argument? JavaScript assigns there: pass options, e.g. x.sum({ ${name}: ... })`);
  }
  if (name && Object.hasOwn(PYTHON_BUILTINS, name)) return hinted(e, PYTHON_BUILTINS[name]!);
  if (e.name === 'TypeError' && FROZEN_ARRAY.test(e.message) && /\.shape\b/.test(code)) {
    return hinted(e, "a tensor's shape is read-only, as torch.Size is: change a copy, [...x.shape]");
  }
  return error;
}

/** Python's names a cell may reach for, and what JavaScript (or tpu) writes instead. */
const PYTHON_BUILTINS: Readonly<Record<string, string>> = {
  print: 'JavaScript prints with console.log(...), or display(...) for rich output',
  len: "a tensor's length is x.length (x.shape[0]), an array's a.length",
  range: 'count with for (let i = 0; i < n; i++), or tpu.arange(n) for a tensor',
  True: 'JavaScript writes true',
  False: 'JavaScript writes false',
  None: 'JavaScript writes null',
  torch: "PyTorch's functions are tpu's here: tpu.tensor(...), tpu.nn, tpu.optim",
  self: 'inside a class, JavaScript writes this',
};

function hinted(e: Error, hint: string): Error {
  const message = `${e.message} (${hint})`;
  e.stack = e.stack?.replace(e.message, message);
  e.message = message;
  return e;
}

function hasForward(callee: string, context: vm.Context): boolean {
  try {
    const value = vm.runInContext(callee, context) as { forward?: unknown } | null | undefined;
    return typeof value?.forward === 'function';
  } catch {
    return false; // not a name the cells can see
  }
}
