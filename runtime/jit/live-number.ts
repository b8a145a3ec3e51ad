// A JS number that tpu.compile re-reads on every replay of a traced call: an op operand that
// is a LiveNumber becomes a scalar program input whose value comes from `read()` each call,
// never the value it had while tracing. Optimizers make their hyperparameters live numbers
// (the learning rate set before each step takes effect); tpu.compile passes the number
// arguments of a compiled function as live numbers (bound per call).
// Used in JS arithmetic instead (lr * 2, lr > 0), a live number gives its current value; while
// tracing, outside of another live number's reader, that value is frozen into the trace, so
// its owner is told (tpu.compile then makes that argument part of the signature).
import { keepShape } from '../keep-shape.js';

export class LiveNumber extends Number {
  constructor(
    private readonly reader: () => number,
    /** Called when the value is read by JS code while tracing (not by an op or a reader). */
    private readonly onFrozen: (() => void) | null = null,
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
    if (readers === 0) this.onFrozen?.();
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
