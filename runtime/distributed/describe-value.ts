// What an error message says a bad argument was (its type, or a tensor's shape and dtype).
import { Tensor } from '../tensor.js';

export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (v instanceof Tensor) return `a plain tensor ${v.describe()}`;
  // a callable object (a module: its proxy's target is a function) by its class, as other objects
  if (typeof v === 'object' || (typeof v === 'function' && Object.getPrototypeOf(v) !== Function.prototype)) return `an object of type ${v.constructor?.name ?? 'Object'}`;
  return `${typeof v} ${JSON.stringify(v)}`;
}
