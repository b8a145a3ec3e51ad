// tpu's functional forms take DTensors too (tpu.tan(dt), tpu.nn.functional.leakyRelu(dt),
// F.l1Loss(input, target) of DTensors), by the groups of dtensor-op-groups.ts: a function named as
// a DTensor method, with the input first, is that method; FUNCTIONS_POINTWISE by the pointwise
// rule; FUNCTIONS_REFUSED with their reason; any other by the replicated rule. Plain tensors go
// straight to the function. Their types: each signature also with Tensor read as DTensor.
import { DTensor } from './dtensor.js';
import { FUNCTIONS_POINTWISE, FUNCTIONS_REFUSED } from './dtensor-op-groups.js';
import { pointwise, replicated, type PieceOp } from './generic-rules.js';
import type { OnDTensors } from './dtensor-methods.js';

/** The functions, each also taking DTensors (a non-function member is kept as it is). */
export type AcceptingDTensors<T> = { [K in keyof T]: K extends keyof typeof FUNCTIONS_REFUSED ? T[K] : T[K] extends (...a: never[]) => unknown ? T[K] & OnDTensors<T[K]> : T[K] };

const holdsDTensor = (v: unknown) => v instanceof DTensor || (Array.isArray(v) && v.some((e) => e instanceof DTensor));

function accepting(who: string, name: string, f: (...a: unknown[]) => unknown): (...a: unknown[]) => unknown {
  const op: PieceOp = (args) => f(...args);
  const pointwiseForm = (FUNCTIONS_POINTWISE as readonly string[]).includes(name);
  return (...args) => {
    if (!args.some(holdsDTensor)) return f(...args);
    const refused = (FUNCTIONS_REFUSED as Record<string, string>)[name];
    if (refused !== undefined) throw new TypeError(`${who}: not on a DTensor: ${refused}`);
    if (pointwiseForm) return pointwise(who, args, op);
    const [x, ...rest] = args;
    const m = (DTensor.prototype as unknown as Record<string, unknown>)[name];
    if (x instanceof DTensor && typeof m === 'function') return (m as (...a: unknown[]) => unknown).apply(x, rest);
    return replicated(who, args, op);
  };
}

/** `fns` (tpu's functions under `prefix`) taking DTensors too. */
export function acceptingDTensors<T extends object>(prefix: string, fns: T): AcceptingDTensors<T> {
  return Object.fromEntries(Object.entries(fns).map(([name, f]) => [name, typeof f === 'function' ? accepting(`${prefix}.${name}`, name, f as (...a: unknown[]) => unknown) : f])) as AcceptingDTensors<T>;
}
