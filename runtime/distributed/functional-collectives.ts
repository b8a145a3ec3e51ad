// tpu.distributed collectives, PyTorch's functional collectives with one controller: `locals`
// holds one tensor per chip of the mesh (in mesh.chips order, each on its chip) and the result
// is one tensor per chip the same way. With `axis` the collective runs within each group of
// chips along that mesh axis. Each chip gets its own primitive (ops/collectives.ts), recorded in
// its own program in every mode; backward runs the chips' gradient rules together.
import { checkInt64Support } from '../ops/int64-support.js';
import { Tensor } from '../tensor.js';
import { formatShape } from '../shape.js';
import { isFloating } from '../dtype.js';
import { makeCollectiveRoom } from '../device/collective-room.js';
import { readOptions } from '../options.js';
import { apply } from '../modes/dispatch.js';
import { currentMode } from '../modes/mode.js';
import { holdingCuts } from '../modes/region.js';
import { syncDeviceBlocking } from '../modes/sync.js';
import { withCallSite } from '../call-site.js';
import { linkCollective, type CollectiveGroup } from '../autograd/tape.js';
import type { OpDef } from '../ops/op.js';
import {
  allGatherPrimitive, allReducePrimitive, allToAllPrimitive, broadcastPrimitive, permutePrimitive, reduceScatterPrimitive,
  type CollectiveReduce,
} from '../ops/collectives.js';
import { DeviceMesh } from './device-mesh.js';
import { describeValue } from './describe-value.js';
import { specializedOptions } from '../jit/live-number.js';

export interface CollectiveOptions {
  /** The mesh whose chips hold `locals` (tpu.initDeviceMesh). */
  mesh: DeviceMesh;
  /** Run within each group along this mesh axis (default: the sub-mesh's axis, else all chips). */
  axis?: string;
}
export interface AllReduceOptions extends CollectiveOptions { op?: CollectiveReduce }
export interface AllGatherOptions extends CollectiveOptions { dim?: number }
export interface ReduceScatterOptions extends CollectiveOptions { op?: CollectiveReduce; dim?: number }
export interface AllToAllOptions extends CollectiveOptions { splitDim?: number; concatDim?: number }
export interface BroadcastOptions extends CollectiveOptions { src?: number }
export interface PermuteOptions extends CollectiveOptions { shift?: number }

const REDUCE_OPS: readonly CollectiveReduce[] = ['sum', 'mean', 'max', 'min', 'product'];

interface Call {
  readonly who: string;
  readonly locals: readonly Tensor[];
  readonly groups: number[][];
  /** Group size. */
  readonly n: number;
  /** Each local's rank in its group. */
  readonly ranks: readonly number[];
}

/** Checks the options' mesh and the locals: one tensor per chip of the mesh, each on its chip, one dtype. */
function begin<O extends CollectiveOptions>(name: string, locals: readonly Tensor[], opts: O, keys: readonly string[]): { call: Call; o: O } {
  const who = `tpu.distributed.${name}`;
  // a tpu.compile number argument (a dim, src, shift): its value, the trace specialized on it
  const o = specializedOptions(readOptions<O>(who, opts, ['mesh', 'axis', ...keys] as never));
  if (!(o.mesh instanceof DeviceMesh)) throw new TypeError(`${who}: options.mesh must be a DeviceMesh (tpu.initDeviceMesh); got ${describeValue(o.mesh)}`);
  const mesh = o.mesh;
  if (!Array.isArray(locals)) throw new TypeError(`${who}: locals must be an array of tensors, one per chip of the mesh; got ${describeValue(locals)}`);
  if (locals.length !== mesh.size) throw new RangeError(`${who}: locals must hold ${mesh.size} tensors (one per chip of the mesh, in mesh.chips order); got ${locals.length}`);
  locals.forEach((t, i) => {
    if (!(t instanceof Tensor)) throw new TypeError(`${who}: locals[${i}] must be a tensor; got ${describeValue(t)}`);
    if (t.disposed) throw new ReferenceError(`${who}: locals[${i}] is a disposed tensor ${t.describe()}`);
    if (t.chip !== mesh.chips[i]) throw new RangeError(`${who}: locals[${i}] must be on chip ${mesh.chips[i]} (mesh.chips[${i}]); it is on chip ${t.chip} (move it with .toChip(${mesh.chips[i]}))`);
    if (t.dtype !== locals[0]!.dtype) throw new TypeError(`${who}: locals[${i}] has dtype ${t.dtype}, but locals[0] has ${locals[0]!.dtype}; every chip's tensor must have the same dtype`);
  });
  const axis = o.axis ?? mesh.axis;
  if (o.axis !== undefined) mesh.axisIndex(o.axis, who);
  const groups = mesh.groups(axis);
  return { call: { who, locals, groups, n: groups[0]!.length, ranks: mesh.ranks(axis) }, o: o as O };
}

/** The chips of a group exchange pieces, so their shapes must agree (other groups may hold other shapes: uneven shards along another mesh axis). */
function sameShapes(call: Call, except?: number): void {
  const byChip = new Map(call.locals.map((t, i) => [t.chip, i]));
  for (const group of call.groups) {
    const f = byChip.get(group[0]!)!;
    const first = call.locals[f]!;
    for (const chip of group) {
      const i = byChip.get(chip)!;
      const t = call.locals[i]!;
      const ok = t.ndim === first.ndim && t.shape.every((m, d) => d === except || m === first.shape[d]);
      if (!ok) throw new RangeError(`${call.who}: locals[${i}] has shape ${formatShape(t.shape)}, but locals[${f}] has ${formatShape(first.shape)}${except === undefined ? '' : ` (they may differ only along dim ${except})`}; the chips of one group must agree`);
    }
  }
}

/** The reduction `op` names; bool tensors' 'sum' and 'max' are a logical or, 'product' and 'min' a logical and (as NCCL's). */
function reduceOp(call: Call, op: unknown): CollectiveReduce {
  const r = op ?? 'sum';
  if (!REDUCE_OPS.includes(r as CollectiveReduce)) throw new RangeError(`${call.who}: op must be one of ${REDUCE_OPS.map((x) => `'${x}'`).join(', ')}; got ${JSON.stringify(op)}`);
  const dtype = call.locals[0]!.dtype;
  if (r === 'mean' && !isFloating(dtype)) throw new TypeError(`${call.who}: op 'mean' needs a floating dtype; got ${dtype}`);
  if (dtype === 'bool') return r === 'sum' || r === 'max' ? 'max' : 'min';
  return r as CollectiveReduce;
}

function dimOf(call: Call, dim: unknown, arg: string): number {
  const ndim = call.locals[0]!.ndim;
  const d = dim ?? 0;
  if (!Number.isInteger(d) || (d as number) < -ndim || (d as number) >= ndim) throw new RangeError(`${call.who}: ${arg} must be an integer in [${-ndim}, ${ndim}) for ${ndim}-d tensors; got ${JSON.stringify(dim)}`);
  return (d as number) < 0 ? (d as number) + ndim : (d as number);
}

/**
 * torch.chunk's split of `total` into n parts (ceil(total / n) each, the last ones smaller or empty).
 * @example tpu.distributed.chunkSizes(10, 4) // [3, 3, 3, 1]
 */
export function chunkSizes(total: number, n: number): number[] {
  const c = Math.ceil(total / n);
  return Array.from({ length: n }, (_, k) => Math.max(0, Math.min(c, total - k * c)));
}

/** Applies the chips' primitives as one call (no region cut between them), linked for backward; debug waits for them. */
function run<A>(call: Call, op: OpDef<A>, attrsOf: (index: number) => Omit<A, 'groups' | 'rank'>): Tensor[] {
  const members: CollectiveGroup['members'][number][] = [];
  const attrs = call.locals.map((_, i) => ({ ...attrsOf(i), groups: call.groups, rank: call.ranks[i]! }) as A);
  const inferred = call.locals.map((x, i) => op.infer([x], attrs[i]!));
  // apply checks this too; here it is an error before makeCollectiveRoom may wait for queue slots
  call.locals.forEach((x, i) => checkInt64Support(op.name, [x], inferred[i]!));
  makeCollectiveRoom(call.locals.map((x, i) => ({ chip: x.chip, ...inferred[i]! })), call.who);
  // One call site for the chips' primitives: the user's line (debug mode's errors name it).
  const outs = withCallSite(run, () => holdingCuts(() =>
    call.locals.map((x, i) => {
      const out = apply(op, [x], attrs[i]!);
      members.push({ out, op, operands: [x], attrs: attrs[i] });
      return out;
    }),
  ));
  linkCollective(members);
  // Debug mode runs every op before returning (and checks the results): the chips' collectives can only finish together.
  if (currentMode().name === 'debug') syncDeviceBlocking();
  return outs;
}

/**
 * Every chip gets the reduction of all chips' tensors (torch.distributed all_reduce): op 'sum' (default), 'mean',
 * 'max', 'min' or 'product'; of bool tensors, 'sum'/'max' is a logical or, 'product'/'min' a logical and.
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * const grads = mesh.chips.map((chip) => tpu.full([2], chip + 1, { chip }));
 * tpu.distributed.allReduce(grads, { op: 'sum', mesh }); // on 4 chips: [10, 10] on each
 * tpu.distributed.allReduce(grads.map((g) => g.div(g)), { op: 'mean', mesh })[0] // [1, 1]
 */
export function allReduce(locals: readonly Tensor[], opts: AllReduceOptions): Tensor[] {
  const { call, o } = begin('allReduce', locals, opts, ['op']);
  const reduce = reduceOp(call, o.op);
  sameShapes(call);
  return run(call, allReducePrimitive, () => ({ reduce }));
}

/**
 * Every chip gets the chips' tensors joined along `dim` in rank order; their sizes along it may differ (torch.chunk shards).
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * const shards = mesh.chips.map((chip) => tpu.full([1], chip, { chip }));
 * tpu.distributed.allGather(shards, { dim: 0, mesh })[0].shape // [tpu.device().chips] — on 4 chips: [0, 1, 2, 3]
 */
export function allGather(locals: readonly Tensor[], opts: AllGatherOptions): Tensor[] {
  const { call, o } = begin('allGather', locals, opts, ['dim']);
  const dim = dimOf(call, o.dim, 'dim');
  sameShapes(call, dim);
  // Each chip's group's shard sizes, in rank order (chip c's tensor is locals[c's place in the mesh]).
  const sizeOnChip = new Map(locals.map((t) => [t.chip, t.shape[dim]!]));
  const sizes = (i: number) => call.groups.find((g) => g.includes(locals[i]!.chip))!.map((c) => sizeOnChip.get(c)!);
  return run(call, allGatherPrimitive, (i) => ({ dim, sizes: sizes(i) }));
}

/**
 * The reduction of the chips' tensors, split along `dim` as torch.chunk: chip of rank r keeps chunk r.
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * const grads = mesh.chips.map((chip) => tpu.ones([10], { chip }));
 * tpu.distributed.reduceScatter(grads, { op: 'sum', dim: 0, mesh }); // on 4 chips: [4, 4, 4] ×3 and [4]
 */
export function reduceScatter(locals: readonly Tensor[], opts: ReduceScatterOptions): Tensor[] {
  const { call, o } = begin('reduceScatter', locals, opts, ['op', 'dim']);
  const reduce = reduceOp(call, o.op);
  const dim = dimOf(call, o.dim, 'dim');
  sameShapes(call);
  return run(call, reduceScatterPrimitive, (i) => ({ reduce, dim, sizes: chunkSizes(locals[i]!.shape[dim]!, call.n) }));
}

/**
 * Each chip splits its tensor along `splitDim` into one piece per chip of its group, sends piece k to rank k, and joins what it receives along `concatDim`.
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * const xs = mesh.chips.map((chip) => tpu.full([mesh.size, 2], chip, { chip }));
 * tpu.distributed.allToAll(xs, { splitDim: 0, concatDim: 1, mesh })[0].shape // [1, 2 * tpu.device().chips]
 */
export function allToAll(locals: readonly Tensor[], opts: AllToAllOptions): Tensor[] {
  const { call, o } = begin('allToAll', locals, opts, ['splitDim', 'concatDim']);
  const splitDim = dimOf(call, o.splitDim, 'splitDim');
  const concatDim = dimOf(call, o.concatDim, 'concatDim');
  sameShapes(call);
  const m = locals[0]!.shape[splitDim]!;
  if (m % call.n !== 0) throw new RangeError(`${call.who}: splitDim ${splitDim} has size ${m}, which must be divisible by the group size ${call.n}`);
  return run(call, allToAllPrimitive, () => ({ splitDim, concatDim }));
}

/**
 * Every chip of a group gets the tensor of its rank `src` (default 0).
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * const xs = mesh.chips.map((chip) => tpu.full([2], chip + 7, { chip }));
 * tpu.distributed.broadcast(xs, { src: 0, mesh }).at(-1) // [7, 7]
 */
export function broadcast(locals: readonly Tensor[], opts: BroadcastOptions): Tensor[] {
  const { call, o } = begin('broadcast', locals, opts, ['src']);
  const src = o.src ?? 0;
  if (!Number.isInteger(src) || src < 0 || src >= call.n) throw new RangeError(`${call.who}: src must be a rank in [0, ${call.n}) of each group; got ${JSON.stringify(o.src)}`);
  sameShapes(call);
  return run(call, broadcastPrimitive, () => ({ src }));
}

/**
 * A ring permute: the chip of rank r sends its tensor to rank (r + shift) mod n of its group (default shift 1).
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * const xs = mesh.chips.map((chip) => tpu.full([1], chip, { chip }));
 * tpu.distributed.permute(xs, { shift: 1, mesh })[0] // [tpu.device().chips - 1]
 */
export function permute(locals: readonly Tensor[], opts: PermuteOptions): Tensor[] {
  const { call, o } = begin('permute', locals, opts, ['shift']);
  const shift = o.shift ?? 1;
  if (!Number.isInteger(shift)) throw new TypeError(`${call.who}: shift must be an integer; got ${JSON.stringify(o.shift)}`);
  sameShapes(call);
  const n = call.n;
  const pairs = Array.from({ length: n }, (_, r) => [r, (((r + shift) % n) + n) % n] as const);
  return run(call, permutePrimitive, () => ({ pairs }));
}
