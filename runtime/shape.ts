// Static shapes: broadcasting, dims, element counts. Errors name the op and the argument.
import { specialized, specializedList } from './jit/live-number.js';

export type Shape = readonly number[];

export function numel(shape: Shape): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function formatShape(shape: Shape): string {
  return `[${shape.join(', ')}]`;
}

export function shapesEqual(a: Shape, b: Shape): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** NumPy broadcasting of two shapes; `names` name the operands in the error. */
export function broadcastShapes(op: string, a: Shape, b: Shape, names: readonly [string, string] = ['input', 'other']): Shape {
  if (shapesEqual(a, b)) return a;
  const n = Math.max(a.length, b.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const da = a[a.length - n + i] ?? 1;
    const db = b[b.length - n + i] ?? 1;
    if (da !== db && da !== 1 && db !== 1) {
      throw new RangeError(
        `${op}: shapes ${formatShape(a)} (${names[0]}) and ${formatShape(b)} (${names[1]}) cannot be broadcast: ` +
          `dimension ${i - n} is ${da} vs ${db}`,
      );
    }
    out[i] = da === 1 ? db : da;
  }
  return out;
}

/** Resolves a possibly negative dim against a rank, or throws naming the op. */
export function normalizeDim(op: string, dim: number, rank: number, arg = 'dim'): number {
  dim = specialized(dim);
  const lo = rank === 0 ? -1 : -rank;
  const hi = rank === 0 ? 0 : rank - 1;
  if (!Number.isInteger(dim) || dim < lo || dim > hi) {
    throw new RangeError(`${op}: ${arg} must be an integer in [${lo}, ${hi}] for a tensor of rank ${rank}; got ${dim}`);
  }
  return dim < 0 ? dim + Math.max(rank, 1) : dim;
}

export function checkShape(op: string, shape: unknown, arg = 'shape'): number[] {
  const dims = Array.isArray(shape) ? specializedList(shape) : null;
  if (!dims || !dims.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new TypeError(`${op}: ${arg} must be an array of non-negative integers; got ${JSON.stringify(dims ?? shape)}`);
  }
  return [...dims]; // the caller may reuse or mutate its array
}
