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

/** A frozen parameter's copy (copyModule, a TransformerEncoder's layers) stays a parameter. */
export function markParameter(t: Tensor): void {
  registered.add(t);
}
