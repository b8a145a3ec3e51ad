// The sharding rules of the Tensor methods (and tpu functions) DTensor takes from lists
// (dtensor-op-groups.ts) rather than one by one: each runs the Tensor op itself on every chip's
// pieces, its arguments with each DTensor replaced by that chip's piece of it, so values,
// argument forms and errors are the Tensor op's. `args[0]` is the input (a method's DTensor).
//   pointwise: operands broadcast; the output keeps their shards (broadcastLayout); a Partial is
//     reduced first to Replicate() (these ops are not linear; PyTorch reduces clone's too)
//   inPlace: the pieces are updated in place, the DTensor keeps its placements; a Partial one is
//     an error (its pieces are parts of its value, not its elements)
//   overDims: ops that read whole dims (median, sort, scans, nanmean...): those dims are gathered,
//     other shards stay; nansum's results over pieces add up: Partial('sum')
//   replicated: no rule; every chip computes the whole result from Replicate() copies (a profile
//     warning says so), and the result is Replicate()
//   hostRead: values for the host (item, allclose): read once from the full tensors
import { Tensor } from '../tensor.js';
import { isOptions } from '../options.js';
import { ValuesIndices } from '../ops/values-indices.js';
import type { ReduceAttrs } from '../ops/reduce.js';
import { checkSameMesh, DTensor } from './dtensor.js';
import { formatPlacements, Replicate } from './placement.js';
import { freeUnlessTracked } from './free-unless-tracked.js';
import { broadcastLayout, overWholeDims, perChip, replicatedOutputs } from './sharding-rules.js';

/** The op on one chip: its arguments with the DTensors replaced by that chip's pieces. */
export type PieceOp = (args: unknown[]) => unknown;

/** A Tensor method as a PieceOp: args[0] is the tensor. */
export const method = (name: string): PieceOp => ([t, ...rest]) => (t as Record<string, (...a: unknown[]) => unknown>)[name]!(...rest);

/** The dims an op reads whole, from its arguments; `shape`: its output's global shape (default: the reduced shape); `part`: see overWholeDims. */
export interface DimsRead extends ReduceAttrs { shape?: readonly number[]; part?: 'sum' }
/** (Its input is typed by its shape alone: the lists' types make DTensor's, so they cannot name it.) `args`: the arguments after the input. */
export type DimsReader = (who: string, x: { readonly shape: readonly number[]; readonly ndim: number }, args: readonly unknown[]) => DimsRead;

/** Every DTensor among the arguments (also in arrays and options objects), each once, checked to be on one mesh; a plain tensor is an error, as PyTorch's mixed Tensor and DTensor. */
export function dtensorArgs(who: string, args: readonly unknown[]): DTensor[] {
  const found = new Set<DTensor>();
  const visit = (v: unknown, where: string): void => {
    if (v instanceof DTensor) {
      const first = found.values().next().value;
      if (first) checkSameMesh(who, `${where}.mesh`, first.mesh, v.mesh);
      found.add(v);
    } else if (v instanceof Tensor) {
      throw new TypeError(`${who}: ${where} is a plain tensor ${v.describe()} among DTensors: make it a DTensor on the same mesh (tpu.distributeTensor(t, mesh, [tpu.Replicate()])), as PyTorch's DTensor ops refuse mixed tensors`);
    } else if (Array.isArray(v)) v.forEach((e, i) => visit(e, `${where}[${i}]`));
    else if (isOptions(v)) Object.entries(v).forEach(([k, e]) => visit(e, `${where}.${k}`));
  };
  args.forEach((a, i) => visit(a, i === 0 ? 'the input' : `argument ${i}`));
  return [...found];
}

/** The arguments with dts[i] replaced by pieces[i]. */
function withPieces(args: readonly unknown[], dts: readonly DTensor[], pieces: readonly Tensor[]): unknown[] {
  const swap = (v: unknown): unknown => {
    if (v instanceof DTensor) return pieces[dts.indexOf(v)];
    if (Array.isArray(v)) return v.map(swap);
    if (isOptions(v)) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, swap(e)]));
    return v;
  };
  return args.map(swap);
}

/** A Tensor op's result as its tensors, and how to rebuild it from DTensors of them. */
interface Parts { tensors: Tensor[]; rebuild: (ds: DTensor[]) => unknown }
function partsOf(who: string, r: unknown): Parts {
  if (r instanceof Tensor) return { tensors: [r], rebuild: ([d]) => d };
  if (r instanceof ValuesIndices) return { tensors: [r.values, r.indices], rebuild: ([v, i]) => new ValuesIndices(v!, i!) };
  if (Array.isArray(r) && r.every((t) => t instanceof Tensor)) return { tensors: r, rebuild: (ds) => ds };
  throw new TypeError(`${who}: gives ${typeof r}, which has no DTensor form`);
}

/** `op`'s result on each chip (its tensors laid out as `run` says), rebuilt from DTensors. */
function rebuilt(who: string, run: (fn: (pieces: Tensor[]) => Tensor[]) => DTensor[], op: (pieces: Tensor[]) => unknown): unknown {
  let parts: Parts | undefined;
  const outs = run((pieces) => {
    const p = partsOf(who, op(pieces));
    parts ??= p;
    return p.tensors;
  });
  return parts!.rebuild(outs);
}

export function pointwise(who: string, args: readonly unknown[], op: PieceOp): DTensor {
  const dts = dtensorArgs(who, args);
  const { out, ps, operand } = broadcastLayout(who, dts, () => Replicate());
  return perChip(() => dts.map(operand), (pieces) => op(withPieces(args, dts, pieces)) as Tensor, ps, out);
}

export function inPlace(who: string, args: readonly unknown[], op: PieceOp): DTensor {
  const x = args[0] as DTensor;
  if (x.placements.some((p) => p.kind === 'partial')) {
    throw new TypeError(`${who}: the DTensor is ${formatPlacements(x.placements)}: its pieces are parts of its value, not its elements, so they cannot be updated in place; redistribute it to Replicate() or a Shard first, or use the op that returns a new DTensor`);
  }
  const dts = dtensorArgs(who, args);
  const { operand } = broadcastLayout(who, dts, () => Replicate(), x.placements);
  freeUnlessTracked(() => {
    const pieces = dts.map((d) => operand(d).localTensors());
    x.mesh.chips.forEach((_, k) => op(withPieces(args, dts, pieces.map((p) => p[k]!))));
    return x.localTensors();
  });
  return x;
}

export function overDims(who: string, args: readonly unknown[], op: PieceOp, read: DimsReader): unknown {
  const x = args[0] as DTensor;
  const { dims, keepdim, shape, part } = read(who, x, args.slice(1));
  return rebuilt(who, (fn) => overWholeDims(x, { dims, keepdim }, (t) => fn([t]), shape, part), ([t]) => op([t, ...args.slice(1)]));
}

export function replicated(who: string, args: readonly unknown[], op: PieceOp): unknown {
  const dts = dtensorArgs(who, args);
  return rebuilt(who, (fn) => replicatedOutputs(who, `input ${formatPlacements(dts[0]!.placements)}`, dts, fn), (pieces) => op(withPieces(args, dts, pieces)));
}

/** The op's answer on the full tensors (gathered to the mesh's first chip, then freed). */
export function hostRead(who: string, args: readonly unknown[], op: PieceOp): unknown {
  const dts = dtensorArgs(who, args);
  const gathered: Tensor[] = [];
  const full = (d: DTensor) => {
    const t = d.fullTensor();
    if (!d.localTensors().includes(t)) gathered.push(t);
    return t;
  };
  const r = op(withPieces(args, dts, dts.map(full)));
  const free = () => gathered.forEach((t) => t.dispose());
  if (r instanceof Promise) return r.finally(free);
  free();
  return r;
}
