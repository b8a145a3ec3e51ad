// fused: ops are recorded into the pending region and compiled as ONE program when the
// region is cut (sync point, size cap, mode switch). At the size cap the cut falls on a
// loop-iteration boundary when the op stream repeats, so a loop without sync points
// also settles into one cached program. A value becomes a program output only if it may
// be read later: it is neither disposed nor a composed op's temporary, and either no op
// of the region consumes it or several do (a value reused is kept, not recomputed).
// Values consumed once inside the region are never materialized; should one be used
// later, its recipe is recomputed from its inputs once, in the region that uses it, and
// kept from then on.
import { performance } from 'node:perf_hooks';
import type { TraceNode } from '../compiler/trace.js';
import { isScalar, type WeakScalar } from '../compiler/trace.js';
import { bindProgram, type BoundRegion } from '../compiler/bind-program.js';
import type { DeviceBuffer } from '../device/memory.js';
import { emit, profiling } from '../profiler/events.js';
import { Tensor } from '../tensor.js';
import { launch } from './launch.js';
import { iterationCut } from '../compiler/loop-period.js';
import { attrKeyOf } from '../ops/op.js';
import { shapesEqual } from '../shape.js';
import { keepRecipes, setReleaseBuffer } from './recipes.js';
import { currentSession } from '../device/current.js';
import { captureOuterSite, regionSite, type CallSite } from '../call-site.js';

/** Ops per region before it is cut (the default; tpu.compile lifts it while tracing). */
export const REGION_CAP = 512;
let regionCap = REGION_CAP;

/** Changes the size cap (whole-function capture uses Infinity); returns the previous one. */
export function setRegionCap(cap: number): number {
  if (!(cap >= 1)) throw new RangeError(`setRegionCap: cap must be a number >= 1; got ${cap}`);
  const before = regionCap;
  regionCap = cap;
  return before;
}

let regionId = 1;
// Strong references until the cut: WeakRefs keep every target alive to the end of the
// job anyway and made dispatch GC-bound.
let members: Tensor[] = [];
/** Values of earlier regions this region recomputes: kept as outputs this time. */
let recomputed = new Set<Tensor>();
let reads = new Set<DeviceBuffer>();
/** Buffers disposed by the user while the region still reads them: freed after its launch. */
let deferredFrees: DeviceBuffer[] = [];
/** Tensors given a new value in place in this region (always outputs: see assignInRegion). */
let updated = new Set<Tensor>();
/** Buffers of the old values those updates displaced: freed once the region ran. */
let displaced: DeviceBuffer[] = [];
/** The value each updated tensor had before the region (restored if the region is dropped). */
let originals = new Map<Tensor, Tensor>();
// Where the region's first op was called (null when call sites are off, or for the rest of a
// region cut at the size cap). With the line that cut the region, it locates a device error
// in the region's program, for two stack captures per region instead of one per op.
let regionStart: CallSite | null = null;

export function applyFused(node: TraceNode): Tensor {
  // The cut at the size cap waits for the next op: by then the loop body has disposed what
  // it no longer needs, so those values are neither outputs nor recipes to keep.
  if (members.length >= regionCap) cutAtCap();
  if (members.length === 0) regionStart = captureOuterSite(applyFused);
  for (const v of node.inputs) {
    if (isScalar(v)) continue;
    if (v._buf) reads.add(v._buf);
    else if (v._node!.region === regionId) v._node!.consumers++;
    // Computed (and not kept) by an earlier region: recompute it once more, and keep it.
    else recomputed.add(v);
  }
  node.region = regionId;
  const t = new Tensor(node);
  members.push(t);
  return t;
}

/**
 * An in-place update (optimizer step, copy_) recorded in the region: ops recorded so far keep
 * reading the old value, which moves to a hidden tensor; from now on `target` is the
 * source's recipe, so later ops read the new value and the program writes it out. Returns
 * false when `source` is not a recipe of this region (the caller updates eagerly then).
 */
export function assignInRegion(target: Tensor, source: Tensor): boolean {
  if (!inRegion(source) || source.disposed) return false;
  const old = new Tensor(null, target.shape, target.dtype);
  old._buf = target._buf;
  old._node = target._node;
  old._pins = target._pins;
  old.disposed = true; // never an output: the region reads it, nothing after it does
  target._pins = null;
  if (target._buf) displaced.push(target._buf);
  for (let i = 0; i < members.length; i++) {
    if (members[i] === target) members[i] = old;
    const inputs = members[i]!._node!.inputs as (Tensor | WeakScalar)[];
    for (let k = 0; k < inputs.length; k++) if (inputs[k] === target) inputs[k] = old;
  }
  updated.delete(target);
  if (!originals.has(target)) originals.set(target, old);
  target._buf = null;
  target._node = source._node;
  source.disposed = true; // its recipe is target's now
  members.push(target);
  updated.add(target);
  return true;
}

/** At the size cap: run the region up to the last loop-iteration boundary, keep the rest. */
function cutAtCap(): void {
  const cut = iterationCut(members, sameOpCall);
  if (cut >= members.length) return flushRegion('size cap');
  const prefix = members.slice(0, cut);
  const suffix = members.slice(cut);
  const inPrefix = new Set(prefix);
  const inSuffix = new Set(suffix);
  const outputs = new Set<Tensor>();
  for (const t of suffix) {
    for (const v of t._node!.inputs) if (!isScalar(v) && inPrefix.has(v)) outputs.add(v);
  }
  for (const t of prefix) if (!t.disposed && ((!t._temporary && t._node!.consumers !== 1) || updated.has(t))) outputs.add(t);
  for (const t of recomputed) if (!t.disposed && !t._buf) outputs.add(t);
  recomputed = new Set();
  if (profiling.on) emit({ kind: 'region', time: performance.now(), reason: 'size cap (at a loop iteration)', nodes: cut, outputs: outputs.size });
  const frees = deferredFrees;
  try {
    launch(bindProgram([...outputs], regionSite(regionStart, cutAtCap)));
  } finally {
    // The suffix becomes the new region, with its consumers and reads counted afresh.
    keepRecipes(prefix);
    regionId++;
    regionStart = null;
    members = suffix;
    reads = new Set();
    for (const t of suffix) t._node!.consumers = 0;
    for (const t of suffix) {
      t._node!.region = regionId;
      for (const v of t._node!.inputs) {
        if (isScalar(v)) continue;
        if (inSuffix.has(v)) v._node!.consumers++;
        else if (v._buf) reads.add(v._buf);
      }
    }
    deferredFrees = [];
    for (const b of frees) releaseIfUnused(b);
  }
}

/** Two recorded ops alike: same op, attributes, dtype and shape (compared, not keyed: no strings per op). */
function sameOpCall(a: Tensor, b: Tensor): boolean {
  const x = a._node!;
  const y = b._node!;
  return x.op === y.op && x.dtype === y.dtype && shapesEqual(x.shape, y.shape) &&
    (x.attrs === y.attrs || attrKeyOf(x.op, x.attrs) === attrKeyOf(y.op, y.attrs));
}

export function inRegion(t: Tensor): boolean {
  return t._node !== null && t._node.region === regionId;
}

/** Frees a disposed tensor's buffer, or defers that until the region that reads it runs. */
function freeWhenUnread(buffer: DeviceBuffer): void {
  if (reads.has(buffer)) deferredFrees.push(buffer);
  else currentSession().free(buffer);
}
setReleaseBuffer(freeWhenUnread);

function endRegion(): void {
  keepRecipes(members);
  members = [];
  recomputed = new Set();
  reads = new Set();
  updated = new Set();
  originals = new Map();
  regionStart = null;
  regionId++;
  const frees = deferredFrees;
  deferredFrees = [];
  for (const b of frees) releaseIfUnused(b);
  const old = displaced;
  displaced = [];
  for (const b of old) releaseIfUnused(b);
}

/** A deferred free after a region ran: recipes it left may now pin the buffer. */
function releaseIfUnused(b: DeviceBuffer): void {
  if (b.pins > 0) b.disposeRequested = true;
  else freeWhenUnread(b);
}

export function regionSize(): number {
  return members.length;
}

/** Values of the region that may still be read: not disposed, not temporaries (whole-function capture). */
export function liveRegionValues(): Tensor[] {
  return members.filter((t) => !t.disposed && !t._temporary && !t._buf);
}

/** Whether the region recomputes values of earlier regions (its program then computes them too). */
export function regionRecomputes(): boolean {
  return [...recomputed].some((t) => !t.disposed && !t._buf);
}

/**
 * Cuts the region: compiles and launches it. `required` tensors become outputs (first, in
 * that order). `beforeLaunch` sees the binding and the in-place updates (target -> hidden
 * tensor holding its value before the region) while the region's buffers are still alive.
 */
export function flushRegion(
  reason: string, required: readonly Tensor[] = [],
  beforeLaunch?: (bp: BoundRegion, updates: ReadonlyMap<Tensor, Tensor>) => void,
): void {
  if (members.length === 0) return;
  const outputs = new Set(required);
  for (const t of updated) if (!t._buf && !t.disposed) outputs.add(t);
  for (const t of recomputed) if (!t.disposed && !t._buf) outputs.add(t);
  for (const t of members) {
    if (!t.disposed && !t._temporary && !t._buf && t._node && t._node.consumers !== 1) outputs.add(t);
  }
  const count = members.length;
  if (profiling.on) emit({ kind: 'region', time: performance.now(), reason, nodes: count, outputs: outputs.size });
  try {
    if (outputs.size) {
      const bp = bindProgram([...outputs], regionSite(regionStart, flushRegion));
      beforeLaunch?.(bp, originals);
      launch(bp);
    }
  } finally {
    endRegion();
  }
}

/** Drops the pending region without running it (interrupt); its tensors keep their recipes. */
export function dropRegion(): number {
  const n = members.length;
  // In-place updates that never ran are undone: each tensor gets its old value back.
  for (const [target, old] of originals) {
    target._buf = old._buf;
    target._node = old._node;
    target._pins = old._pins;
    old._pins = null;
  }
  displaced = [];
  endRegion();
  return n;
}
