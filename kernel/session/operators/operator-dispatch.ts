// The run-time half of the dispatched operator rewrite (dispatch-rewrite.ts): a cell's
// `a + b` becomes `__tpuOps.add(a, b)`, which is the tensor method when an operand is a tensor
// (the table's answer, as the typed rewrite gives) and JavaScript's own operator otherwise.
// Cells call them through in-context-dispatch.ts, which answers the operands no tensor can be.
import { fileURLToPath } from 'node:url';
import { EQUALITY_METHODS, METHODS, MIRRORED, SLICE_STRING, operatorMessages } from './operator-table.js';
import { assignMasked, compoundMasked, notAValue } from './masked-write.js';

/**
 * This directory: the runtime skips its frames (and those of the in-context functions, named
 * as files here) so that an op a dispatched operator makes is shown at the cell's line.
 */
export const DISPATCH_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The cells' global that holds the dispatch functions (not enumerable: cells do not list it). */
export const OPERATOR_DISPATCH = '__tpuOps';

/** Operands are whatever a cell computes: the tensor branch calls the methods by name. */
type Any = any;

export interface OperatorDispatch {
  /** The functions cells call. */
  readonly ops: Record<string, (...args: Any[]) => unknown>;
  /**
   * The runtime's Tensor class, once loaded (before, no value of a cell is a tensor), and tpu's
   * functions, which take a number first (`1 / x` is tpu.div(1, x)).
   */
  recognize(tensorClass: abstract new (...args: never[]) => unknown, functions: Readonly<Record<string, unknown>>): void;
}

/** Plain JavaScript of each compound operator, for a target that holds no tensor. */
const COMPOUND_PLAIN: Readonly<Record<string, (a: Any, b: Any) => unknown>> = {
  '+=': (a, b) => a + b, '-=': (a, b) => a - b, '*=': (a, b) => a * b, '/=': (a, b) => a / b, '%=': (a, b) => a % b, '**=': (a, b) => a ** b,
  '&=': (a, b) => a & b, '|=': (a, b) => a | b, '^=': (a, b) => a ^ b, '<<=': (a, b) => a << b, '>>=': (a, b) => a >> b,
};

/**
 * The target of `o[k] OP= v`, read before v is evaluated as JavaScript does: a tensor there is
 * updated in place (`add_`), and the property keeps that tensor (Python's iadd); any other value
 * gets the plain operator and the property is written.
 */
class CompoundRef {
  private readonly current: unknown;
  private readonly key: PropertyKey;
  /** `plain(op, a, b)`: a OP b for a target that holds no tensor (a tensor b makes a new one). */
  constructor(
    private readonly op: string, private readonly object: Any, key: unknown,
    private readonly isTensor: (v: unknown) => boolean, private readonly plain: (op: string, a: Any, b: Any) => unknown,
  ) {
    this.key = typeof key === 'symbol' ? key : String(key); // converted once, as JavaScript does
    this.current = object[this.key];
  }

  apply(value: unknown): unknown {
    const current = this.current as Any;
    if (this.isTensor(current)) return current[`${METHODS[this.op.slice(0, -1)]}_`](value);
    return (this.object[this.key] = this.plain(this.op, current, value));
  }
}

export function createOperatorDispatch(): OperatorDispatch {
  let tensorClass: (abstract new (...args: never[]) => unknown) | undefined;
  let functions: Any;
  const isTensor = (v: unknown): boolean => typeof v === 'object' && v !== null && tensorClass !== undefined && v instanceof tensorClass;

  /** `a OP b` where a or b is a tensor. */
  const tensorBinary = (op: string, a: Any, b: Any): unknown => {
    if (isTensor(a)) return a[METHODS[op]!](b);
    if (op === '-') return b.neg().add(a);
    const mirrored = MIRRORED[op];
    // `1 / x`: a number first, wrapped as PyTorch wraps it (the result's dtype is x's kind's)
    return mirrored ? b[mirrored](a) : functions[METHODS[op]!](a, b);
  };
  /** `o.p OP= v` where o.p holds no tensor: a tensor v makes a new one (Python's `acc += t`), else JavaScript's. */
  const plainCompound = (op: string, a: Any, b: Any): unknown => (isTensor(b) ? tensorBinary(op.slice(0, -1), a, b) : COMPOUND_PLAIN[op]!(a, b));
  /** `a == b` with a tensor operand is element-wise, as PyTorch's; against null or undefined it stays JavaScript's. */
  const looseEquality = (op: '==' | '!=', a: Any, b: Any): unknown => {
    if (isTensor(a) && b != null) return a[EQUALITY_METHODS[op]!](b);
    if (isTensor(b) && a != null) return b[EQUALITY_METHODS[op]!](a);
    return op === '==' ? a == b : a != b;
  };
  /** A key of `x[key]` on a tensor that names a property, not a slice: `x['shape']`, symbols. */
  const propertyKey = (k: unknown): boolean => typeof k === 'symbol' || (typeof k === 'string' && !SLICE_STRING.test(k));
  /** A key of `x[k]` that makes a view (a number, a slice string, null), not a copy (a tensor, a list). */
  const viewKey = (k: unknown): boolean => k === null || k === undefined || typeof k === 'number' || typeof k === 'string';

  /** A tensor's truth as Python's bool(t): its one value's (NaN is true, as nonzero). */
  const tensorTruth = (t: Any): boolean => {
    if (t.numel() !== 1) throw new TypeError(operatorMessages.ambiguousTruth(t.shape));
    const value = t.item();
    return typeof value === 'boolean' ? value : value !== 0;
  };

  /** `x[mask]`'s keys: one bool tensor (PyTorch's masked index, masked-write.ts writes through it). */
  const isMask = (keys: unknown[]): boolean => keys.length === 1 && isTensor(keys[0]) && (keys[0] as Any).dtype === 'bool';
  /** Keys that copy (a tensor, a list): `x[...] = v` through them is PyTorch's index_put_ (the runtime's setItem). */
  const copies = (keys: unknown[]): boolean => keys.some((k) => !viewKey(k));
  /**
   * `x[...] = v`: a tensor v is copied in (into a view, broadcast and cast; through index tensors,
   * of x's dtype), a number or boolean fills; the assignment's value is v.
   */
  const assignInto = (x: Any, keys: unknown[], v: unknown): unknown => {
    if (isMask(keys)) {
      assignMasked(x, keys[0], v, isTensor);
      return v;
    }
    if (!isTensor(v) && typeof v !== 'number' && typeof v !== 'boolean') throw notAValue('x[...] = v', v);
    if (copies(keys)) x.setItem(keys, v);
    else if (isTensor(v)) x.at(...keys).copy_(v);
    else x.at(...keys).fill_(Number(v));
    return v;
  };
  /**
   * `x[...] OP= v` through keys that copy: as Python's, x[...] = x[...] OP v, the selection read
   * first (repeated positions take one update, not one each); the expression's value is x.
   */
  const updateThrough = (op: string, x: Any, keys: unknown[]): { apply(v: unknown): unknown } => {
    const selection = x.at(...keys);
    return { apply: (v) => (x.setItem(keys, selection[`${METHODS[op.slice(0, -1)]}_`](v)), x) };
  };

  const ops: Record<string, (...args: Any[]) => unknown> = {
    isTensor,
    add: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('+', a, b) : a + b),
    sub: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('-', a, b) : a - b),
    mul: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('*', a, b) : a * b),
    div: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('/', a, b) : a / b),
    remainder: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('%', a, b) : a % b),
    pow: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('**', a, b) : a ** b),
    lt: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('<', a, b) : a < b),
    le: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('<=', a, b) : a <= b),
    gt: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('>', a, b) : a > b),
    ge: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('>=', a, b) : a >= b),
    bitwiseAnd: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('&', a, b) : a & b),
    bitwiseOr: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('|', a, b) : a | b),
    bitwiseXor: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('^', a, b) : a ^ b),
    bitwiseLeftShift: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('<<', a, b) : a << b),
    bitwiseRightShift: (a, b) => (isTensor(a) || isTensor(b) ? tensorBinary('>>', a, b) : a >> b),
    looseEq: (a, b) => looseEquality('==', a, b),
    looseNe: (a, b) => looseEquality('!=', a, b),
    neg: (a) => (isTensor(a) ? a.neg() : -a),
    bitwiseNot: (a) => (isTensor(a) ? a.bitwiseNot() : ~a),
    plus: (a) => {
      if (isTensor(a)) throw new TypeError(operatorMessages.unaryPlus());
      return +a;
    },
    at: (x, k) => (isTensor(x) && !propertyKey(k) ? x.at(k) : x[k]),
    /** `x[i, j]`: JavaScript's comma keeps the last item; on a tensor, each is a dimension's index. */
    atItems: (x, ...keys) => (isTensor(x) ? x.at(...keys) : x[keys[keys.length - 1]]),
    /** `x[k] OP= v`: on a tensor x, in place on the view x.at(k), or through index tensors and lists, or a bool mask. */
    refAt: (op: string, x, ...keys) => {
      if (!isTensor(x)) return new CompoundRef(op, x, keys[keys.length - 1], isTensor, plainCompound);
      // the value of `x[mask] += v` is x (the selection it wrote has a size only a sync would give)
      if (isMask(keys)) return { apply: (v: unknown) => (compoundMasked(op, x, keys[0], v, isTensor), x) };
      if (copies(keys)) return updateThrough(op, x, keys);
      return new CompoundRef(op, { view: x.at(...keys) }, 'view', isTensor, plainCompound);
    },
    /** `o.p OP= v`. */
    refProp: (op: string, o, name: string) => new CompoundRef(op, o, name, isTensor, plainCompound),
    /** A condition's value (if, while, ?:, !, && and || there): a tensor is its truth, anything else is left to JavaScript. */
    truth: (v) => (isTensor(v) ? tensorTruth(v) : v),
    /** The left of `a || b` used as a value: a tensor stays itself when true (the value), is false when not (b is). */
    orLeft: (v) => (isTensor(v) && !tensorTruth(v) ? false : v),
    /** `x[k] = v`: on a tensor x, v written into the view x.at(k), as PyTorch's x[k] = v. */
    setAt: (x, k, v) => (isTensor(x) && !propertyKey(k) ? assignInto(x, [k], v) : (x[k] = v)),
    /** `x[i, j] = v` (the keys, then v): JavaScript's comma keeps the last key; on a tensor, each is a dimension's index. */
    setAtItems: (x, ...keysThenValue) => {
      const v = keysThenValue.pop();
      return isTensor(x) ? assignInto(x, keysThenValue, v) : (x[keysThenValue[keysThenValue.length - 1]] = v);
    },
  };
  return {
    ops,
    recognize: (cls, fns) => {
      tensorClass = cls;
      functions = fns;
    },
  };
}
