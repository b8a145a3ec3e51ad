// Module.to(dtype, device): every floating parameter and buffer of a module tree cast to a floating
// dtype, and every one moved to a chip, as PyTorch's nn.Module.to. Each tensor is converted in
// place (views/convert-in-place.ts), as PyTorch swaps a Parameter's .data: the module, an
// optimizer made before and a held reference keep the same tensor, which now has the new dtype
// and chip; its .grad goes with it. A tensor held twice (a tied weight) is converted once.
import { isFloating, type DType } from '../dtype.js';
import { Tensor } from '../tensor.js';
import { DTensor } from '../distributed/dtensor.js';
import { toArguments } from '../device-argument.js';
import { convertInPlace } from '../views/convert-in-place.js';
import type { Parameter } from './parameter.js';

/** Where Module.to sends a module's tensors: a floating dtype, a chip, or both. */
export interface ModuleTarget {
  readonly dtype?: DType;
  readonly chip?: number;
}

/** Module.to's arguments, as Tensor.to takes them: (dtype), (device), (device, dtype) or ({ dtype, device }). */
export function moduleTarget(arg: unknown, second?: unknown): ModuleTarget {
  const { dtype, chip } = toArguments('Module.to', arg, second);
  if (dtype !== undefined && !isFloating(dtype)) throw new TypeError(`Module.to: dtype must be a floating-point dtype (float32, bfloat16), as PyTorch's nn.Module.to; got ${dtype}`);
  return { dtype, chip };
}

/** A tensor Module.to changes: a floating one of another dtype, or one on another chip. */
function changes(t: Tensor, to: ModuleTarget): boolean {
  return (to.dtype !== undefined && isFloating(t.dtype) && t.dtype !== to.dtype) || (to.chip !== undefined && t.chip !== to.chip);
}

function convert(t: Tensor, to: ModuleTarget): void {
  const dtype = to.dtype !== undefined && isFloating(t.dtype) ? to.dtype : t.dtype;
  const chip = to.chip ?? t.chip;
  convertInPlace('Module.to', t, dtype, chip);
  const g = t._grad;
  if (g && !g.disposed) convertInPlace('Module.to', g, dtype, chip);
}

/** Converts the tensors held by `modules` (their own properties) in place. */
export function castModules(modules: readonly object[], to: ModuleTarget): void {
  for (const m of modules) {
    for (const v of Object.values(m)) if (v instanceof Tensor && v._gradNode === null && changes(v, to)) convert(v, to);
  }
}

/**
 * A sharded parameter (tensor parallel, fullyShard) lives on its mesh's chips: a device would put
 * it on one, and a dtype is not converted piece by piece here.
 */
export function refuseDTensors(parameters: readonly [string, Parameter][], to: ModuleTarget): void {
  for (const [name, p] of parameters) {
    if (p instanceof DTensor && (to.chip !== undefined || (to.dtype !== undefined && p.dtype !== to.dtype))) {
      throw new TypeError(`Module.to: '${name}' is a DTensor (of dtype ${p.dtype}, on its mesh's chips): converting a sharded parameter is not supported; call .to() before distributing the module`);
    }
  }
}

/**
 * Parameters a module lists but none of its modules holds (a wrapper's: DistributedDataParallel's
 * replicas) are laid out by the wrapper: converting the held ones only would leave them apart.
 */
export function refuseUnheld(parameters: readonly Parameter[], modules: readonly object[], to: ModuleTarget): void {
  const held = new Set(modules.flatMap((m) => Object.values(m)));
  const apart = parameters.find((p): p is Tensor => p instanceof Tensor && !held.has(p) && changes(p, to));
  if (apart) {
    throw new TypeError(`Module.to: its parameter ${apart.describe()} on ${apart.device} is held by a wrapper (DistributedDataParallel's replicas), not by a module, and is not converted: call .to() before wrapping the module`);
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
