// fused: ops are recorded into the pending region and compiled as ONE program when the
// region is cut (sync point, size cap, mode switch). At the size cap the cut falls on a
// loop-iteration boundary when the op stream repeats, so a loop without sync points
// also settles into one cached program. A value
// becomes a program output only if it may be read later: it is not disposed and either
// no op of the region consumes it or several do (a value reused is kept, not recomputed).
// Values consumed once inside the region are never materialized; should one be read
// later, its recipe is recomputed from its inputs.
import { performance } from 'node:perf_hooks';
import type { TraceNode } from '../compiler/trace.js';
import { isScalar } from '../compiler/trace.js';
import { bindProgram } from '../compiler/bind-program.js';
import type { DeviceBuffer } from '../device/memory.js';
import { emit, profiling } from '../profiler/events.js';
import { Tensor } from '../tensor.js';
import { launch } from './launch.js';
import { iterationCut } from '../compiler/loop-period.js';
import { attrKeyOf } from '../ops/op.js';
import { currentSession } from '../device/current.js';

/** Ops per region before it is cut. */
export const REGION_CAP = 512;

let regionId = 1;
// Strong references until the cut: WeakRefs keep every target alive to the end of the
// job anyway and made dispatch GC-bound.
let members: Tensor[] = [];
let reads = new Set<DeviceBuffer>();
/** Buffers disposed by the user while the region still reads them: freed after its launch. */
let deferredFrees: DeviceBuffer[] = [];

/**
 * While tpu.compile traces a function, its whole body is one region: the size cap does not
 * cut it and any other cut (a sync point reading a traced value) throws `capture.error`.
 */
let capture: { error: (reason: string) => Error } | null = null;

export function setCapture(c: { error: (reason: string) => Error } | null): void {
  capture = c;
}

export function applyFused(node: TraceNode): Tensor {
  for (const v of node.inputs) {
    if (isScalar(v)) continue;
    if (v._buf) reads.add(v._buf);
    else if (v._node!.region === regionId) v._node!.consumers++;
  }
  node.region = regionId;
  const t = new Tensor(node);
  members.push(t);
  if (members.length >= REGION_CAP && !capture) cutAtCap();
  return t;
}

/** At the size cap: run the region up to the last loop-iteration boundary, keep the rest. */
function cutAtCap(): void {
  const keys = members.map((m) => {
    const n = m._node!;
    return `${n.op.name}${attrKeyOf(n.op, n.attrs)}|${n.dtype}|${m.shape.join(',')}`;
  });
  const cut = iterationCut(keys);
  if (cut >= members.length) return flushRegion('size cap');
  const prefix = members.slice(0, cut);
  const suffix = members.slice(cut);
  const inPrefix = new Set(prefix);
  const inSuffix = new Set(suffix);
  const outputs = new Set<Tensor>();
  for (const t of suffix) {
    for (const v of t._node!.inputs) if (!isScalar(v) && inPrefix.has(v)) outputs.add(v);
  }
  for (const t of prefix) if (!t.disposed && t._node!.consumers !== 1) outputs.add(t);
  if (profiling.on) emit({ kind: 'region', time: performance.now(), reason: 'size cap (at a loop iteration)', nodes: cut, outputs: outputs.size });
  const frees = deferredFrees;
  try {
    launch(bindProgram([...outputs]));
  } finally {
    // The suffix becomes the new region, with its consumers and reads counted afresh.
    regionId++;
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
    for (const b of frees) {
      if (reads.has(b)) deferredFrees.push(b);
      else currentSession().free(b);
    }
  }
}

export function inRegion(t: Tensor): boolean {
  return t._node !== null && t._node.region === regionId;
}

/** Frees a disposed tensor's buffer, or defers that until the region that reads it runs. */
export function freeWhenUnread(buffer: DeviceBuffer): void {
  if (reads.has(buffer)) deferredFrees.push(buffer);
  else currentSession().free(buffer);
}

function endRegion(): void {
  members = [];
  reads = new Set();
  regionId++;
  const frees = deferredFrees;
  deferredFrees = [];
  for (const b of frees) currentSession().free(b);
}

export function regionSize(): number {
  return members.length;
}

/**
 * Cuts the region: compiles and launches it. `required` tensors become outputs; with
 * `everyLive`, so does every value not disposed (before parameters are updated in place,
 * no live recipe may be left reading their old values).
 */
export function flushRegion(reason: string, required: readonly Tensor[] = [], everyLive = false): void {
  if (members.length === 0) return;
  if (capture) throw capture.error(reason);
  const outputs = new Set(required);
  for (const t of members) {
    if (!t.disposed && !t._buf && t._node && (everyLive || t._node.consumers !== 1)) outputs.add(t);
  }
  const count = members.length;
  if (profiling.on) emit({ kind: 'region', time: performance.now(), reason, nodes: count, outputs: outputs.size });
  try {
    if (outputs.size) launch(bindProgram([...outputs]));
  } finally {
    endRegion();
  }
}

/** Drops the pending region without running it (interrupt); its tensors keep their recipes. */
export function dropRegion(): number {
  const n = members.length;
  endRegion();
  return n;
}
