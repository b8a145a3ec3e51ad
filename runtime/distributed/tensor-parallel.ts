// Tensor parallelism in PyTorch's vocabulary (torch.distributed.tensor.parallel):
// parallelizeModule(model, mesh, { fc1: ColwiseParallel(), fc2: RowwiseParallel() }) turns the
// named Linear layers' weight and bias into DTensors, in place, and gives each layer the input
// and output layouts PyTorch's styles use by default:
//   ColwiseParallel: weight [out, in] Shard(0), bias Shard(0); input Replicate, output Shard(-1)
//   RowwiseParallel: weight Shard(1), bias Replicate; input Shard(-1), output Replicate (the
//     partial products all-reduced)
// With one controller a layer's Shard(-1) output is a DTensor (what each rank's local output
// is in PyTorch), so elementwise modules between the layers (Tanh) run on its pieces; a
// Replicate output is a plain tensor on the mesh's first chip, so the rest of the model (and
// the loss) runs as on one chip. A plain tensor input is the global value: its pieces are
// copied to the chips, and the gradient flows back to it summed.
// On a 2-d mesh dim 0 is data parallel (the batch, dim 0 of the activations, is split along it;
// parameters are replicated along it, so their .grad sums over it) and dim 1 tensor parallel.
import { Tensor } from '../tensor.js';
import { Module } from '../nn/module.js';
import { Linear } from '../nn/linear.js';
import { linear } from '../ops/linalg.js';
import { checkMeshArg, distributeTensor, DTensor } from './dtensor.js';
import type { DeviceMesh } from './device-mesh.js';
import { Partial, Replicate, Shard, type Placement } from './placement.js';
import { localBox } from './shard-layout.js';
import { describeValue } from './describe-value.js';

/**
 * How parallelizeModule shards one Linear layer (PyTorch's ParallelStyle), made by ColwiseParallel() or RowwiseParallel().
 * @example String(tpu.distributed.ColwiseParallel()) // 'ColwiseParallel()'
 */
export class ParallelStyle {
  constructor(readonly kind: 'colwise' | 'rowwise') {}

  toString(): string {
    return this.kind === 'colwise' ? 'ColwiseParallel()' : 'RowwiseParallel()';
  }
}

/**
 * Shards a Linear layer's output features (PyTorch's ColwiseParallel): weight Shard(0), bias Shard(0); input Replicate, output a DTensor Shard(-1).
 * @example
 * const colwise = tpu.distributed.parallelizeModule(new tpu.nn.Linear(2, 8), tpu.initDeviceMesh([tpu.device().chips]), tpu.distributed.ColwiseParallel());
 * colwise.forward(tpu.ones([3, 2])).shape // [3, 8]: a DTensor, Shard(-1)
 */
export function ColwiseParallel(): ParallelStyle {
  return new ParallelStyle('colwise');
}

/**
 * Shards a Linear layer's input features (PyTorch's RowwiseParallel): weight Shard(1), bias Replicate; input Shard(-1), output Replicate (all-reduced), a plain tensor on the mesh's first chip.
 * @example
 * const rowwise = tpu.distributed.parallelizeModule(new tpu.nn.Linear(8, 2), tpu.initDeviceMesh([tpu.device().chips]), tpu.distributed.RowwiseParallel());
 * rowwise.forward(tpu.ones([3, 8])).shape // [3, 2]
 */
export function RowwiseParallel(): ParallelStyle {
  return new ParallelStyle('rowwise');
}

/** One placement per mesh dim: `batch` along the data-parallel dim 0 of a 2-d mesh, `tp` along the tensor-parallel (last) dim. */
function along(mesh: DeviceMesh, batch: Placement, tp: Placement): Placement[] {
  return mesh.ndim === 1 ? [tp] : [batch, tp];
}

/** A plain tensor (the global value) laid out as `placements`: each chip's piece copied to it; the pieces' gradients flow back summed. */
function fromPlain(x: Tensor, mesh: DeviceMesh, placements: readonly Placement[]): DTensor {
  const pieces = mesh.chips.map((chip, k) => {
    const { start, size } = localBox(x.shape, mesh, placements, k);
    const piece = start.reduce((t, s, d) => (size[d] === x.shape[d] ? t : t.narrow(d, s, size[d]!)), x);
    return piece.toChip(chip);
  });
  // Each Replicate copy is used on its own chip: its gradient is its part (the copies' adjoints add them up).
  const gradPlacements = placements.map((p) => (p.kind === 'replicate' ? Partial('sum') : p));
  return DTensor.fromLocal(pieces, mesh, placements, { shape: [...x.shape], gradPlacements });
}

/** The layer's input as a DTensor laid out as `placements` (a DTensor is redistributed, a tensor is the global value). */
function input(who: string, x: unknown, mesh: DeviceMesh, placements: (ndim: number) => Placement[]): DTensor {
  if (x instanceof DTensor) {
    if (String(x.mesh) !== String(mesh)) throw new RangeError(`${who}: input is a DTensor on ${x.mesh}, but the layer's parameters are on ${mesh}`);
    return x.redistribute(mesh, placements(x.ndim));
  }
  if (!(x instanceof Tensor)) throw new TypeError(`${who}: input must be a tensor or a DTensor; got ${describeValue(x)}`);
  if (x.ndim < mesh.ndim) throw new RangeError(`${who}: input must have at least ${mesh.ndim} dims on ${mesh} (${mesh.ndim === 2 ? 'the batch and the features' : 'the features'}); got ${x.describe()}`);
  return fromPlain(x, mesh, placements(x.ndim));
}

/** The module and every submodule, by dotted name ('' is the module). */
function modulesByName(m: Module, prefix = '', out = new Map<string, Module>()): Map<string, Module> {
  out.set(prefix, m);
  for (const [k, child] of m.namedChildren()) modulesByName(child, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

function parallelizeLinear(who: string, layer: Linear, mesh: DeviceMesh, style: ParallelStyle): void {
  const colwise = style.kind === 'colwise';
  const R = Replicate();
  const weight = distributeTensor(layer.weight, mesh, along(mesh, R, Shard(colwise ? 0 : 1)));
  const bias = layer.bias && distributeTensor(layer.bias, mesh, along(mesh, R, colwise ? Shard(0) : R));
  const pieces = (d: DTensor | null, k: number) => d?.localTensors()[k] ?? null;
  const forward = (x: Tensor | DTensor): Tensor | DTensor => {
    const last = (ndim: number) => Shard(ndim - 1);
    if (colwise) {
      const xin = input(who, x, mesh, () => along(mesh, Shard(0), R));
      const ys = xin.localTensors().map((xk, k) => linear(xk, pieces(weight, k)!, pieces(bias, k)));
      return new DTensor(ys, mesh, along(mesh, Shard(0), last(xin.ndim)), [...xin.shape.slice(0, -1), layer.outFeatures]);
    }
    const xin = input(who, x, mesh, (ndim) => along(mesh, Shard(0), last(ndim)));
    const shape = [...xin.shape.slice(0, -1), layer.outFeatures];
    const parts = new DTensor(xin.localTensors().map((xk, k) => linear(xk, pieces(weight, k)!)), mesh, along(mesh, Shard(0), Partial('sum')), shape);
    const summed = parts.redistribute(mesh, along(mesh, Shard(0), R));
    const out = bias ? new DTensor(summed.localTensors().map((t, k) => t.add(pieces(bias, k)!)), mesh, summed.placements, shape) : summed;
    return out.fullTensor();
  };
  Object.assign(layer, { weight, bias, forward });
}

/**
 * Tensor parallelism (torch.distributed.tensor.parallel.parallelize_module): each Linear named in
 * `plan` (or the module itself, given a style) gets DTensor parameters, in place, sharded as its style says; returns the module. `mesh`:
 * 1-d (tensor parallel over all chips) or 2-d (dim 0 data parallel: the batch split along it;
 * dim 1 tensor parallel). module.parameters() then yields the DTensors; tpu.optim steps them.
 * @example
 * const tpMesh = tpu.initDeviceMesh([tpu.device().chips], { names: ['tp'] });
 * const mlp = new tpu.nn.Sequential(new tpu.nn.Linear(2, 8), new tpu.nn.Tanh(), new tpu.nn.Linear(8, 2));
 * tpu.distributed.parallelizeModule(mlp, tpMesh, { '0': tpu.distributed.ColwiseParallel(), '2': tpu.distributed.RowwiseParallel() });
 * mlp.parameters()[0] instanceof tpu.DTensor // true
 * mlp.forward(tpu.ones([3, 2])).shape // [3, 2]
 */
export function parallelizeModule<M extends Module>(module: M, mesh: DeviceMesh, plan: ParallelStyle | Record<string, ParallelStyle>): M {
  const who = 'tpu.distributed.parallelizeModule';
  if (!(module instanceof Module)) throw new TypeError(`${who}: module must be a tpu.nn.Module; got ${describeValue(module)}`);
  checkMeshArg(who, 'mesh', mesh);
  if (mesh.ndim > 2) throw new RangeError(`${who}: mesh must be 1-d (tensor parallel) or 2-d (data parallel x tensor parallel); got ${mesh}`);
  if (plan === null || typeof plan !== 'object' || Array.isArray(plan)) throw new TypeError(`${who}: plan must be an object of { name: tpu.distributed.ColwiseParallel() | RowwiseParallel() }; got ${describeValue(plan)}`);
  const named = modulesByName(module);
  // A style alone applies to the module itself (PyTorch's parallelize_module(linear, mesh, ColwiseParallel())).
  const entries = plan instanceof ParallelStyle ? [['', plan] as const] : Object.entries(plan);
  // Every entry is checked before any layer changes: an error leaves the module as it was.
  const nameOf = new Map<Module, string>();
  const layers = entries.map(([name, style]) => {
    if (!(style instanceof ParallelStyle)) throw new TypeError(`${who}: plan['${name}'] must be tpu.distributed.ColwiseParallel() or RowwiseParallel(); got ${describeValue(style)}`);
    const layer = named.get(name);
    if (layer === undefined) throw new RangeError(`${who}: plan names '${name}', which is not a submodule; the submodules are ${[...named.keys()].filter((k) => k).map((k) => `'${k}'`).join(', ')}`);
    const what = name ? `'${name}'` : 'the module';
    if (!(layer instanceof Linear)) throw new TypeError(`${who}: plan${name ? `['${name}']` : ''} is ${style}, but ${what} is ${layer.constructor.name}; the styles shard tpu.nn.Linear layers`);
    if (!(layer.weight instanceof Tensor)) throw new RangeError(`${who}: ${what} is already parallelized (its weight is a DTensor)`);
    const first = nameOf.get(layer);
    if (first !== undefined) throw new RangeError(`${who}: plan names '${first}' and '${name}', which are one Linear (a module used twice); a layer gets one style`);
    nameOf.set(layer, name);
    return [layer, style] as const;
  });
  for (const [layer, style] of layers) parallelizeLinear(who, layer, mesh, style);
  return module;
}
