// Which tensors are parameters, as PyTorch's Module.__setattr__ registers an nn.Parameter: a leaf
// that requires grad when it is assigned to a module's property stays a parameter after it is
// frozen (`p.requiresGrad = false`, `module.requiresGrad_(false)`). parameters() still lists it
// (a parameter count, an optimizer made after freezing, which steps it again once unfrozen),
// and stateDict() is unchanged, as in PyTorch.
import { Tensor } from '../tensor.js';
import { DTensor } from '../distributed/dtensor.js';

const registered = new WeakSet<object>();

/** Called with every value assigned to a module's property. */
export function noteAssigned(value: unknown): void {
  if ((value instanceof Tensor || value instanceof DTensor) && value.requiresGrad && value.isLeaf) registered.add(value);
}

/**
 * A leaf (a Tensor, or a DTensor of a tensor-parallel module) that requires grad, or one that did
 * when a module took it (frozen since).
 */
export function isParameter(t: { readonly requiresGrad: boolean }): boolean {
  return t.requiresGrad || registered.has(t);
}

/** A frozen parameter's replacement (Module.to) stays a parameter. */
export function markParameter(t: Tensor): void {
  registered.add(t);
}

/** Parameters Module.to replaced by new tensors of another dtype or chip, with what .to() was given. */
const replaced = new WeakMap<object, string>();
let anyReplaced = false;

export function noteReplacedByTo(old: Tensor, to: string): void {
  replaced.set(old, to);
  anyReplaced = true;
}

/**
 * An optimizer made before model.to(dtype) holds the old parameters, which get no gradient any
 * more: its steps would do nothing, silently. Refused, naming the fix.
 */
export function refuseReplaced(who: string, p: Tensor): void {
  if (!anyReplaced || !replaced.has(p)) return;
  throw new Error(`${who}: the parameter ${p.describe()} was replaced by model.to('${replaced.get(p)}') after the optimizer took it (a tensor's dtype and chip are fixed here, so Module.to makes new parameters): make the optimizer after calling model.to(...)`);
}
