// The sharding rules of the Tensor methods DTensor takes from lists (dtensor-op-groups.ts) rather
// than one by one: each runs the Tensor method itself on every chip's pieces, with the method's
// own arguments (a DTensor among them replaced by that chip's piece of it), so values, argument
// forms and errors are the Tensor method's.
//   pointwise: operands broadcast; the output keeps their shards (broadcastLayout); a Partial is
//     reduced first to Replicate() (these ops are not linear; PyTorch reduces clone's too)
//   inPlace: the pieces are updated in place, the DTensor keeps its placements; a Partial one is
//     an error (its pieces are parts of a sum, not its elements)
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

/** The dims an op reads whole, from its arguments; `shape`: its output's global shape (default: the reduced shape); `part`: see overWholeDims. */
export interface DimsRead extends ReduceAttrs { shape?: readonly number[]; part?: 'sum' }
/** (Its input is typed by its shape alone: the lists' types make DTensor's, so they cannot name it.) */
export type DimsReader = (who: string, x: { readonly shape: readonly number[]; readonly ndim: number }, args: readonly unknown[]) => DimsRead;

/** Tensor's method `name` on `t` (the lists hold Tensor method names). */
function call(t: Tensor, name: string, args: readonly unknown[]): unknown {
  return (t as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
}

/** Every DTensor among the arguments (also in arrays and options objects), checked to be on x's mesh; a plain tensor is an error, as PyTorch's mixed Tensor and DTensor. */
function dtensorArgs(who: string, x: DTensor, args: readonly unknown[]): DTensor[] {
  const found: DTensor[] = [];
  const visit = (v: unknown, where: string): void => {
    if (v instanceof DTensor) {
      checkSameMesh(who, `${where}.mesh`, x.mesh, v.mesh);
      found.push(v);
    } else if (v instanceof Tensor) {
      throw new TypeError(`${who}: ${where} is a plain tensor ${v.describe()}, but the input is a DTensor: make it one on the same mesh (tpu.distributeTensor(t, mesh, [tpu.Replicate()]), as PyTorch's DTensor ops refuse mixed tensors)`);
    } else if (Array.isArray(v)) v.forEach((e, i) => visit(e, `${where}[${i}]`));
    else if (isOptions(v)) Object.entries(v).forEach(([k, e]) => visit(e, `${where}.${k}`));
  };
  args.forEach((a, i) => visit(a, `argument ${i + 1}`));
  return found;
}

/** The arguments with dts[i] replaced by pieces[i] (in the order dtensorArgs found them). */
function withPieces(args: readonly unknown[], dts: readonly DTensor[], pieces: readonly Tensor[]): unknown[] {
  const swap = (v: unknown): unknown => {
    if (v instanceof DTensor) return pieces[dts.indexOf(v)];
    if (Array.isArray(v)) return v.map(swap);
    if (isOptions(v)) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, swap(e)]));
    return v;
  };
  return args.map(swap);
}

/** A Tensor method's result as its tensors, and how to rebuild it from DTensors of them. */
interface Parts { tensors: Tensor[]; rebuild: (ds: DTensor[]) => unknown }
function partsOf(who: string, r: unknown): Parts {
  if (r instanceof Tensor) return { tensors: [r], rebuild: ([d]) => d };
  if (r instanceof ValuesIndices) return { tensors: [r.values, r.indices], rebuild: ([v, i]) => new ValuesIndices(v!, i!) };
  if (Array.isArray(r) && r.every((t) => t instanceof Tensor)) return { tensors: r, rebuild: (ds) => ds };
  throw new TypeError(`${who}: gives ${typeof r}, which has no DTensor form`);
}

/** `fn`'s result on each chip (its tensors laid out as `run` says), rebuilt from DTensors. */
function rebuilt(who: string, run: (fn: (ts: Tensor[]) => Tensor[]) => DTensor[], fn: (ts: Tensor[]) => unknown): unknown {
  let parts: Parts | undefined;
  const outs = run((ts) => {
    const p = partsOf(who, fn(ts));
    parts ??= p;
    return p.tensors;
  });
  return parts!.rebuild(outs);
}

export function pointwise(name: string, x: DTensor, args: readonly unknown[]): DTensor {
  const who = `DTensor.${name}`;
  const others = dtensorArgs(who, x, args);
  const { out, ps, operand } = broadcastLayout(who, [x, ...others], () => Replicate());
  return perChip(() => [x, ...others].map(operand), ([t, ...pieces]) => call(t!, name, withPieces(args, others, pieces)) as Tensor, ps, out);
}

export function inPlace(name: string, x: DTensor, args: readonly unknown[]): DTensor {
  const who = `DTensor.${name}`;
  if (x.placements.some((p) => p.kind === 'partial')) {
    throw new TypeError(`${who}: the DTensor is ${formatPlacements(x.placements)}: its pieces are parts of its value, not its elements, so they cannot be updated in place; redistribute it to Replicate() or a Shard first, or use the op that returns a new DTensor`);
  }
  const others = dtensorArgs(who, x, args);
  const { operand } = broadcastLayout(who, [x, ...others], () => Replicate(), x.placements);
  const locals = x.localTensors();
  freeUnlessTracked(() => {
    const pieces = others.map((d) => operand(d).localTensors());
    locals.forEach((t, k) => call(t, name, withPieces(args, others, pieces.map((p) => p[k]!))));
    return locals;
  });
  return x;
}

export function overDims(name: string, x: DTensor, args: readonly unknown[], read: DimsReader): unknown {
  const who = `DTensor.${name}`;
  const { dims, keepdim, shape, part } = read(who, x, args);
  return rebuilt(who, (fn) => overWholeDims(x, { dims, keepdim }, (t) => fn([t]), shape, part), ([t]) => call(t!, name, args));
}

export function replicated(name: string, x: DTensor, args: readonly unknown[]): unknown {
  const who = `DTensor.${name}`;
  const others = dtensorArgs(who, x, args);
  return rebuilt(who, (fn) => replicatedOutputs(who, `input ${formatPlacements(x.placements)}`, [x, ...others], fn), ([t, ...pieces]) => call(t!, name, withPieces(args, others, pieces)));
}

/** The Tensor method's answer on the full tensors (gathered to the mesh's first chip, then freed). */
export function hostRead(name: string, x: DTensor, args: readonly unknown[]): unknown {
  const others = dtensorArgs(`DTensor.${name}`, x, args);
  const gathered: Tensor[] = [];
  const full = (d: DTensor) => {
    const t = d.fullTensor();
    if (!d.localTensors().includes(t)) gathered.push(t);
    return t;
  };
  const r = call(full(x), name, withPieces(args, others, others.map(full)));
  const free = () => gathered.forEach((t) => t.dispose());
  if (r instanceof Promise) return r.finally(free);
  free();
  return r;
}
