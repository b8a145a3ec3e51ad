// tpu.scope(fn): every tensor created while fn runs is disposed when it returns, except
// the tensors it returns (directly, or inside an array or a plain object).
import { isPlainObject } from './plain-object.js';
import { tensorPartsOf } from './tensor-parts.js';

/** What a scope needs of a tensor (tensor.ts notes each one it makes). */
export interface Scoped {
  dispose(): void;
  /** Made inside a composed op and not returned by it (see temporaries()). */
  _temporary: boolean;
}

const stack: Scoped[][] = [];
/** Tensors that outlive every scope they were made in (gradients, optimizer state). */
const keptForever = new WeakSet<Scoped>();

/**
 * tpu.keep(t): t survives the enclosing scopes (like tf.keep).
 * @example
 * let kept: Tensor | undefined;
 * tpu.scope(() => void (kept = tpu.keep(tpu.ones([2]))));
 * kept // [1, 1]
 */
export function keep<T extends Scoped>(t: T): T {
  keptForever.add(t);
  return t;
}

/** Kept with tpu.keep (tpu.compile updates such tensors in place on a replay). */
export function isKept(t: Scoped): boolean {
  return keptForever.has(t);
}

export function noteCreated(t: Scoped): void {
  // Tested first: stack[-1] on an empty stack is a slow property lookup, on every op.
  if (stack.length) stack[stack.length - 1]!.push(t);
}

/** Runs fn and returns what it made besides (still noted in the enclosing scope). */
export function collectMade<T>(fn: () => T): [T, Scoped[]] {
  const made: Scoped[] = [];
  stack.push(made);
  try {
    return [fn(), made];
  } finally {
    stack.splice(stack.lastIndexOf(made), 1);
    stack[stack.length - 1]?.push(...made);
  }
}

/**
 * Runs fn and frees the tensors it made except the returned ones and kept ones (tf.tidy; PyTorch frees by garbage collection).
 * @example const y = tpu.scope(() => x.mul(2).add(1))
 */
export function scope<T>(fn: () => T): T {
  if (typeof fn !== 'function') throw new TypeError(`tpu.scope: fn must be a function; got ${typeof fn}`);
  const made: Scoped[] = [];
  stack.push(made);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    stack.splice(stack.lastIndexOf(made), 1);
    disposeAllBut(made, undefined);
    throw e;
  }
  if (result instanceof Promise) {
    return result.then(
      (value) => {
        stack.splice(stack.lastIndexOf(made), 1);
        disposeAllBut(made, value);
        return value;
      },
      (e) => {
        stack.splice(stack.lastIndexOf(made), 1);
        disposeAllBut(made, undefined);
        throw e;
      },
    ) as T;
  }
  stack.splice(stack.lastIndexOf(made), 1);
  disposeAllBut(made, result);
  return result;
}

/**
 * Runs a composed op's body: the tensors it makes, except those it returns, are marked as
 * temporaries, which a fused region never keeps as outputs. Unlike scope() nothing is
 * disposed, so autograd may still hold them.
 */
export function temporaries<T>(fn: () => T): T {
  const [result, made] = collectMade(fn);
  for (const t of made) if (t !== (result as unknown)) t._temporary = true;
  return result;
}

function disposeAllBut(made: Scoped[], kept: unknown): void {
  const keep = new Set<unknown>();
  addReturned(keep, kept, 0);
  const outer = stack[stack.length - 1];
  for (const t of made) {
    if (keep.has(t)) outer?.push(t);
    else if (!keptForever.has(t)) t.dispose();
  }
}

/**
 * Adds what a scope returned to `keep`: the value, and what arrays and plain objects hold, two
 * levels deep. Module level, not a closure per call: V8 keeps a closure's optimized code only
 * while one of its closures lives (docs/runtime.md, W6).
 */
function addReturned(keep: Set<unknown>, v: unknown, depth: number): void {
  if (v === null || typeof v !== 'object' || depth > 2) return;
  keep.add(v);
  if (Array.isArray(v)) for (const x of v) addReturned(keep, x, depth + 1);
  else if (isPlainObject(v)) for (const x of Object.values(v)) addReturned(keep, x, depth + 1);
  else {
    // A DTensor returned keeps its pieces.
    const parts = tensorPartsOf(v);
    if (parts) for (const x of parts.tensors) keep.add(x);
  }
}
