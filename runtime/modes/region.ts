// A fused region: ops recorded to run as ONE program when the region is cut (sync point,
// size cap, mode switch). At the size cap the cut falls on a loop-iteration boundary when
// the op stream repeats, so a loop without sync points also settles into one cached
// program. A value becomes a program output only if it may be read later: it is neither
// disposed nor a composed op's temporary, and either no op of the region consumes it or
// several do (a value reused is kept, not recomputed). Values consumed once inside the
// region are never materialized; should one be used later, its recipe is recomputed from
// its inputs once, in the region that uses it, and kept from then on.
// A region holding an op that reads indices from device data (which can fail there) runs the
// outputs that do not depend on such an op as a program of their own, so they survive its error.
// Fused mode records into its region (fused.ts); tpu.compile traces into a region of its own.
import { performance } from 'node:perf_hooks';
import { isScalar, Tensor, type TraceNode, type WeakScalar } from '../tensor.js';
import { bindProgram, combineBindings, type BoundRegion } from '../program/bind-program.js';
import type { DeviceBuffer } from '../device/memory.js';
import { emit, profiling } from '../profiler/events.js';
import { launch, launchAll } from './launch.js';
import { iterationCut } from '../program/loop-period.js';
import { readsUncheckedIndices, sameAttrs } from '../primitive.js';
import { numel, shapesEqual } from '../shape.js';
import { ITEMSIZE } from '../dtype.js';
import { disposeBuffer, holdUntilCollected, isBufferLayout, keepReaders, keepRecipes, pin, unpin } from './recipes.js';
import { COLLECTIVE_PRIMITIVES } from '../program/collective-nodes.js';
import { chipSession, postAllChips } from '../device/current.js';
import { checkRecomputable } from './materialize.js';
import { captureOuterSite, captureSite, regionSite, startsRegionSite, type CallSite, type Site } from '../call-site.js';
import { mayFailOnDevice } from './may-fail.js';

/** The reason a sync point cuts the region (modes/sync.ts). */
export const SYNC = 'sync';

/** Calls recording several chips' parts of one collective hold the size cap's cut (holdingCuts). */
let cutsHeld = 0;

/** Runs fn with no region cut at the size cap: a collective's chips land in one program each, launched together. */
export function holdingCuts<T>(fn: () => T): T {
  cutsHeld++;
  try {
    return fn();
  } finally {
    cutsHeld--;
  }
}

export class Region {
  // Strong references until the cut: WeakRefs keep every target alive to the end of the
  // job anyway and made dispatch GC-bound.
  private members: Tensor[] = [];
  /** Values of earlier regions this region recomputes: kept as outputs this time. */
  private recomputed = new Set<Tensor>();
  /** Buffers the region reads, pinned until it ran (a dispose() meanwhile is deferred). */
  private reads = new Set<DeviceBuffer>();
  /** Tensors given a new value in place in this region (always outputs: see assign). */
  private updated = new Set<Tensor>();
  /** Views given their base's new value (recipes, never outputs by themselves: see assign). */
  private derived = new Set<Tensor>();
  /** Buffers of the old values those updates displaced: freed once the region ran. */
  private displaced: DeviceBuffer[] = [];
  /** The value each updated tensor had before the region (restored if the region is dropped). */
  private originals = new Map<Tensor, Tensor>();
  // Where the region's first op that may fail on the device was called (its first op with
  // tpu.setCallSites(true); null when call sites are off, when no op may fail, or for the rest
  // of a region cut at the size cap). With the line that cut the region, it locates a device
  // error in the region's program, for two stack captures per region instead of one per op.
  private start: CallSite | null = null;

  /**
   * null: the region records where it started and where it was cut. A region running one op of
   * strict mode (composite-program.ts) follows strict mode's policy instead: only its cut, and
   * only when this says its program may fail on the device (a capture costs several µs).
   */
  oneOpMayFail: ((outputs: ReadonlySet<Tensor>) => boolean) | null = null;

  /**
   * Outputs the user cannot read (a composed op's values kept for its backward), set around a
   * cut by composite-program.ts: a program of its own that would spare only such values is not
   * worth a second launch (strict crossEntropy ran as two).
   */
  unreadable: ReadonlySet<Tensor> | null = null;

  /** Whether it records a collective (then every collective is an output and the region is cut whole). */
  private collectives = false;

  /**
   * `cap`: ops recorded before the region is cut at the next op (Infinity: never).
   * `derivedAsRecipes`: views updated with their base stay recipes (see assign); a captured
   * function (tpu.compile) writes them out instead, since its replays run no recipes.
   */
  constructor(public cap: number, private readonly derivedAsRecipes = false) {}

  /** Records one op application; `caller` is the runtime function the user's call entered. */
  record(node: TraceNode, caller: Function): Tensor {
    // The cut at the size cap waits for the next op: by then the loop body has disposed what
    // it no longer needs, so those values are neither outputs nor recipes to keep.
    if (this.members.length >= this.cap && cutsHeld === 0) this.cutAtCap();
    if (this.start === null && !this.oneOpMayFail && startsRegionSite(this.members.length === 0, mayFailOnDevice(node.op, node.attrs, node))) {
      this.start = captureOuterSite(caller);
    }
    for (const v of node.inputs) {
      if (isScalar(v)) continue;
      if (v._buf) this.read(v._buf);
      else if (v._node!.region === this) v._node!.consumers++;
      // Computed (and not kept) by an earlier region: recompute it once more, and keep it.
      else {
        checkRecomputable(v, node.op.name);
        this.recomputed.add(v);
        holdUntilCollected(v);
      }
    }
    node.region = this;
    if (COLLECTIVE_PRIMITIVES.has(node.op.name)) this.collectives = true;
    const t = new Tensor(node);
    this.members.push(t);
    return t;
  }

  private read(b: DeviceBuffer): void {
    if (this.reads.has(b)) return;
    this.reads.add(b);
    pin(b);
  }

  /**
   * An in-place update (optimizer step, copy_) recorded in the region: ops recorded so far,
   * and recipes kept reading target, keep reading the old value, which moves to a hidden
   * tensor; from now on `target` is the source's recipe, so later ops read the new value and
   * the program writes it out. A `derived` update (a view recomputed from its updated base)
   * is not written out unless used: the views of a parameter left by earlier steps (`w.T`),
   * dead but not yet collected, would otherwise each add an output, and a new program, to
   * every step. Read later, such a view is recomputed from the base's buffer its recipe keeps.
   * Returns false when `source` is not a recipe of this region (the caller updates eagerly then).
   */
  assign(target: Tensor, source: Tensor, derived = false): boolean {
    if (source._node?.region !== this || source.disposed) return false;
    const old = new Tensor(null, target.shape, target.dtype, target.chip);
    old._buf = target._buf;
    old._node = target._node;
    old._pins = target._pins;
    old.disposed = true; // never an output: the region and the recipes kept reading target read it
    target._pins = null;
    keepReaders(target, old);
    if (target._buf) this.displaced.push(target._buf);
    const members = this.members;
    for (let i = 0; i < members.length; i++) {
      if (members[i] === target) members[i] = old;
      const inputs = members[i]!._node!.inputs as (Tensor | WeakScalar)[];
      for (let k = 0; k < inputs.length; k++) if (inputs[k] === target) inputs[k] = old;
    }
    this.updated.delete(target);
    this.derived.delete(target);
    if (!this.originals.has(target)) this.originals.set(target, old);
    target._buf = null;
    target._node = source._node;
    source.disposed = true; // its recipe is target's now
    members.push(target);
    if (derived && this.derivedAsRecipes) this.derived.add(target);
    else this.updated.add(target);
    return true;
  }

  /** At the size cap: run the region up to the last loop-iteration boundary, keep the rest. */
  private cutAtCap(): void {
    // A cut between a collective's chips would leave some waiting for the next region.
    if (this.collectives) return this.flush('size cap');
    const cut = iterationCut(this.members, sameOpCall);
    if (cut >= this.members.length) return this.flush('size cap');
    const prefix = this.members.slice(0, cut);
    const suffix = this.members.slice(cut);
    const inPrefix = new Set(prefix);
    const inSuffix = new Set(suffix);
    const outputs = new Set<Tensor>();
    for (const t of suffix) {
      for (const v of t._node!.inputs) if (!isScalar(v) && inPrefix.has(v)) outputs.add(v);
    }
    for (const t of prefix) if (!t.disposed && ((!t._temporary && t._node!.consumers !== 1 && !this.derived.has(t)) || this.updated.has(t))) outputs.add(t);
    for (const t of this.recomputed) if (keepsRecomputed(t)) outputs.add(t);
    this.recomputed = new Set();
    if (profiling.on) emit({ kind: 'region', time: performance.now(), reason: 'size cap (at a loop iteration)', nodes: cut, outputs: outputs.size });
    const readBefore = this.reads;
    try {
      this.launchSparing(outputs, regionSite(this.start, Region.prototype.cutAtCap, this.mayFail()));
      this.keepOldValuesOnFailure();
    } finally {
      // The suffix becomes the new region, with its consumers and reads counted afresh.
      this.settle(prefix);
      this.start = null;
      this.members = suffix;
      this.reads = new Set();
      for (const t of suffix) t._node!.consumers = 0;
      for (const t of suffix) {
        for (const v of t._node!.inputs) {
          if (isScalar(v)) continue;
          if (inSuffix.has(v)) v._node!.consumers++;
          else if (v._buf) this.read(v._buf);
        }
      }
      for (const b of readBefore) unpin(b);
    }
  }

  /** Tensors updated in place and written out now take their old values back should the program fail. */
  private keepOldValuesOnFailure(): void {
    for (const [target, old] of this.originals) {
      if (target._buf && old._buf && target._buf !== old._buf && !target._buf.freed) chipSession(target.chip).keepOnFailure(target._buf, old._buf);
    }
  }

  /** Ran (or dropped): what stays unmaterialized keeps its recipe, no longer pending here. */
  private settle(members: readonly Tensor[]): void {
    keepRecipes(members);
    for (const t of members) if (t._node?.region === this) t._node.region = null;
  }

  private end(): void {
    this.settle(this.members);
    this.members = [];
    // Empty ones are kept: strict mode ends a region per composed op, and five fresh
    // collections each time were ~6 KiB of a W6 strict step's allocations.
    if (this.recomputed.size) this.recomputed = new Set();
    if (this.updated.size) this.updated = new Set();
    if (this.derived.size) this.derived = new Set();
    if (this.originals.size) this.originals = new Map();
    this.start = null;
    this.collectives = false;
    const reads = this.reads;
    if (reads.size) this.reads = new Set();
    for (const b of reads) unpin(b);
    const displaced = this.displaced;
    if (displaced.length) this.displaced = [];
    for (const b of displaced) disposeBuffer(b);
  }

  size(): number {
    return this.members.length;
  }

  /** Values of the region that may still be read: not disposed, not temporaries (whole-function capture). */
  liveValues(): Tensor[] {
    return this.members.filter((t) => !t.disposed && !t._temporary && !t._buf);
  }

  /** Whether the region recomputes values of earlier regions (its program then computes them too). */
  recomputes(): boolean {
    return [...this.recomputed].some((t) => !t.disposed && !t._buf);
  }

  /** Whether it records ops of chips other than 0 (it then runs as one program per chip). */
  spansChips(): boolean {
    return this.members.some((t) => t.chip !== 0);
  }

  /**
   * Cuts the region: compiles and launches it. `required` tensors become outputs (first, in
   * that order); over several chips, one program per chip. `beforeLaunch` sees the binding and the in-place updates (target -> hidden
   * tensor holding its value before the region) while the region's buffers are still alive.
   */
  flush(
    reason: string, required: readonly Tensor[] = [],
    beforeLaunch?: (bp: BoundRegion, updates: ReadonlyMap<Tensor, Tensor>) => void,
  ): void {
    if (this.members.length === 0) return;
    const outputs = this.outputs(required);
    for (const t of this.readersOfReplaced(outputs)) outputs.add(t);
    const count = this.members.length;
    if (profiling.on) emit({ kind: 'region', time: performance.now(), reason, nodes: count, outputs: outputs.size });
    try {
      if (outputs.size) {
        const site = this.oneOpMayFail
          ? captureSite(Region.prototype.flush, false, this.mayFail() || this.oneOpMayFail(outputs))
          : regionSite(this.start, Region.prototype.flush, this.mayFail());
        if (this.onSeveralChips(outputs)) {
          // Values that read no index from device data and wait for no collective (which a peer's
          // error fails) run first, in programs of their own: they survive such an error.
          const [safe, fallible] = this.mayFail() && !beforeLaunch ? splitFallible(outputs, true) : [[], [...outputs]];
          const programs = [safe, fallible].filter((ts) => ts.length).map((ts) => bindPerChip(new Set(ts), site, this.members));
          beforeLaunch?.(combineBindings(programs[0]!), this.originals);
          for (const parts of programs) launchAll(parts);
        } else if (beforeLaunch) {
          const bp = bindProgram([...outputs], site);
          beforeLaunch(bp, this.originals);
          launch(bp);
        } else {
          this.launchSparing(outputs, site);
        }
        // A sync waits for this program next: it goes out now, so the device thread wakes while
        // the region's bookkeeping and the fence follow (W6 fused: the cut to the program's
        // start ~20-30 µs sooner, step-phases.bench).
        if (reason === SYNC) postAllChips();
        this.keepOldValuesOnFailure();
      }
    } catch (e) {
      // A chip's program could not launch (out of memory): the collectives' chips ran none, so
      // their recipes can never be recomputed; updates that did not run are undone instead.
      if (this.collectives) this.undoUpdates();
      throw e;
    } finally {
      this.end();
    }
    // Disposed values written out anyway (a collective's results) are freed only now: end()
    // first pins what the recipes it keeps read, and one may read such a value (x.max(d, true)'s
    // indices, read once in the region, left a recipe over a disposed all_gather result).
    for (const t of outputs) if (t.disposed && t._buf) disposeBuffer(t._buf);
  }

  /** What a cut writes out: `required` first, then every value that may be read later. */
  private outputs(required: readonly Tensor[]): Set<Tensor> {
    const outputs = new Set(required);
    for (const t of this.updated) if (!t._buf && !t.disposed) outputs.add(t);
    for (const t of this.recomputed) if (keepsRecomputed(t)) outputs.add(t);
    for (const t of this.members) {
      if (!t.disposed && !t._temporary && !t._buf && t._node && t._node.consumers !== 1 && !this.derived.has(t)) outputs.add(t);
    }
    // A collective runs on every chip of its call or on none: each is written out, never left
    // to a recipe that one chip alone would recompute later.
    if (this.collectives) for (const t of this.members) if (!t._buf && t._node && COLLECTIVE_PRIMITIVES.has(t._node.op.name)) outputs.add(t);
    return outputs;
  }

  /**
   * Values that may be read later whose recipes read, directly or through values not written,
   * old values this region replaces (the weights an optimizer step updates), when smaller
   * than those: written out too. Kept as recipes they would pin the old buffers until a full
   * collection (natural code drops a training step's intermediates without disposing them),
   * and every step's new weights would be a fresh allocation (W6 fused: its first layer's
   * output, 64 KiB, kept its old weights, 784 KiB, a page fault per 4 KiB to replace).
   * Temporaries and disposed values are seen through: nothing but recipes reads them.
   */
  private readersOfReplaced(outputs: ReadonlySet<Tensor>): Tensor[] {
    if (this.displaced.length === 0) return [];
    // Sets are shared, never changed: a value reaching what one input reaches takes its set
    // (most values of a step reach the same few weights), a new one only where two differ.
    const alone = new Map<DeviceBuffer, ReadonlySet<DeviceBuffer>>();
    for (const b of this.displaced) alone.set(b, new Set([b]));
    /** The old buffers each value not written reaches through its recipe. */
    const reaches = new Map<Tensor, ReadonlySet<DeviceBuffer>>();
    const found: Tensor[] = [];
    for (const t of this.members) {
      if (t._buf || !t._node || outputs.has(t) || this.derived.has(t)) continue;
      let reached: ReadonlySet<DeviceBuffer> | undefined;
      for (const v of t._node.inputs) {
        if (isScalar(v)) continue;
        const r = v._buf ? alone.get(v._buf) : reaches.get(v);
        if (r) reached = reached ? union(reached, r) : r;
      }
      if (!reached) continue;
      if (!t.disposed && !t._temporary && numel(t.shape) * ITEMSIZE[t.dtype] < bytesOf(reached)) found.push(t);
      else reaches.set(t, reached);
    }
    return found;
  }

  /**
   * The program a cut would run, then the region is dropped (nothing runs, in-place updates
   * are undone): ahead-of-time lowering. `updated` maps each tensor updated in place to the
   * hidden tensor the program reads its old value through; `made` holds the region's values.
   * Null when nothing is computed. Over several chips, the program of chip 0.
   */
  programOnly(required: readonly Tensor[]): { bound: BoundRegion; updated: ReadonlyMap<Tensor, Tensor>; made: ReadonlySet<Tensor> } | null {
    try {
      let outputs = this.outputs(required);
      // Over several chips: chip 0's program, the one an SPMD compile runs on every chip.
      if (this.spansChips()) outputs = new Set([...outputs].filter((t) => t.chip === 0));
      if (!this.members.length || !outputs.size) return null;
      const bound = bindProgram([...outputs], regionSite(this.start, Region.prototype.programOnly, this.mayFail()));
      return { bound, updated: new Map(this.originals), made: new Set(this.members) };
    } finally {
      this.drop();
    }
  }

  /**
   * Launches the program writing `outputs`. A device error fails every output of its program:
   * values that read no index from device data run in a program of their own first, so they
   * stay readable.
   */
  private launchSparing(outputs: ReadonlySet<Tensor>, site: Site | null): void {
    let [safe, fallible] = this.mayFail() ? splitFallible(outputs) : [[...outputs], []];
    if (fallible.length && safe.every((t) => this.unreadable?.has(t))) [safe, fallible] = [[], [...outputs]];
    if (safe.length) launch(bindProgram(safe, site));
    if (fallible.length) launch(bindProgram(fallible, site));
  }

  private onSeveralChips(outputs: ReadonlySet<Tensor>): boolean {
    for (const t of outputs) if (t.chip !== 0) return true;
    return false;
  }

  /** Whether its program may fail on the device: it reads indices from device data (mayFail) or makes an output of 1 MiB or more. */
  holdsOpThatMayFail(): boolean {
    return this.mayFail() || this.members.some((t) => t._node !== null && mayFailOnDevice(t._node.op, t._node.attrs, t));
  }

  /** Whether its program may read indices from device data (recomputed values: maybe, unless they only rearrange buffers). */
  private mayFail(): boolean {
    for (const t of this.recomputed) if (!isBufferLayout(t)) return true;
    return this.members.some((t) => t._node !== null && readsUncheckedIndices(t._node.op, t._node.attrs));
  }

  /** Drops the region without running it (interrupt); its tensors keep their recipes. */
  drop(): number {
    const n = this.members.length;
    this.undoUpdates();
    this.end();
    return n;
  }

  /** In-place updates that never ran are undone: each tensor gets its old value back. */
  private undoUpdates(): void {
    for (const [target, old] of this.originals) {
      if (target._buf) continue; // written by a program that ran
      target._buf = old._buf;
      target._node = old._node;
      target._pins = old._pins;
      old._pins = null;
      this.displaced = this.displaced.filter((b) => b !== old._buf);
    }
  }
}

/**
 * One program per chip, each of the outputs on that chip, to launch together (a collective's
 * chips meet in them). Collectives first, in the order they were recorded: each chip's program
 * then meets its peers in the same order (a program lists its nodes depth-first from its outputs).
 */
function bindPerChip(outputs: ReadonlySet<Tensor>, site: Site | null, members: readonly Tensor[]): BoundRegion[] {
  const byChip = new Map<number, Tensor[]>();
  const collectives = members.filter((t) => outputs.has(t) && COLLECTIVE_PRIMITIVES.has(t._node!.op.name));
  for (const t of new Set([...collectives, ...outputs])) {
    const list = byChip.get(t.chip);
    if (list) list.push(t);
    else byChip.set(t.chip, [t]);
  }
  return [...byChip.keys()].sort((a, b) => a - b).map((chip) => bindProgram(byChip.get(chip)!, site));
}

/**
 * Outputs split by whether their recipe reads indices from device data (an op that can fail on
 * the device) or, with `collectivesToo`, holds a collective; in their order; `required`
 * outputs stay first in theirs.
 */
function splitFallible(outputs: ReadonlySet<Tensor>, collectivesToo = false): [Tensor[], Tensor[]] {
  const memo = new Map<Tensor, boolean>();
  const fallible = (t: Tensor): boolean => {
    const node = t._node;
    if (t._buf || !node) return false;
    let known = memo.get(t);
    if (known === undefined) {
      known = readsUncheckedIndices(node.op, node.attrs) || (collectivesToo && COLLECTIVE_PRIMITIVES.has(node.op.name)) ||
        node.inputs.some((v) => !isScalar(v) && fallible(v));
      memo.set(t, known);
    }
    return known;
  };
  const safe: Tensor[] = [];
  const rest: Tensor[] = [];
  for (const t of outputs) (fallible(t) ? rest : safe).push(t);
  return [safe, rest];
}

/** a ∪ b, as one of them when it holds the other. */
function union<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): ReadonlySet<T> {
  if (a === b) return a;
  if (a.size < b.size) return union(b, a);
  for (const x of b) if (!a.has(x)) return new Set([...a, ...b]);
  return a;
}

function bytesOf(buffers: ReadonlySet<DeviceBuffer>): number {
  let bytes = 0;
  for (const b of buffers) bytes += b.bytes;
  return bytes;
}

/** A value of an earlier region recomputed here is written out, and kept, unless it only rearranges buffers. */
function keepsRecomputed(t: Tensor): boolean {
  return !t.disposed && !t._buf && !isBufferLayout(t);
}

/** Two recorded ops alike: same op, attributes, dtype and shape (compared, not keyed: no strings per op). */
function sameOpCall(a: Tensor, b: Tensor): boolean {
  const x = a._node!;
  const y = b._node!;
  return x.op === y.op && x.dtype === y.dtype && shapesEqual(x.shape, y.shape) &&
    sameAttrs(x.op, x.attrs, y.attrs);
}
