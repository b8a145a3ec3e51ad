// PyTorch's integer-list arguments in both its forms: x.view(2, -1) or x.view([2, -1]) (a
// list or tuple there), tpu.zeros(2, 3, { dtype }) as torch.zeros(2, 3, dtype=...). The one
// reader of these forms, so every function and method that takes them names its argument,
// what it expects and what came alike.
import { isOptions } from './options.js';
import { numberValue, specializedList } from './jit/live-number.js';

/** `*size` as a method types it: integers, or one array. */
export type IntArgs = number[] | [readonly number[]];

/**
 * The integers of f(2, 3) or f([2, 3]), each an integer ≥ min (no min: any sign, as dims).
 * The array of the array form is returned as given (callers that keep it copy it).
 */
export function intArgs(op: string, args: readonly unknown[], arg: string, min?: number): readonly number[] {
  if (args.length === 1 && Array.isArray(args[0])) return checkInts(op, args[0], arg, min, args);
  if (args.length === 0) throw new TypeError(`${op}: ${arg} is missing; ${forms(op, arg)}`);
  return checkInts(op, args, arg, min, args);
}

/**
 * The integers and the trailing options object (PyTorch's keywords) of f(2, 3, options) or
 * f([2, 3], options); options is undefined when none is given.
 */
export function intArgsWithOptions(op: string, args: readonly unknown[], arg: string, min?: number): { ints: readonly number[]; options: unknown } {
  if (Array.isArray(args[0]) && args.length <= 2 && typeof args[1] !== 'number') {
    return { ints: checkInts(op, args[0], arg, min, args), options: args[1] };
  }
  const options = isOptions(args[args.length - 1]) ? args[args.length - 1] : undefined;
  return { ints: intArgs(op, options === undefined ? args : args.slice(0, -1), arg, min), options };
}

/** A list PyTorch takes only as a list or tuple (torch.reshape(x, shape)). */
export function intArray(op: string, value: unknown, arg: string, min?: number): readonly number[] {
  if (!Array.isArray(value)) throw new TypeError(`${op}: ${arg} must be an array of integers; got ${describe(value)}`);
  return checkInts(op, value, arg, min);
}

/** `args`: the call's arguments, shown in the error (the whole call when list is them). */
function checkInts(op: string, given: readonly unknown[], arg: string, min: number | undefined, args?: readonly unknown[]): readonly number[] {
  const list = specializedList(given); // a tpu.compile number argument: its value
  // a plain loop: reshape reads its shape here several times a training step
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (Number.isInteger(v) && (min === undefined || (v as number) >= min)) continue;
    if (Array.isArray(v) && given === args) throw new TypeError(`${op}: ${forms(op, arg)}, not both; got ${call(op, list)}`);
    const Err = Number.isInteger(v) ? RangeError : TypeError;
    throw new Err(`${op}: ${arg}[${i}] must be ${expected(min)}; got ${describe(v)}${args ? ` in ${call(op, args)}` : ''}`);
  }
  return list as readonly number[];
}

function expected(min: number | undefined): string {
  if (min === undefined) return 'an integer';
  if (min === 0) return 'a non-negative integer';
  return min === -1 ? 'an integer ≥ -1 (one -1 is inferred from the others)' : `an integer ≥ ${min}`;
}

const forms = (op: string, arg: string) => `give ${arg} as integers, ${op}(2, 3), or as one array, ${op}([2, 3])`;

/** What came, for an error: the string "3", the array [2, 3], an object of type Tensor, 1.5. */
export function describe(v: unknown): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (Array.isArray(v)) return `the array ${format(v)}`;
  if (typeof v === 'bigint') return `the BigInt ${v}n (sizes are numbers)`;
  if (v !== null && typeof v === 'object') return `an object of type ${v.constructor?.name ?? 'Object'}`;
  return String(v);
}

/** The call as it was written: view(2, "3"). */
const call = (op: string, args: readonly unknown[]) => `${op}(${args.map(format).join(', ')})`;

function format(given: unknown): string {
  const v = numberValue(given); // a tpu.compile number argument: its value
  if (Array.isArray(v)) return `[${v.map(format).join(', ')}]`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v !== null && typeof v === 'object') return isOptions(v) ? '{…}' : `<${v.constructor?.name ?? 'object'}>`;
  return String(v);
}
