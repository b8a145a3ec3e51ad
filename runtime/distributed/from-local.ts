// The checks of tpu.DTensor.fromLocal: one tensor per chip of the mesh, each on its chip, one
// dtype, and pieces whose shapes are the ones the placements give to a global shape: the
// pieces joined along each Shard dim (or the shape given).
import { Tensor } from '../tensor.js';
import { formatShape, shapesEqual } from '../shape.js';
import type { DeviceMesh } from './device-mesh.js';
import { formatPlacements, type Placement } from './placement.js';
import { localBox, meshCoordinate } from './shard-layout.js';
import { describeValue } from './describe-value.js';

export interface FromLocalOptions {
  /** The global shape (default: the pieces joined along each Shard dim). */
  shape?: readonly number[];
  /** Read the pieces and check that the replicas along each Replicate mesh dim agree (a sync point; default false). */
  runCheck?: boolean;
  /** How the gradient reaching the locals is laid out (default: Shard stays, Replicate and Partial give Replicate). */
  gradPlacements?: readonly Placement[];
}

/** One tensor per chip of the mesh, each on its chip, one dtype and rank. */
export function checkPieces(who: string, locals: unknown, mesh: DeviceMesh): Tensor[] {
  if (!Array.isArray(locals)) throw new TypeError(`${who}: locals must be an array of tensors, one per chip of the mesh; got ${describeValue(locals)}`);
  if (locals.length !== mesh.size) throw new RangeError(`${who}: locals must hold ${mesh.size} tensors (one per chip of ${mesh}, in mesh.chips order); got ${locals.length}`);
  return locals.map((t: unknown, k) => {
    if (!(t instanceof Tensor)) throw new TypeError(`${who}: locals[${k}] must be a tensor; got ${describeValue(t)}`);
    if (t.disposed) throw new ReferenceError(`${who}: locals[${k}] is a disposed tensor ${t.describe()}`);
    if (t.chip !== mesh.chips[k]) throw new RangeError(`${who}: locals[${k}] must be on chip ${mesh.chips[k]} (mesh.chips[${k}]); it is on chip ${t.chip} (move it with .toChip(${mesh.chips[k]}))`);
    const first = locals[0] as Tensor;
    if (t.dtype !== first.dtype) throw new TypeError(`${who}: locals[${k}] has dtype ${t.dtype}, but locals[0] has ${first.dtype}; every chip's piece must have the same dtype`);
    if (t.ndim !== first.ndim) throw new RangeError(`${who}: locals[${k}] has shape ${formatShape(t.shape)}, but locals[0] has ${formatShape(first.shape)}; every chip's piece must have the same number of dims`);
    return t;
  });
}

/** The global shape (options.shape, else the pieces joined along each Shard dim), checked against every piece. */
export function globalShape(who: string, ts: readonly Tensor[], mesh: DeviceMesh, placements: readonly Placement[], given: readonly number[] | undefined): number[] {
  const shape = given === undefined ? joinedShape(ts, mesh, placements) : checkShape(who, given, ts[0]!.ndim);
  ts.forEach((t, k) => {
    const want = localBox(shape, mesh, placements, k).size;
    if (!shapesEqual(t.shape, want)) {
      throw new RangeError(`${who}: locals[${k}] has shape ${formatShape(t.shape)}, but chip ${mesh.chips[k]}'s piece of ${formatShape(shape)} laid out as ${formatPlacements(placements)} must have shape ${formatShape(want)} (Shard pieces have torch.chunk's sizes)`);
    }
  });
  return shape;
}

/** Along each dim: the sum of the pieces along the mesh dims that shard it, at coordinate 0 of every other mesh dim. */
function joinedShape(ts: readonly Tensor[], mesh: DeviceMesh, placements: readonly Placement[]): number[] {
  return ts[0]!.shape.map((m, d) => {
    const sharding = placements.flatMap((p, i) => (p.kind === 'shard' && p.dim === d ? [i] : []));
    if (!sharding.length) return m;
    return ts.reduce((sum, t, k) => (meshCoordinate(mesh, k).every((c, i) => c === 0 || sharding.includes(i)) ? sum + t.shape[d]! : sum), 0);
  });
}

function checkShape(who: string, shape: unknown, ndim: number): number[] {
  const ok = Array.isArray(shape) && shape.length === ndim && shape.every((m) => Number.isInteger(m) && m >= 0);
  if (!ok) throw new TypeError(`${who}: options.shape must be the global shape, ${ndim} non-negative integers; got ${describeValue(shape)}`);
  return [...(shape as number[])];
}

/**
 * runCheck: along each Replicate mesh dim every piece must equal the piece at coordinate 0 of
 * that dim (same coordinates elsewhere), value for value; the error names both chips and the
 * first element that differs.
 */
export function checkReplicas(who: string, ts: readonly Tensor[], mesh: DeviceMesh, placements: readonly Placement[]): void {
  if (!placements.some((p) => p.kind === 'replicate')) return;
  const values = ts.map((t) => t.dataSync());
  placements.forEach((p, i) => {
    if (p.kind !== 'replicate') return;
    ts.forEach((t, k) => {
      const at = meshCoordinate(mesh, k);
      if (at[i] === 0) return;
      const first = mesh.chips.findIndex((_, j) => meshCoordinate(mesh, j).every((c, m) => (m === i ? c === 0 : c === at[m])));
      const e = values[k]!.findIndex((v, n) => v !== values[first]![n] && !(Number.isNaN(v) && Number.isNaN(values[first]![n])));
      if (e < 0) return;
      throw new RangeError(`${who}: runCheck: locals[${k}] on chip ${t.chip} must equal locals[${first}] on chip ${ts[first]!.chip}, which it replicates along mesh dim ${i} ('${mesh.names[i]}'); flat element ${e} is ${values[k]![e]}, not ${values[first]![e]}`);
    });
  });
}

/** Each local's gradient, laid out as gradPlacements, must have the local's shape (a Shard only where the pieces are shards of that dim). */
export function checkGradLayout(who: string, ts: readonly Tensor[], mesh: DeviceMesh, shape: readonly number[], gradPlacements: readonly Placement[]): void {
  ts.forEach((t, k) => {
    const want = localBox(shape, mesh, gradPlacements, k).size;
    if (!shapesEqual(t.shape, want)) {
      throw new RangeError(`${who}: options.gradPlacements ${formatPlacements(gradPlacements)} would give locals[${k}] (shape ${formatShape(t.shape)}) a gradient of shape ${formatShape(want)}; a local's gradient has its shape`);
    }
  });
}
