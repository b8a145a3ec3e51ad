// torch.utils.data.Dataset: a map-style dataset, PyTorch's __getitem__ and __len__ spelled
// getItem(i) and length (a JS array's spelling), and the checks every dataset shares.
import { defaultCollate, type Collated } from './default-collate.js';

/**
 * A map-style dataset (torch.utils.data.Dataset): a subclass defines getItem(i) (PyTorch's
 * __getitem__) and length (__len__, a getter or a field).
 * @example
 * class Squares extends tpu.utils.data.Dataset<[number, number]> {
 *   get length() { return 10; }
 *   getItem(i: number): [number, number] { return [i, i * i]; }
 * }
 */
export abstract class Dataset<T = unknown> {
  /** The item at index i, 0 <= i < length (PyTorch's __getitem__). */
  abstract getItem(index: number): T;
  /** The number of items (PyTorch's __len__). */
  abstract readonly length: number;

  /**
   * The items at these indices, collated by defaultCollate: what a DataLoader without a
   * collateFn yields. Datasets that can gather a batch at once override it (TensorDataset:
   * one indexSelect per tensor instead of one row per item).
   */
  getBatch(indices: readonly number[]): Collated<T> {
    return defaultCollate(indices.map((i) => this.getItem(i)));
  }
}

/** What the loader, Subset, ConcatDataset and randomSplit take: a Dataset, any object with getItem and length, or an array. */
export type DatasetLike<T> = Source<T> | readonly T[];

/** A dataset as the loader reads it (arrays become one of these). */
export interface Source<T> {
  getItem(index: number): T;
  readonly length: number;
  getBatch?(indices: readonly number[]): unknown;
}

export function datasetArg<T>(op: string, arg: string, value: DatasetLike<T>): Source<T> {
  if (Array.isArray(value)) {
    const items = value as readonly T[];
    return { getItem: (i) => items[checkIndex(`${op}: ${arg}`, i, items.length)]!, get length() { return items.length; } };
  }
  const ds = value as Source<T> | null | undefined;
  if (ds === null || typeof ds !== 'object' || typeof ds.getItem !== 'function') {
    const got = ds === null ? 'null' : typeof ds === 'object' ? `an object without getItem (keys: ${Object.keys(ds).join(', ') || 'none'})` : typeof ds;
    throw new TypeError(`${op}: ${arg} must be a Dataset (getItem(i) and length), an object with both, or an array; got ${got}`);
  }
  datasetLength(op, arg, ds);
  return ds;
}

/** A dataset's length, checked to be a non-negative integer (a subclass may forget to define it). */
export function datasetLength(op: string, arg: string, ds: { readonly length: number }): number {
  const n = ds.length;
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`${op}: ${arg}.length must be a non-negative integer (PyTorch's __len__); got ${JSON.stringify(n) ?? String(n)}`);
  return n;
}

/** An index into `length` items, negative ones counting from the end as Python's; else a RangeError naming `what`. */
export function checkIndex(what: string, index: number, length: number): number {
  if (!Number.isInteger(index)) throw new TypeError(`${what}: index must be an integer; got ${JSON.stringify(index) ?? String(index)}`);
  if (index < -length || index >= length) throw new RangeError(`${what}: index ${index} is out of range for ${length} items`);
  return index < 0 ? index + length : index;
}

/** The collated items at these indices of ds: its getBatch when it has one. */
export function batchOf<T>(ds: Source<T>, indices: readonly number[]): Collated<T> {
  if (typeof ds.getBatch === 'function') return ds.getBatch(indices) as Collated<T>;
  return defaultCollate(indices.map((i) => ds.getItem(i)));
}
