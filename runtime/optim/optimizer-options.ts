// What every optimizer's options read alike, as torch.optim's: the implementation picks
// (foreach, fused, capturable) and differentiable, and lr given as a one-element tensor.
// Here a step is one fused program whatever foreach and fused say (PyTorch's implementations
// compute the same update), so they, and capturable, are checked and accepted.
import { readOptions } from '../options.js';
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';

export interface ImplementationOptions {
  /** Accepted (true, false or null): the update is the same one fused program either way. */
  foreach?: boolean | null;
  /** Accepted (true, false or null): the update is the same one fused program either way. */
  fused?: boolean | null;
  /** Accepted: steps are already programs that run (and replay under tpu.compile) on the device. */
  capturable?: boolean;
  /** false only: gradients through the optimizer step are not supported. */
  differentiable?: boolean;
}

export type ImplementationOption = keyof ImplementationOptions;

/**
 * An optimizer's options with its implementation options checked and lr read as a number
 * (PyTorch accepts lr as a one-element tensor; its value at construction is the group's lr,
 * which schedulers then set as usual).
 */
export function readOptimizerOptions<O extends { lr?: number | Tensor }>(who: string, options: O, keys: readonly (keyof O & string)[], implementation: readonly ImplementationOption[]): Omit<O, 'lr'> & { lr?: number } {
  const o = readOptions<O & ImplementationOptions>(who, options as O & ImplementationOptions, [...keys, ...implementation] as (keyof (O & ImplementationOptions) & string)[]);
  for (const k of implementation) {
    const v = o[k];
    const nullable = k === 'foreach' || k === 'fused';
    if (v !== undefined && typeof v !== 'boolean' && !(nullable && v === null)) {
      throw new TypeError(`${who}: ${k} must be true or false${nullable ? ' (or null)' : ''}; got ${JSON.stringify(v)}`);
    }
  }
  if (o.foreach === true && o.fused === true) throw new TypeError(`${who}: foreach and fused cannot both be true (PyTorch: "\`fused\` and \`foreach\` cannot be \`True\` together.")`);
  if (o.differentiable === true) throw new TypeError(`${who}: differentiable: true is not supported (steps do not record gradients); leave it false`);
  return (o.lr instanceof Tensor ? { ...o, lr: lrNumber(who, '', o.lr) } : o) as Omit<O, 'lr'> & { lr?: number };
}

/** An lr (of the options or of a param group) given as a one-element tensor: its value; any other value as given. */
export function lrNumber<V>(who: string, where: string, lr: V): V | number {
  if (!(lr instanceof Tensor)) return lr;
  if (lr.numel() !== 1) throw new RangeError(`${who}: ${where}lr as a tensor must have one element (PyTorch: "Tensor lr must be 1-element"); got shape ${formatShape(lr.shape)}`);
  return lr.item();
}
