// Module.to(dtype, device): every floating parameter and buffer of a module tree cast to a floating
// dtype, and every one moved to a chip, as PyTorch's nn.Module.to. A tensor's dtype and chip are
// fixed here, so each one changed is a new tensor put in its place (requiresGrad, parameter status and .grad carried over; a tensor held
// twice, a tied weight, replaced once): an optimizer must be made after .to(), which
// refuseReplaced enforces.
import { isFloating, type DType } from '../dtype.js';
import { Tensor } from '../tensor.js';
import { keep } from '../scope.js';
import { noGrad } from '../autograd/grad-mode.js';
import { setRequiresGrad } from '../autograd/tensor-methods.js';
import { DTensor } from '../distributed/dtensor.js';
import { toArguments } from '../device-argument.js';
import { isParameter, markParameter, noteReplacedByTo } from './registered-parameters.js';

/** Where Module.to sends a module's tensors: a floating dtype, a chip, or both; `text` names it in errors. */
export interface ModuleTarget {
  readonly dtype?: DType;
  readonly chip?: number;
  readonly text: string;
}

/** Module.to's arguments, as Tensor.to takes them: (dtype), (device), (device, dtype) or ({ dtype, device }). */
export function moduleTarget(arg: unknown, second?: unknown): ModuleTarget {
  const { dtype, chip } = toArguments('Module.to', arg, second);
  if (dtype !== undefined && !isFloating(dtype)) throw new TypeError(`Module.to: dtype must be a floating-point dtype (float32, bfloat16), as PyTorch's nn.Module.to; got ${dtype}`);
  const text = [chip === undefined ? '' : `tpu:${chip}`, dtype ?? ''].filter((part) => part !== '').join("', '");
  return { dtype, chip, text };
}

/** A tensor Module.to changes: a floating one of another dtype, or one on another chip. */
function changes(t: Tensor, to: ModuleTarget): boolean {
  return (to.dtype !== undefined && isFloating(t.dtype) && t.dtype !== to.dtype) || (to.chip !== undefined && t.chip !== to.chip);
}

function moved(t: Tensor, to: ModuleTarget): Tensor {
  const dtype = to.dtype !== undefined && isFloating(t.dtype) ? to.dtype : t.dtype;
  return t.to(to.chip === undefined ? { dtype } : { dtype, device: `tpu:${to.chip}` });
}

function convert(t: Tensor, to: ModuleTarget): Tensor {
  const out = keep(noGrad(() => moved(t, to)));
  if (t.requiresGrad) setRequiresGrad(out, true, 'Module.to');
  if (isParameter(t)) markParameter(out);
  const g = t._grad;
  if (g && !g.disposed) out.grad = keep(noGrad(() => moved(g, to)));
  noteReplacedByTo(t, to.text);
  return out;
}

/** Converts the tensors held by `modules` (each module once; their own properties) in place of the old ones. */
export function castModules(modules: readonly object[], to: ModuleTarget): void {
  const made = new Map<Tensor, Tensor>();
  for (const m of modules) {
    for (const [k, v] of Object.entries(m)) {
      if (v instanceof DTensor && (to.chip !== undefined || (to.dtype !== undefined && v.dtype !== to.dtype))) {
        throw new TypeError(`Module.to: '${k}' is a DTensor (of dtype ${v.dtype}, on its mesh's chips): converting a sharded parameter is not supported; call .to() before distributing the module`);
      }
      if (!(v instanceof Tensor) || v._gradNode !== null || !changes(v, to)) continue;
      let out = made.get(v);
      if (!out) made.set(v, (out = convert(v, to)));
      (m as unknown as Record<string, Tensor>)[k] = out;
    }
  }
}

/**
 * A module whose parameters or buffers sit on several chips (DistributedDataParallel's replicas,
 * fullyShard's shards, a module placed by hand) is laid out by its wrapper or its author: moving
 * them all to one chip would undo that, so Module.to(device) refuses it.
 */
export function refuseSpread(tensors: readonly unknown[]): void {
  const chips = new Set<number>();
  for (const t of tensors) if (t instanceof Tensor) chips.add(t.chip);
  if (chips.size > 1) {
    throw new TypeError(`Module.to: its tensors are on chips ${[...chips].sort((a, b) => a - b).join(', ')}; a module spread over chips (DistributedDataParallel, fullyShard, one placed by hand) is not moved to one chip: call .to(device) before wrapping it`);
  }
}
