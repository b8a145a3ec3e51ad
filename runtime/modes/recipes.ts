// Values a fused region did not materialize keep their recipe, so they can be recomputed
// if read later. A recipe must still find its inputs then: device buffers it reads stay
// pinned (a dispose() of their tensor is deferred) until the recipe is materialized or
// garbage-collected. A recipe computes the value it had when made, as in PyTorch: a tensor it
// read, updated in place later (an optimizer step, copy_) or materialized and disposed, must
// not change what it computes. So it reads buffers through hidden tensors on them, and a
// live recipe through a hidden tensor holding that recipe once the recipe stops being the
// tensor's value (keepReaders). A pending region pins the buffers it reads the same way, until it ran.
import type { DeviceBuffer } from '../device/memory.js';
import { chipSession } from '../device/current.js';
import { isScalar, Tensor, type PinGroup, type TraceNode, type WeakScalar } from '../tensor.js';

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
  const keeping = new Keeping(members);
  // Members come in recording order and a recipe reads only earlier values: walking back,
  // a value is known to be needed before its turn comes.
  for (let m = members.length - 1; m >= 0; m--) {
    const t = members[m]!;
    if (t._buf || !t._node || t._pins) continue;
    if (keeping.unreachable(t) && !keeping.needed?.has(t)) continue;
    keeping.kept.push(t);
    keeping.readValues(t);
  }
  const { aliases, kept } = keeping;
  if (!aliases) return;
  const group: PinGroup = { buffers: [...aliases.keys()], holders: 0 };
  // In recording order: a value reaches a pinned buffer through an input that reads one or
  // that reaches one itself; the live ones among those hold the group.
  const reaching = new Set<Tensor>();
  for (let i = kept.length - 1; i >= 0; i--) {
    const t = kept[i]!;
    if (!readsPinned(t._node!.inputs, aliases, reaching)) continue;
    reaching.add(t);
    if (keeping.unreachable(t)) continue;
    group.holders++;
    t._pins = group;
  }
  registry.register(group, group.buffers, group);
}

/**
 * One keepRecipes walk. A class, not closures made per call: V8 keeps a closure's optimized
 * code only while one of its closures lives (bind-program.ts Binder).
 */
class Keeping {
  /** Values the recipes kept so far read (so kept themselves, though disposed). */
  needed: Set<Tensor> | null = null;
  /** Each pinned buffer and the hidden tensor recipes read it through. */
  aliases: Map<DeviceBuffer, Tensor> | null = null;
  /** The copies recipes read recipes of earlier regions through (copyOf). */
  private copies: Map<Tensor, Tensor> | null = null;
  /** The recipes kept, last recorded first. */
  readonly kept: Tensor[] = [];
  private graphReads: ReadonlySet<Tensor> | null | undefined = undefined;

  constructor(private readonly members: readonly Tensor[]) {}

  unreachable(t: Tensor): boolean {
    if (t.disposed) return true;
    if (!t._temporary) return false;
    this.graphReads ??= readByGraph(this.members);
    return this.graphReads !== null && !this.graphReads.has(t);
  }

  /** Makes the recipe of `reader`, kept, read values rather than tensors that may change. */
  readValues(reader: Tensor): void {
    const inputs = reader._node!.inputs as (Tensor | WeakScalar)[];
    for (let k = 0; k < inputs.length; k++) {
      const v = inputs[k]!;
      if (isScalar(v)) continue;
      const b = v._buf;
      if (!b) {
        (this.needed ??= new Set()).add(v);
        // A live recipe may still be updated in place, or materialized and disposed: one of this
        // region is told its reader (keepReaders), one of an earlier region is read through a copy.
        if (this.unreachable(v)) continue;
        if (v._node!.region !== null) noteReader(v, reader);
        else inputs[k] = this.copyOf(v);
        continue;
      }
      // Never met by a live value, and never a wrong number: a region pins each buffer its ops
      // read from their recording (Region.read) until this ran, its outputs are fresh buffers, and
      // the disposed ones it writes anyway (collectives') are freed only after this (Region.flush);
      // tpu.reset() drops the pending region before it frees anything. A buffer freed regardless
      // belongs to a disposed tensor, which nothing gives a new value: a recompute of this recipe
      // throws at that input (bind-program.ts checkLive) rather than read another value.
      if (b.freed) continue;
      let alias = (this.aliases ??= new Map()).get(b);
      if (!alias) {
        pin(b);
        this.aliases.set(b, (alias = frozen(v)));
      }
      inputs[k] = alias;
    }
  }

  /**
   * A hidden copy of v, a live recipe of an earlier region (a transposed weight, recomputed
   * where read), whose buffers this region pins: v's own pins go with v. In kept, it reaches
   * them for the values reading it; disposed, it holds none.
   */
  private copyOf(v: Tensor): Tensor {
    let copy = (this.copies ??= new Map()).get(v);
    if (copy) return copy;
    const node = v._node!;
    copy = hiddenRecipe(v, { ...node, inputs: node.inputs.slice(), consumers: 0, boundBy: 0, boundAt: 0 });
    this.copies.set(v, copy);
    this.kept.push(copy);
    this.readValues(copy);
    return copy;
  }
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

/** Notes that `reader`, a recipe kept by v's region, reads v's recipe through v. */
function noteReader(v: Tensor, reader: Tensor): void {
  const readers = v._keptReaders;
  if (readers === undefined) v._keptReaders = reader;
  else if (readers instanceof Tensor) {
    if (readers !== reader) v._keptReaders = [readers, reader];
  } else if (readers[readers.length - 1] !== reader) readers.push(reader);
}

/**
 * v's recipe stops being its value (v is updated in place, or materialized and may then be
 * disposed or updated): the kept recipes reading v read `old`, a hidden tensor holding that
 * recipe (by default a new one), from now on. Their region's pins (keepRecipes) cover what it
 * reads: a value reaching them through v holds them itself.
 */
export function keepReaders(v: Tensor, old: Tensor | null = null): void {
  const readers = v._keptReaders;
  if (readers === undefined) return;
  v._keptReaders = undefined;
  const to = old ?? hiddenRecipe(v, v._node!);
  if (readers instanceof Tensor) replaceInput(readers, v, to);
  else for (const r of readers) replaceInput(r, v, to);
}

function replaceInput(reader: Tensor, v: Tensor, by: Tensor): void {
  const inputs = reader._node?.inputs as (Tensor | WeakScalar)[] | undefined;
  if (!inputs) return; // materialized since
  for (let k = 0; k < inputs.length; k++) if (inputs[k] === v) inputs[k] = by;
}

/** t is getting a buffer: the kept recipes reading its recipe keep it, and it no longer needs its pins. */
export function recipeMaterialized(t: Tensor): void {
  if (t._keptReaders !== undefined) keepReaders(t);
  dropRecipe(t);
}

/** A hidden tensor shaped like v computing `node` (never an output: a recipe reading it recomputes it). */
function hiddenRecipe(v: Tensor, node: TraceNode): Tensor {
  const hidden = new Tensor(null, v.shape, v.dtype, v.chip);
  hidden._node = node;
  hidden.disposed = true;
  return hidden;
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
