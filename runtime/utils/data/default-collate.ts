// torch.utils.data.default_collate: a list of items into one batch, element-wise through
// arrays (PyTorch's tuples and lists) and plain objects (its dicts).
import { Tensor } from '../../tensor.js';
import { tensor } from '../../creation.js';
import { stack } from '../../ops/index.js';
import { isPlainObject } from '../../plain-object.js';

/** The batch type of items of type T: tensors and numbers become one tensor, strings a list, arrays and objects element-wise. */
export type Collated<T> = T extends Tensor | number | bigint | boolean ? Tensor
  : T extends string ? string[]
  : T extends readonly unknown[] ? { -readonly [K in keyof T]: Collated<T[K]> }
  : T extends object ? { [K in keyof T]: Collated<T[K]> }
  : unknown;

/**
 * PyTorch's default_collate: tensors stacked along a new dim 0; JS numbers into a float32
 * tensor, bigints int64, booleans bool (as tpu.tensor reads them: JS cannot tell 1 from 1.0,
 * so integer labels are bigints, int tensors, or an Int32Array's elements); strings kept as a
 * list; arrays and plain objects collated element by element.
 * @example tpu.utils.data.defaultCollate([{ x: tpu.tensor([1, 2]), y: 3n }, { x: tpu.tensor([4, 5]), y: 6n }]) // { x: [[1, 2], [4, 5]], y: [3, 6] }
 */
export function defaultCollate<T>(items: readonly T[]): Collated<T> {
  if (!Array.isArray(items) || items.length === 0) throw new TypeError(`defaultCollate: items must be a non-empty array; got ${Array.isArray(items) ? 'an empty array' : typeof items}`);
  return collate(items, 'item') as Collated<T>;
}

function collate(items: readonly unknown[], path: string): unknown {
  const first = items[0];
  const kind = kindOf(first);
  items.forEach((v, i) => {
    if (kindOf(v) !== kind) throw new TypeError(`defaultCollate: ${path} of item ${i} is ${describe(v)} but of item 0 ${describe(first)}; a batch needs one kind`);
  });
  switch (kind) {
    case 'tensor':
      return stack(items as Tensor[], 0);
    case 'number':
      return tensor(items as number[]);
    case 'bigint':
      return tensor(BigInt64Array.from(items as bigint[]));
    case 'boolean':
      return tensor(items as boolean[]);
    case 'string':
      return [...(items as string[])];
    case 'array': {
      const n = (first as unknown[]).length;
      items.forEach((v, i) => {
        if ((v as unknown[]).length !== n) throw new RangeError(`defaultCollate: ${path} of item ${i} has ${(v as unknown[]).length} elements but of item 0 ${n}; each item needs the same number`);
      });
      return Array.from({ length: n }, (_, k) => collate(items.map((v) => (v as unknown[])[k]), `${path}[${k}]`));
    }
    case 'object': {
      const keys = Object.keys(first as object);
      return Object.fromEntries(keys.map((key) => {
        const values = items.map((v, i) => {
          if (!(key in (v as object))) throw new TypeError(`defaultCollate: ${path} of item ${i} has no key '${key}' (item 0 has ${keys.join(', ')})`);
          return (v as Record<string, unknown>)[key];
        });
        return [key, collate(values, `${path}.${key}`)];
      }));
    }
    default:
      throw new TypeError(`defaultCollate: ${path} is ${describe(first)}; items hold tensors, numbers, bigints, booleans, strings, arrays or plain objects of these (or give the DataLoader a collateFn)`);
  }
}

type Kind = 'tensor' | 'number' | 'bigint' | 'boolean' | 'string' | 'array' | 'object' | 'other';

function kindOf(v: unknown): Kind {
  if (v instanceof Tensor) return 'tensor';
  if (Array.isArray(v)) return 'array';
  if (isPlainObject(v)) return 'object';
  const t = typeof v;
  return t === 'number' || t === 'bigint' || t === 'boolean' || t === 'string' ? t : 'other';
}

function describe(v: unknown): string {
  const kind = kindOf(v);
  if (kind === 'tensor') return 'a tensor';
  if (kind === 'other') return v === null ? 'null' : v === undefined ? 'undefined' : `a ${typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v}`;
  return kind === 'array' || kind === 'object' ? `an ${kind}` : `a ${kind}`;
}
