// The arguments of a call to a compiled function, as tpu.compile keys and binds them. Tensors
// and numbers may sit anywhere in arrays and plain objects; their leaves, in walk order, are
// what a replay binds. The signature: each tensor's dtype and shape, each number's kind
// (int or float: it decides the dtype of ops on integer tensors), the values of other
// primitives (a boolean or a string may choose a code path), other objects by identity
// (a different model or optimizer is a different trace), whether a tensor requires grad
// (its gradient is a step of the program, or none is), and which tensor arguments share
// memory (f(a, a), f(a, a.reshape([-1])): a plan binds each argument once, and a write
// through one must reach the others as it did, or not, when traced).
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { LiveNumber } from './live-number.js';
import { isPlainObject } from '../plain-object.js';
import { tensorPartsOf } from '../tensor-parts.js';

export interface FlatArguments {
  readonly tensors: Tensor[];
  readonly numbers: number[];
  readonly signature: string;
}

const MAX_DEPTH = 8;
const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

function isContainer(v: unknown, depth: number): v is unknown[] | Record<string, unknown> {
  return depth < MAX_DEPTH && (Array.isArray(v) || isPlainObject(v));
}

export function flattenArguments(args: readonly unknown[]): FlatArguments {
  const tensors: Tensor[] = [];
  const numbers: number[] = [];
  /** The first tensor argument over each base (a view's base, or the tensor itself). */
  const firstOver = new Map<Tensor, number>();
  const key = (v: unknown, depth: number): string => {
    if (v instanceof Tensor) {
      const j = tensors.push(v) - 1;
      const base = v._viewOf?.base ?? v;
      const k = firstOver.get(base);
      if (k === undefined) firstOver.set(base, j);
      const shared = k === undefined ? '' : tensors[k] === v ? ` (= #${k})` : ` (shares memory with #${k})`;
      return `${v.dtype}${formatShape(v.shape)}${v.requiresGrad ? ' (requires grad)' : ''}${shared}`;
    }
    if (typeof v === 'number') {
      numbers.push(v);
      return Number.isInteger(v) ? 'int' : 'float';
    }
    // A DTensor: its pieces are tensor arguments; its layout is part of the signature.
    const parts = tensorPartsOf(v);
    if (parts) return `${parts.key}(${parts.tensors.map((t) => key(t, depth + 1)).join(', ')})`;
    if (isContainer(v, depth)) {
      if (Array.isArray(v)) return `[${v.map((x) => key(x, depth + 1)).join(', ')}]`;
      return `{${Object.entries(v).map(([k, x]) => `${k}: ${key(x, depth + 1)}`).join(', ')}}`;
    }
    if (v !== null && (typeof v === 'object' || typeof v === 'function')) {
      let id = objectIds.get(v);
      if (id === undefined) objectIds.set(v, (id = nextObjectId++));
      return `${(v as object).constructor?.name ?? typeof v}#${id}`;
    }
    return typeof v === 'bigint' ? `${v}n` : JSON.stringify(v) ?? String(v);
  };
  const signature = args.map((a) => key(a, 0)).join(', ');
  return { tensors, numbers, signature };
}

/**
 * The arguments with their number leaves (in walk order) replaced by live numbers; only the
 * arrays and objects holding numbers are copies.
 */
export function withLiveNumbers(args: readonly unknown[], live: (index: number) => LiveNumber): unknown[] {
  let next = 0;
  const swap = (v: unknown, depth: number): unknown => {
    if (typeof v === 'number') return live(next++);
    if (!isContainer(v, depth)) return v;
    const entries = Object.entries(v);
    const swapped = entries.map(([k, x]) => [k, swap(x, depth + 1)] as const);
    if (swapped.every(([, x], i) => x === entries[i]![1])) return v;
    return Array.isArray(v) ? swapped.map(([, x]) => x) : Object.fromEntries(swapped);
  };
  return args.map((a) => swap(a, 0));
}
