// Argument checks shared by the layers: errors name the layer, the argument and the value.
import { specialized } from '../jit/live-number.js';

/** v as a positive integer (a tpu.compile number argument: its value, the trace specialized on it). */
export function positiveInt(layer: string, arg: string, v: unknown): number {
  const n = specialized(v);
  if (!Number.isInteger(n) || (n as number) < 1) throw new RangeError(`${layer}: ${arg} must be a positive integer; got ${JSON.stringify(n)}`);
  return n as number;
}
