// The trailing options object of a call (PyTorch's keyword arguments): checked in one place,
// so a typo (`dimm`), a Python spelling (`requires_grad`, `axis`) or an option the op does not
// implement is an error naming the op, the key and the keys the op accepts.
import { isPlainObject } from './plain-object.js';
import { numberValue, specialized } from './jit/live-number.js';

/** Spellings users bring from NumPy / Python, mapped to this API's key. */
const ALIASES: Record<string, string> = { axis: 'dim', axes: 'dim', keepdims: 'keepdim', dims: 'dim' };

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** True for an options object (a plain object, from any realm), as opposed to a tensor, array or number. */
export function isOptions(v: unknown): v is Record<string, unknown> {
  return isPlainObject(v);
}

/**
 * A tensor, told without importing Tensor (tensor.ts imports this file): JSON.stringify would
 * read its values, a sync, and under tpu.compile an error about reading instead of this one.
 */
const isTensor = (v: unknown): v is { describe(): string } =>
  typeof v === 'object' && v !== null && 'dtype' in v && 'shape' in v && typeof (v as { describe?: unknown }).describe === 'function';

/**
 * Reads an options object: `undefined` gives {}; anything else must be a plain object whose
 * keys are all in `accepted`.
 */
export function readOptions<T extends object>(op: string, value: unknown, accepted: readonly (keyof T & string)[]): Partial<T> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    const shown = numberValue(value); // a tpu.compile number argument: a number
    const got = shown === null ? 'null' : Array.isArray(shown) ? 'an array' : isTensor(shown) ? `a tensor ${shown.describe()}` : `${typeof shown} ${JSON.stringify(shown)}`;
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
 * The arguments by name of a call PyTorch takes with leading values by position and keywords
 * after (`normal_(w, 0, 0.02)`, `normal_(w, std=0.02)`, `nn.Hardtanh(-2, max_val=2)`): the values
 * in `names`' order, then one options object that may hold any of `names` and `keywordOnly`.
 * Too many values, an unknown option or a name given both ways is an error naming `who`.
 */
export function byPosition<T extends object>(who: string, args: readonly unknown[], names: readonly (keyof T & string)[], keywordOnly: readonly (keyof T & string)[] = []): Partial<T> {
  const last = args[args.length - 1];
  const values = isOptions(last) ? args.slice(0, -1) : args;
  if (values.length > names.length) {
    throw new TypeError(`${who}: takes at most ${names.length} argument${names.length === 1 ? '' : 's'} (${names.join(', ')}) before its options; got ${values.length}`);
  }
  const named: Record<string, unknown> = { ...readOptions<T>(who, isOptions(last) ? last : undefined, [...names, ...keywordOnly]) };
  values.forEach((v, i) => {
    const name = names[i]!;
    if (v === undefined) return; // an omitted argument
    if (named[name] !== undefined) throw new TypeError(`${who}: ${name} is given twice: positionally (${JSON.stringify(v)}) and in the options (${JSON.stringify(named[name])})`);
    named[name] = v;
  });
  return named as Partial<T>;
}

/** byPosition's arguments, each a finite number or absent (an init function's mean, std, bounds). */
export function numbersByPosition(op: string, names: readonly string[], args: readonly unknown[]): Record<string, number | undefined> {
  const byName = byPosition<Record<string, unknown>>(op, specialized(args), names);
  for (const [name, v] of Object.entries(byName)) {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw new TypeError(`${op}: ${name} must be a finite number; got ${v === null ? 'null' : `${typeof v} ${JSON.stringify(v)}`}`);
  }
  return byName as Record<string, number | undefined>;
}
