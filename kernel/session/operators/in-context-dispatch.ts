// The dispatch functions as cells call them: made inside the cells' vm context, around the
// kernel's (operator-dispatch.ts). V8 does not inline a call into a function of another
// context, so a loop of numbers in a cell's function paid a call per operator and ran 10-20x
// slower than plain JavaScript. Made here, an operator with no object operand (no tensor can be
// one) is JavaScript's own, inline; any other goes to the kernel's function, which holds every
// rule but the `a && b` slot (below).
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { OPERATOR_DISPATCH } from './operator-dispatch.js';

/** The dispatch functions of binary operators, each with its own operator spelled out (one call site each). */
const BINARY: Readonly<Record<string, string>> = {
  add: '+', sub: '-', mul: '*', div: '/', remainder: '%', pow: '**', lt: '<', le: '<=', gt: '>', ge: '>=',
  bitwiseAnd: '&', bitwiseOr: '|', bitwiseXor: '^', bitwiseLeftShift: '<<', bitwiseRightShift: '>>',
};

/** Sets the context's `__tpuOps` to functions made in it, falling back on the kernel's `ops`. */
export function installInContextDispatch(context: vm.Context, ops: Record<string, unknown>): void {
  const binary = Object.entries(BINARY)
    .map(([name, op]) => `${name}: (a, b) => (typeof a !== 'object' && typeof b !== 'object' ? a ${op} b : kernel.${name}(a, b)),`)
    .join('\n');
  // Arrays and typed arrays index as JavaScript does; only another object may be a tensor.
  const make = vm.runInContext(`(kernel) => {
    const isArray = Array.isArray;
    const isView = ArrayBuffer.isView;
    const indexable = (x) => typeof x !== 'object' || x === null || isArray(x) || isView(x);
    // \`a && b\` as a value is \`and(andLeft(a) && b)\`: andLeft keeps the false tensor that
    // stopped it here until \`and\` gives it back. Nothing runs between them (b is not evaluated),
    // so one slot serves every nesting. It lives in this context, as an object's fields (a
    // reassigned \`let\` cost a loop of \`&&\` values 2-3x); the object cases are functions apart,
    // so that the inlined primitive cases stay small.
    const stopped = { held: false, tensor: undefined };
    const objectAndLeft = (v) => {
      const truth = kernel.truth(v);
      if (truth) return truth;
      stopped.held = true;
      stopped.tensor = v;
      return false;
    };
    const takeStopped = () => {
      const tensor = stopped.tensor;
      stopped.held = false;
      stopped.tensor = undefined;
      return tensor;
    };
    return Object.freeze({
      ...kernel,
      ${binary}
      neg: (a) => (typeof a !== 'object' ? -a : kernel.neg(a)),
      bitwiseNot: (a) => (typeof a !== 'object' ? ~a : kernel.bitwiseNot(a)),
      isTensor: (v) => typeof v === 'object' && v !== null && kernel.isTensor(v),
      truth: (v) => (typeof v !== 'object' || v === null ? v : kernel.truth(v)),
      orLeft: (v) => (typeof v !== 'object' || v === null ? v : kernel.orLeft(v)),
      andLeft: (v) => (typeof v !== 'object' || v === null ? v : objectAndLeft(v)),
      and: (r) => (stopped.held ? takeStopped() : r),
      at: (x, k) => (indexable(x) ? x[k] : kernel.at(x, k)),
      setAt: (x, k, v) => (indexable(x) ? (x[k] = v) : kernel.setAt(x, k, v)),
    });
  }`, context, { filename: fileURLToPath(import.meta.url) }) as (kernel: Record<string, unknown>) => Record<string, unknown>;
  Object.defineProperty(context, OPERATOR_DISPATCH, { value: make(ops), enumerable: false });
}
