// The arguments of torch.linalg's norms: PyTorch's positional order (ord, dim, keepdim), any
// suffix of it given instead by one trailing options object, as every op here takes them.
import { isOptions, readOptions } from '../../options.js';
import { specialized } from '../../jit/live-number.js';

export interface NormArgs<O> {
  ord?: O;
  dim?: number | readonly number[];
  keepdim?: boolean;
}

const KEYS = ['ord', 'dim', 'keepdim'] as const;

/** `args` after the input, as { ord, dim, keepdim }; keepdim checked a boolean. */
export function readNormArgs<O>(op: string, args: readonly unknown[]): NormArgs<O> {
  const at = args.findIndex(isOptions);
  if (at >= 0 && at !== args.length - 1) throw new TypeError(`${op}: the options object must be the last argument; got ${args.length - at - 1} more after it`);
  const given = at < 0 ? args : args.slice(0, at);
  if (given.length > KEYS.length) throw new TypeError(`${op}: expected at most ord, dim and keepdim after the input; got ${given.length} arguments`);
  const options = at < 0 ? {} : readOptions<NormArgs<O>>(op, args[at], [...KEYS]);
  // ord and dim shape the computation: a tpu.compile number argument gives its value
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(options).map(([k, v]) => [k, specialized(v)]));
  given.forEach((v, i) => {
    const key = KEYS[i]!;
    if (key in out) throw new TypeError(`${op}: ${key} is given twice: positionally (${JSON.stringify(v)}) and in the options (${JSON.stringify(out[key])})`);
    if (v !== undefined) out[key] = specialized(v);
  });
  if (out.keepdim !== undefined && typeof out.keepdim !== 'boolean') throw new TypeError(`${op}: keepdim must be a boolean; got ${JSON.stringify(out.keepdim)}`);
  if (out.dim !== undefined && typeof out.dim !== 'number' && !Array.isArray(out.dim)) throw new TypeError(`${op}: dim must be a number or an array of numbers; got ${JSON.stringify(out.dim)}`);
  return out as NormArgs<O>;
}
