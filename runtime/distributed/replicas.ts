// What DDP and FSDP share: a module's replica on each chip of a mesh, the global batch split on
// dim 0 (torch.chunk sizes) with one piece per chip (per coordinate along a sub-mesh's axis),
// and the chips' outputs joined back on the first chip. The outputs come back as ONE tensor of
// the global batch, so any loss written after forward() is the loss of the global batch,
// exactly PyTorch's on one device; its gradient reaches each chip's piece through the copies'
// gradient rule.
import { Tensor } from '../tensor.js';
import { Module } from '../nn/module.js';
import { concat } from '../ops/concat.js';
import { zeros } from '../creation.js';
import { keep, scope } from '../scope.js';
import { noGrad } from '../autograd/grad-mode.js';
import { formatShape } from '../shape.js';
import { DeviceMesh } from './device-mesh.js';
import { chunkSizes } from './functional-collectives.js';
import './to-chip.js';

/**
 * A copy of `m`'s module tree whose tensors are replaced through `tensorOf` (tensors it does
 * not map stay). Made without running constructors, so a replica is cheap to make per step.
 */
export function replicaOf(m: Module, tensorOf: (t: Tensor) => Tensor): Module {
  const copy = Object.create(Object.getPrototypeOf(m) as object) as Record<string, unknown>;
  const one = (v: unknown): unknown => (v instanceof Tensor ? tensorOf(v) : v instanceof Module ? replicaOf(v, tensorOf) : v);
  for (const [k, v] of Object.entries(m)) copy[k] = Array.isArray(v) ? v.map(one) : one(v);
  return copy as unknown as Module;
}

export function checkMesh(who: string, mesh: unknown): DeviceMesh {
  if (!(mesh instanceof DeviceMesh)) throw new TypeError(`${who}: options.mesh must be a DeviceMesh (tpu.initDeviceMesh); got ${mesh === null ? 'null' : typeof mesh}`);
  return mesh;
}

export function checkModule(who: string, module: unknown): Module {
  if (!(module instanceof Module)) throw new TypeError(`${who}: module must be a tpu.nn.Module; got ${module === null ? 'null' : typeof module}`);
  plainParameters(who, module);
  return module;
}

/** The module's parameters, every one a plain tensor: the data-parallel wrappers copy or shard tensors, not DTensors. */
export function plainParameters(who: string, module: Module): [string, Tensor][] {
  return module.namedParameters().map(([name, p]) => {
    if (p instanceof Tensor) return [name, p];
    throw new TypeError(`${who}: the module's parameter '${name}' is a DTensor (tpu.distributed.parallelizeModule); ${who} wraps modules of plain tensors. For data parallelism with tensor parallelism, give parallelizeModule a 2-d mesh (its first dim splits the batch)`);
  });
}

/**
 * Runs replica(k) on chip k's piece of every tensor input (split on dim 0) and joins the
 * outputs on dim 0 on the mesh's first chip. Chip k's piece is its rank along the mesh's axis
 * (mesh.ranks()): its own on a whole mesh; on a sub-mesh, chips with the same coordinate run the
 * same piece, and the first of them gives its value.
 */
export function dataParallelForward(who: string, mesh: DeviceMesh, inputs: readonly unknown[], replica: (k: number) => Module): Tensor {
  const pieceOf = mesh.ranks();
  const count = mesh.groups()[0]!.length;
  const tensors = inputs.filter((x): x is Tensor => x instanceof Tensor);
  if (tensors.length === 0) throw new TypeError(`${who}.forward: give at least one tensor input (its dim 0 is split in ${count} pieces)`);
  const batch = tensors[0]!.shape[0];
  for (const [i, x] of inputs.entries()) {
    if (!(x instanceof Tensor)) continue;
    if (x.ndim === 0 || x.shape[0] !== batch) throw new RangeError(`${who}.forward: every tensor input is split on dim 0, so they must have the same dim 0 size; input ${i} has shape ${formatShape(x.shape)}, input 0 has ${formatShape(tensors[0]!.shape)}`);
  }
  const per = mesh.axis === null ? `chip (${count})` : `coordinate along '${mesh.axis}' (${count})`;
  if (batch === undefined || batch < count) throw new RangeError(`${who}.forward: the batch (dim 0 of the inputs) must have at least one row per ${per}; got ${batch ?? 'a 0-d tensor'}`);
  const sizes = chunkSizes(batch, count);
  const first = mesh.chips[0]!;
  const joined: Tensor[] = [];
  mesh.chips.forEach((chip, k) => {
    const p = pieceOf[k]!;
    const start = sizes.slice(0, p).reduce((a, b) => a + b, 0);
    const pieces = inputs.map((x) => (x instanceof Tensor ? x.narrow(0, start, sizes[p]!).toChip(chip) : x));
    const out = (replica(k).forward as (...xs: unknown[]) => unknown)(...pieces);
    if (!(out instanceof Tensor)) throw new TypeError(`${who}.forward: the module must return one tensor; got ${out === null ? 'null' : typeof out}`);
    const here = out.toChip(first);
    // A chip repeating a piece adds zero (here − here, exactly 0) but gets the piece's output
    // gradient, so its replica's gradients are those of the first chip of the piece.
    joined[p] = joined[p] === undefined ? here : joined[p]!.add(here.sub(here.detach()));
  });
  return concat(joined, 0);
}

/** A fresh tensor on `chip` holding rows [start, start + rows) of t (all of a 0-d t); a parameter's stays a leaf requiring grad. */
export function copyRows(t: Tensor, start: number, rows: number, chip: number): Tensor {
  const c = keep(zeros(t.ndim === 0 ? [] : [rows, ...t.shape.slice(1)], { dtype: t.dtype, chip }));
  // The copy's temporaries (the narrowed rows, their transfer) are freed at once: only the shard stays.
  if (rows > 0) noGrad(() => scope(() => c.copy_((t.ndim === 0 ? t : t.narrow(0, start, rows)).toChip(chip))));
  if (t.requiresGrad) c.requiresGrad_();
  return c;
}
