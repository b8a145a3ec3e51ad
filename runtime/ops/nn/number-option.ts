// A number given among an nn.functional op's options (negativeSlope, beta, delta, eps, ...).
import { specialized } from '../../jit/live-number.js';

/** The option's value, its default when omitted; anything but a number is an error naming it. */
export function numberOption(op: string, name: string, value: unknown, fallback: number): number {
  value = specialized(value); // a tpu.compile number argument: its value
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${op}: ${name} must be a number; got ${value === null ? 'null' : `${typeof value} ${JSON.stringify(value)}`}`);
  return value;
}
