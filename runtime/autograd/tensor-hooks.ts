// tensor.registerHook(fn) (torch.Tensor.register_hook): functions of a tensor's gradient, run by
// backward (and tpu.autograd.grad) once that gradient is complete, in the order registered,
// before it flows on (to the ops that made the tensor, into a leaf's .grad, a retained .grad);
// a tensor a hook returns replaces the gradient. As PyTorch's, a hook belongs to the value the
// tensor held when it was registered: keyed by its graph node (a leaf by itself), so after an
// in-place write it still sees the old value's gradient (that node is reached through the
// tensor's past, past-values.ts). The hooks live in a WeakMap (no field on every Tensor), and
// backward skips the lookup while no hook is registered.
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { keep } from '../scope.js';
import { installMethods } from '../install-methods.js';
import { removableHandle, type RemovableHandle } from '../removable-handle.js';

/** A gradient hook: nothing to keep the gradient, or a tensor of its shape and dtype to replace it. */
export type GradHook = (grad: Tensor) => Tensor | void | null | undefined;

const hooks = new WeakMap<object, GradHook[]>();

/** What a tensor's hooks are kept under: the node that made its current value, or a leaf itself. */
const keyOf = (t: Tensor): object => t._gradNode ?? t;
/** Hooks registered and not removed, on any tensor. */
let registered = 0;

function registerHook(t: Tensor, fn: GradHook): RemovableHandle {
  if (typeof fn !== 'function') throw new TypeError(`registerHook: the hook must be a function of the gradient; got ${fn === null ? 'null' : typeof fn}`);
  if (!t.requiresGrad) throw new Error(`registerHook: cannot register a hook on a tensor that doesn't require grad (${t.describe()}), as in PyTorch`);
  const key = keyOf(t);
  const list = hooks.get(key) ?? [];
  hooks.set(key, list);
  list.push(fn);
  registered++;
  return removableHandle(list, fn, () => registered--);
}

/** t's gradient g after t's hooks; g itself when it has none. */
export function hookedGradient(t: Tensor, g: Tensor): Tensor {
  if (registered === 0) return g;
  const list = hooks.get(keyOf(t));
  if (!list?.length) return g;
  for (const fn of [...list]) {
    // a hook may keep the gradient it sees (saved.push(g)): it outlives the backward pass's scope
    const r = fn(keep(g));
    if (r === undefined || r === null) continue;
    if (!(r instanceof Tensor)) throw new TypeError(`registerHook: a hook must return nothing or a tensor to replace the gradient; got ${typeof r}`);
    if (formatShape(r.shape) !== formatShape(g.shape)) throw new RangeError(`registerHook: a hook changed the gradient's shape from ${formatShape(g.shape)} to ${formatShape(r.shape)}; it must keep it, as in PyTorch`);
    if (r.dtype !== g.dtype) throw new TypeError(`registerHook: a hook changed the gradient's dtype from ${g.dtype} to ${r.dtype}; it must keep it, as in PyTorch`);
    g = r;
  }
  return g;
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Runs fn(grad) in backward once this tensor's gradient is complete (torch.Tensor.register_hook),
     * for leaves and computed tensors; a tensor fn returns replaces the gradient (same shape and dtype).
     * Returns a handle whose remove() unregisters it.
     * @example const w = tpu.tensor([1, 2], { requiresGrad: true }); const h = w.registerHook((g) => g.mul(2)); w.square().sum().backward(); h.remove(); w.grad // [4, 8]
     */
    registerHook(fn: GradHook): RemovableHandle;
  }
}
installMethods({
  registerHook(fn) { return registerHook(this, fn); },
});
