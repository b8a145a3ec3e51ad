// The trailing options object of a call (PyTorch's keyword arguments): checked in one place,
// so a typo (`dimm`), a Python spelling (`requires_grad`, `axis`) or an option the op does not
// implement is an error naming the op, the key and the keys the op accepts.
import { isPlainObject } from './plain-object.js';

/** Spellings users bring from NumPy / Python, mapped to this API's key. */
const ALIASES: Record<string, string> = { axis: 'dim', axes: 'dim', keepdims: 'keepdim', dims: 'dim' };

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** True for an options object (a plain object, from any realm), as opposed to a tensor, array or number. */
export function isOptions(v: unknown): v is Record<string, unknown> {
  return isPlainObject(v);
}

/**
 * Reads an options object: `undefined` gives {}; anything else must be a plain object whose
 * keys are all in `accepted`.
 */
export function readOptions<T extends object>(op: string, value: unknown, accepted: readonly (keyof T & string)[]): Partial<T> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `${typeof value} ${JSON.stringify(value)}`;
    throw new TypeError(`${op}: options must be an object with keys ${listKeys(accepted)}; got ${got}`);
  }
  for (const key of Object.keys(value)) {
    if ((accepted as readonly string[]).includes(key)) continue;
    // keepDim for keepdim: the accepted key in another case
    const hint = ALIASES[key] ?? accepted.find((k) => k.toLowerCase() === key.toLowerCase()) ?? camel(key);
    const suggestion = hint !== key && (accepted as readonly string[]).includes(hint) ? ` (did you mean '${hint}'?)` : '';
    throw new TypeError(`${op}: unknown option '${key}'${suggestion}; ${op} accepts ${listKeys(accepted)}`);
  }
  return value as Partial<T>;
}

function listKeys(keys: readonly string[]): string {
  return keys.length === 0 ? 'no options' : keys.map((k) => `'${k}'`).join(', ');
}

/**
 * PyTorch's `x.sum(1, keepdim=True)` written `x.sum(1, { keepdim: true })`: the options that
 * follow a positional argument, checked against `accepted`, joined with that argument under
 * its name (giving it in both places is an error).
 */
export function withPositional(op: string, name: string, value: unknown, options: Record<string, unknown>, accepted: readonly string[]): Record<string, unknown> {
  if (name in options) throw new TypeError(`${op}: ${name} is given twice: positionally (${JSON.stringify(value)}) and in the options (${JSON.stringify(options[name])})`);
  return { ...readOptions(op, options, accepted.filter((k) => k !== name)), [name]: value };
}

/**
 * Numbers PyTorch takes positionally or by keyword (`normal_(w, 0, 0.02)`, `normal_(w, std=0.02)`):
 * given in `names`' order, then optionally one options object for the rest. Each is a finite
 * number or absent; giving one in both places is an error.
 */
export function numbersByPosition(op: string, names: readonly string[], args: readonly unknown[]): Record<string, number | undefined> {
  const last = args[args.length - 1];
  const positional = isOptions(last) ? args.slice(0, -1) : args;
  if (positional.length > names.length) throw new TypeError(`${op}: takes at most ${names.length} numbers (${names.join(', ')}); got ${positional.length}`);
  const byName: Record<string, unknown> = isOptions(last) ? { ...readOptions(op, last, names.slice(positional.length)) } : {};
  positional.forEach((v, i) => (byName[names[i]!] = v));
  for (const [name, v] of Object.entries(byName)) {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw new TypeError(`${op}: ${name} must be a finite number; got ${v === null ? 'null' : `${typeof v} ${JSON.stringify(v)}`}`);
  }
  return byName as Record<string, number | undefined>;
}
