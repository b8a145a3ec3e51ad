// tpu.scope(fn): every tensor created while fn runs is disposed when it returns, except
// the tensors it returns (directly, or inside an array or a plain object).
import type { Tensor } from './tensor.js';

const stack: Tensor[][] = [];
/** Tensors that outlive every scope they were made in (gradients, optimizer state). */
const keptForever = new WeakSet<Tensor>();

/** tpu.keep(t): t survives the enclosing scopes (like tf.keep). */
export function keep<T extends Tensor>(t: T): T {
  keptForever.add(t);
  return t;
}

export function noteCreated(t: Tensor): void {
  stack[stack.length - 1]?.push(t);
}

export function scope<T>(fn: () => T): T {
  if (typeof fn !== 'function') throw new TypeError(`tpu.scope: fn must be a function; got ${typeof fn}`);
  const made: Tensor[] = [];
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

function disposeAllBut(made: Tensor[], kept: unknown): void {
  const keep = new Set<unknown>();
  const visit = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object' || depth > 2) return;
    keep.add(v);
    if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (Object.getPrototypeOf(v) === Object.prototype) Object.values(v).forEach((x) => visit(x, depth + 1));
  };
  visit(kept, 0);
  const outer = stack[stack.length - 1];
  for (const t of made) {
    if (keep.has(t)) outer?.push(t);
    else if (!keptForever.has(t)) t.dispose();
  }
}
