// What an error message says a bad argument was (its type, or a tensor's shape and dtype).
import { Tensor } from '../tensor.js';

export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (v instanceof Tensor) return `a plain tensor ${v.describe()}`;
  // a callable object (a module: its proxy's target is a function) by its class, as other objects
  if (typeof v === 'object' || (typeof v === 'function' && Object.getPrototypeOf(v) !== Function.prototype)) return `an object of type ${v.constructor?.name ?? 'Object'}`;
  // a BigInt scalar is not an operand (an int64 value is a tensor: tpu.tensor(4n)); JSON cannot print it
  if (typeof v === 'bigint') return `bigint ${v}n (an int64 scalar is a 0-d tensor: tpu.tensor(${v}n))`;
  return `${typeof v} ${JSON.stringify(v)}`;
}
