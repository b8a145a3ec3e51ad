// Numbers for plots from what cells hold: arrays, typed arrays, nested arrays
// and tensors (read from the device with dataSync, so a plot is a sync point).
// The kernel knows tensors by shape only, never by the runtime's class.

export interface Matrix {
  rows: number;
  cols: number;
  /** Row-major, rows * cols * channels values. */
  values: ArrayLike<number>;
  channels: number;
}

interface TensorLike {
  shape: readonly number[];
  dataSync(): ArrayLike<number | boolean>;
}

export function isTensorLike(value: unknown): value is TensorLike {
  const v = value as Partial<TensorLike> | null | undefined;
  return typeof v === 'object' && v !== null && Array.isArray(v.shape) && typeof v.dataSync === 'function';
}

/** Shape and flat values of a tensor, a typed array or a (nested) array of numbers. */
function shapedValues(value: unknown, what: string): { shape: number[]; values: ArrayLike<number> } {
  if (isTensorLike(value)) return { shape: [...value.shape], values: Array.from(value.dataSync(), Number) };
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return { shape: [(value as unknown as ArrayLike<number>).length], values: Array.from(value as unknown as ArrayLike<number | bigint>, Number) };
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && (Array.isArray(value[0]) || ArrayBuffer.isView(value[0]) || isTensorLike(value[0]))) {
      const rows = value.map((row, i) => shapedValues(row, `${what}[${i}]`));
      const inner = rows[0]!.shape;
      rows.forEach((row, i) => {
        if (row.shape.join() !== inner.join()) throw new TypeError(`${what}: rows must have one shape: row 0 is [${inner}], row ${i} is [${row.shape}]`);
      });
      return { shape: [value.length, ...inner], values: rows.flatMap((row) => Array.from(row.values)) };
    }
    return { shape: [value.length], values: value.map((v, i) => scalar(v, `${what}[${i}]`)) };
  }
  throw new TypeError(`${what}: expected a tensor, an array or a typed array of numbers, got ${describe(value)}`);
}

function scalar(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return Number(value);
  if (isTensorLike(value) && value.shape.length === 0) return Number(value.dataSync()[0]);
  throw new TypeError(`${what}: expected a number, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (isTensorLike(value)) return `a tensor of shape [${value.shape}]`;
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** A number from a number or a one-element tensor (a loss). */
export function readScalar(value: unknown, what: string): number {
  if (isTensorLike(value) && value.shape.reduce((a, b) => a * b, 1) === 1) return Number(value.dataSync()[0]);
  return scalar(value, what);
}

/** The values of a 1-D series (a tensor of any shape with one non-1 axis counts as 1-D). */
export function readSeries(value: unknown, what: string): number[] {
  const { shape, values } = shapedValues(value, what);
  if (shape.filter((n) => n !== 1).length > 1) throw new TypeError(`${what}: expected a 1-D series, got shape [${shape}]`);
  return Array.from(values);
}

/** A 2-D grid [H, W] (a heatmap) or an image [H, W, 3 | 4] (RGB, RGBA). */
export function readMatrix(value: unknown, what: string): Matrix {
  const { shape, values } = shapedValues(value, what);
  const rgb = shape.length === 3 && (shape[2] === 3 || shape[2] === 4);
  if (!(shape.length === 2 || rgb) || shape[0] === 0 || shape[1] === 0) {
    throw new TypeError(`${what}: expected a 2-D tensor [H, W] or an image [H, W, 3 | 4], got shape [${shape}]`);
  }
  return { rows: shape[0]!, cols: shape[1]!, values, channels: rgb ? shape[2]! : 1 };
}
