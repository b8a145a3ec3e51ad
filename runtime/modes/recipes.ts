// Values a fused region did not materialize keep their recipe, so they can be recomputed
// if read later. A recipe must still find its inputs then: device buffers it reads stay
// pinned (a dispose() of their tensor is deferred) until the recipe is materialized or
// garbage-collected. A recipe reads the buffers themselves, not the tensors that held them:
// a tensor updated in place later (an optimizer step) must not change what it computes.
// A pending region pins the buffers it reads the same way, until it ran.
import type { DeviceBuffer } from '../device/memory.js';
import { chipSession } from '../device/current.js';
import { isScalar, Tensor, type PinGroup, type WeakScalar } from '../tensor.js';

// One registration per region, not per value: registering cost more than recording the op
// (10,000 tiny adds in a loop: most of their time went to it and to the collector).
const registry = new FinalizationRegistry<readonly DeviceBuffer[]>((buffers) => buffers.forEach(unpin));

/**
 * After a region ran: pins the buffers read by the recipes it left unmaterialized that may
 * still be read: those of live values and the recipes they are computed from. A disposed
 * value nothing reads keeps no pin (in a loop, most values are disposed at once), nor does a
 * composed op's temporary once backward freed the graph steps that read it (no one else can
 * reach it). The pins form one group, shared by those values: each buffer is pinned once,
 * until the last live value reaching it is materialized (dropRecipe), disposed
 * (releaseDisposed) or collected. The recipes only live values need (a gradient rule's mask
 * read by a weight's gradient) hold nothing themselves: once the values needing them are
 * gone, nothing can read them (W6 fused: the weights' gradients, disposed by the next step's
 * zeroGrad, held its ReLU output until a full collection, a fresh buffer every step).
 */
export function keepRecipes(members: readonly Tensor[]): void {
  // Members come in recording order and a recipe reads only earlier values: walking back,
  // a value is known to be needed before its turn comes.
  let needed: Set<Tensor> | null = null;
  /** Each pinned buffer and the hidden tensor recipes read it through. */
  let aliases: Map<DeviceBuffer, Tensor> | null = null;
  /** The recipes kept, last recorded first. */
  const kept: Tensor[] = [];
  let graphReads: ReadonlySet<Tensor> | null | undefined;
  const unreachable = (t: Tensor) => {
    if (t.disposed) return true;
    if (!t._temporary) return false;
    graphReads ??= readByGraph(members);
    return graphReads !== null && !graphReads.has(t);
  };
  for (let m = members.length - 1; m >= 0; m--) {
    const t = members[m]!;
    if (t._buf || !t._node || t._pins) continue;
    if (unreachable(t) && !needed?.has(t)) continue;
    kept.push(t);
    const inputs = t._node.inputs as (Tensor | WeakScalar)[];
    for (let k = 0; k < inputs.length; k++) {
      const v = inputs[k]!;
      if (isScalar(v)) continue;
      const b = v._buf;
      if (!b) {
        (needed ??= new Set()).add(v);
        continue;
      }
      // Never met by a live value, and never a wrong number: a region pins each buffer its ops
      // read from their recording (Region.read) until this ran, its outputs are fresh buffers, and
      // the disposed ones it writes anyway (collectives') are freed only after this (Region.flush);
      // tpu.reset() drops the pending region before it frees anything. A buffer freed regardless
      // belongs to a disposed tensor, which nothing gives a new value: a recompute of this recipe
      // throws at that input (bind-program.ts checkLive) rather than read another value.
      if (b.freed) continue;
      let alias = (aliases ??= new Map()).get(b);
      if (!alias) {
        pin(b);
        aliases.set(b, (alias = frozen(v)));
      }
      inputs[k] = alias;
    }
  }
  if (!aliases) return;
  const group: PinGroup = { buffers: [...aliases.keys()], holders: 0 };
  // In recording order: a value reaches a pinned buffer through an input that reads one or
  // that reaches one itself; the live ones among those hold the group.
  const reaching = new Set<Tensor>();
  for (let i = kept.length - 1; i >= 0; i--) {
    const t = kept[i]!;
    if (!readsPinned(t._node!.inputs, aliases, reaching)) continue;
    reaching.add(t);
    if (unreachable(t)) continue;
    group.holders++;
    t._pins = group;
  }
  registry.register(group, group.buffers, group);
}

function readsPinned(inputs: readonly (Tensor | WeakScalar)[], aliases: ReadonlyMap<DeviceBuffer, Tensor>, reaching: ReadonlySet<Tensor>): boolean {
  for (const v of inputs) {
    if (isScalar(v)) continue;
    if (v._buf ? aliases.get(v._buf) === v : reaching.has(v)) return true;
  }
  return false;
}

// Ops that only rearrange values: recomputed inside the program that reads them, they cost a
// copy at most, and often nothing (ONNX Runtime folds a transpose into the matmul reading it).
const LAYOUT_OPS: ReadonlySet<string> = new Set(['permute', 'reshape', 'expand', 'identity']);

/**
 * Whether a graph step's gradient rule reads no value, only shapes (a layout op's): backward
 * keeps such steps when it frees the graph, as PyTorch keeps a view's backward (it saves
 * nothing), and they keep nothing readable.
 */
export function readsNoValue(node: { readonly op: { readonly name: string } }): boolean {
  return LAYOUT_OPS.has(node.op.name);
}

/**
 * Whether t is a recipe rearranging device buffers (a linear layer's transposed weight): never
 * worth writing out, since recomputing it where it is read is as cheap as reading it.
 */
export function isBufferLayout(t: Tensor): boolean {
  const node = t._node;
  return !t._buf && node !== null && LAYOUT_OPS.has(node.op.name) && node.inputs.every((v) => isScalar(v) || v._buf !== null);
}

/**
 * The members a gradient rule may still read: the operands of graph steps not freed by a
 * backward pass, and those steps' own results, as each op's rule reads them (OpDef.gradReads:
 * a layout step's or an add's reads none, a matmul's only its operands, an exp's only its
 * result, a where's only its condition). Null when any step
 * is a collective's (its rules read across chips: every temporary is kept).
 */
export function readByGraph(members: readonly Tensor[]): ReadonlySet<Tensor> | null {
  const reads = new Set<Tensor>();
  for (const t of members) {
    const node = t._gradNode;
    if (!node) continue;
    if (node.group) return null;
    const what = node.op.gradReads;
    const operands = node.operands;
    if (!operands || what === 'none') continue;
    if (what === 'output') {
      reads.add(t);
      continue;
    }
    if (what === undefined) reads.add(t);
    if (typeof what === 'function') {
      for (const i of what(operands)) if (operands[i] instanceof Tensor) reads.add(operands[i]);
      continue;
    }
    for (const v of operands) if (v instanceof Tensor) reads.add(v);
  }
  return reads;
}

/** Recipes only gradient rules read (strict mode's composed ops: every other value they make is written or disposed). */
const readByBackwardOnly = new WeakSet<Tensor>();

/** t, a recipe of a composed op that only its gradient rules will read. */
export function keepForBackward(t: Tensor): void {
  t._temporary = true;
  readByBackwardOnly.add(t);
}

/**
 * Backward freed the graph steps that read these operands: a recipe only gradient rules read
 * (strict mode's transposed weight of a linear layer), holding its pins alone, is disposed
 * and lets them go at once; kept until collected, it would keep the weight's old buffer after
 * the optimizer step replaced it.
 */
export function releaseFreedLayouts(operands: readonly unknown[]): void {
  for (const o of operands) {
    if (!(o instanceof Tensor) || !readByBackwardOnly.has(o) || o._pins?.holders !== 1) continue;
    o.dispose();
    dropRecipe(o);
  }
}

/** A hidden tensor on v's current buffer (never disposed by anyone: the pin frees it). */
function frozen(v: Tensor): Tensor {
  const alias = new Tensor(null, v.shape, v.dtype, v.chip);
  alias._buf = v._buf;
  alias.disposed = true;
  return alias;
}

/** The recipe was materialized: it no longer needs its inputs (nor, once the last holder goes, its group). */
export function dropRecipe(t: Tensor): void {
  const group = t._pins;
  if (!group) return;
  t._pins = null;
  if (--group.holders > 0) return;
  registry.unregister(group);
  group.buffers.forEach(unpin);
}

/** Kept recipes that ops recorded after their region's cut read: their pins stay until collected. */
const readAfterCut = new WeakSet<Tensor>();

/**
 * t, a recipe of a region already cut, is read by an op recorded since (a later region
 * recomputes it): disposing t no longer lets its pins go, since that op's value may still
 * need them (a recipe of the later region reads t's).
 */
export function holdUntilCollected(t: Tensor): void {
  if (t._pins) readAfterCut.add(t);
}

/** dispose() of a recipe: it can no longer be read, so it stops holding its pins (unless read since, see holdUntilCollected). */
export function releaseDisposed(t: Tensor): void {
  if (!readAfterCut.has(t)) dropRecipe(t);
}

export function pin(b: DeviceBuffer): void {
  b.pins++;
}

/** Drops one pin; the last one frees a buffer whose tensor was disposed meanwhile. */
export function unpin(b: DeviceBuffer): void {
  b.pins--;
  if (b.pins === 0 && b.disposeRequested) chipSession(b.chip).free(b);
}

/** dispose() of a tensor: frees its buffer now, or when the last reader pinning it goes. */
export function disposeBuffer(b: DeviceBuffer): void {
  if (b.pins > 0) b.disposeRequested = true;
  else chipSession(b.chip).free(b);
}
