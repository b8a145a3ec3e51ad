// fused: ops are recorded into the pending region and compiled as ONE program when the
// region is cut (sync point, size cap, mode switch). A value
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

export function applyFused(node: TraceNode): Tensor {
  for (const v of node.inputs) {
    if (isScalar(v)) continue;
    if (v._buf) reads.add(v._buf);
    else if (v._node!.region === regionId) v._node!.consumers++;
  }
  node.region = regionId;
  const t = new Tensor(node);
  members.push(t);
  if (members.length >= REGION_CAP) flushRegion('size cap');
  return t;
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

/** Cuts the region: compiles and launches it. `required` tensors become outputs. */
export function flushRegion(reason: string, required: readonly Tensor[] = []): void {
  if (members.length === 0) return;
  const outputs = new Set(required);
  for (const t of members) {
    if (!t.disposed && !t._buf && t._node && t._node.consumers !== 1) outputs.add(t);
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
