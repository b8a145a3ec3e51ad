// A JS number that tpu.compile re-reads on every replay of a traced call: an op operand that
// is a LiveNumber becomes a scalar program input whose value comes from `read()` each call,
// never the value it had while tracing. Optimizers make their hyperparameters live numbers
// (the learning rate set before each step takes effect); tpu.compile passes the number
// arguments of a compiled function as live numbers (bound per call).
// Used in JS arithmetic instead (lr * 2, lr > 0), a live number gives its current value; while
// tracing, outside of another live number's reader, that value is frozen into the trace, so
// its owner is told (tpu.compile then makes that argument part of the signature).
// Met where an op expects a number it builds the computation with (a dim, a size, a count, a
// constant such as eps), a live number stands for its value: `specialized` reads it, and
// tpu.compile traces again for each new value, as torch.compile specializes such arguments.
import { keepShape } from '../keep-shape.js';
import { isPlainObject } from '../plain-object.js';

export class LiveNumber extends Number {
  constructor(
    private readonly reader: () => number,
    /**
     * Called when the value is read by JS code while tracing (not by an op or a reader):
     * `use` says whether JS code read it ('value') or an op specialized on it ('specialized').
     */
    private readonly onFrozen: ((use: 'value' | 'specialized') => void) | null = null,
  ) {
    super(NaN);
  }

  /** The current value, as an op operand or inside another reader: never frozen. */
  read(): number {
    readers++;
    try {
      return +this.reader();
    } finally {
      readers--;
    }
  }

  override valueOf(): number {
    if (readers === 0) this.onFrozen?.('value');
    return this.read();
  }

  /** The value, frozen into the trace as an op's argument (see `specialized`). */
  specialize(): number {
    if (readers === 0) this.onFrozen?.('specialized');
    return this.read();
  }
  override toString(radix?: number): string {
    return this.valueOf().toString(radix);
  }
  override toFixed(digits?: number): string {
    return this.valueOf().toFixed(digits);
  }
  override toPrecision(precision?: number): string {
    return this.valueOf().toPrecision(precision);
  }
  override toExponential(digits?: number): string {
    return this.valueOf().toExponential(digits);
  }
  toJSON(): number {
    return this.valueOf();
  }
  [Symbol.toPrimitive](): number {
    return this.valueOf();
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `LiveNumber(${this.read()})`;
  }
}
keepShape(new LiveNumber(() => 0));

/** Readers running now: a live number read by another reader is live, not frozen. */
let readers = 0;

/** A number, or a live number's current value (what validation code should look at). */
export function numberValue(v: unknown): unknown {
  return v instanceof LiveNumber ? v.read() : v;
}

/**
 * An argument where an op expects an integer (a dim, a size, a count, a shift) or a constant
 * it builds the computation with (eps, a norm's p), or a list of them: a live number gives its
 * value, specialized into the trace (a new value traces again); anything else is returned as
 * it is, for the caller's own check.
 */
export function specialized<T>(v: T): T {
  if (v instanceof LiveNumber) return v.specialize() as T;
  return (Array.isArray(v) ? specializedList(v) : v) as T;
}

/** `specialized` for each element of a list: the list itself when it holds no live number. */
export function specializedList<T>(list: readonly T[]): readonly T[] {
  for (let i = 0; i < list.length; i++) if (list[i] instanceof LiveNumber || Array.isArray(list[i])) return list.map(specialized);
  return list;
}

/** f(v); for a live number v, a live number that reads f of v's value (an operand computed from an argument). */
export function liveMap(v: number, f: (value: number) => number): number {
  const live: unknown = v;
  return live instanceof LiveNumber ? (new LiveNumber(() => f(live.read())) as unknown as number) : f(v);
}

/**
 * An options object (or undefined) with each value `specialized`: what a module's constructor
 * keeps (a layer built inside a compiled function never holds a live number, which would read
 * another call's arguments later). The object itself when it holds no live number.
 */
export function specializedOptions<T>(options: T): T {
  if (!isPlainObject(options)) return options;
  const entries = Object.entries(options as Record<string, unknown>);
  const values = entries.map(([, v]) => specialized(v));
  return values.every((v, i) => v === entries[i]![1]) ? options : Object.fromEntries(entries.map(([k], i) => [k, values[i]])) as T;
}
