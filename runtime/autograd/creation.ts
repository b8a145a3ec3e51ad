// `{ requiresGrad: true }` in the options of every creation function (tpu.randn, ...).
import type { Tensor } from '../tensor.js';
import { setRequiresGrad } from './tensor-methods.js';
import { isPlainObject } from '../plain-object.js';

type Creator = (...args: never[]) => Tensor;

/** Wraps creation functions: a trailing options object may say requiresGrad. */
export function withRequiresGrad<T extends Record<string, Creator>>(creators: T): T {
  const out: Record<string, Creator> = {};
  for (const [name, create] of Object.entries(creators)) {
    out[name] = (...args: never[]) => {
      const t = create(...args);
      const last = args[args.length - 1] as unknown;
      const isOptions = isPlainObject(last);
      const wanted = isOptions ? (last as { requiresGrad?: unknown }).requiresGrad : undefined;
      return wanted === undefined ? t : setRequiresGrad(t, wanted as boolean, `tpu.${name}`);
    };
  }
  return out as T;
}
