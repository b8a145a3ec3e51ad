// fused: ops are recorded into a region (region.ts) and run as one program when it is cut.
// The fused mode of tpu.mode('fused') records into one region, capped at REGION_CAP ops;
// tpu.compile makes a fused mode of its own around an uncapped region while it traces.
import type { Tensor, TraceNode } from '../tensor.js';
import type { Abstract, OpDef } from '../ops/op.js';
import { captureSite, type CallSite } from '../call-site.js';
import { readsUncheckedIndices } from '../primitive.js';
import { temporaries } from '../scope.js';
import { materialize } from './materialize.js';
import { adopt } from './adopt.js';
import { Region } from './region.js';
import type { Mode, ModeName } from './mode-type.js';

/** Ops per region of tpu.mode('fused') before it is cut. */
export const REGION_CAP = 512;

export class FusedMode implements Mode {
  /** `name`: the mode its ops are counted for (strict mode records its composed ops in one too). */
  constructor(readonly region: Region, readonly name: ModeName = 'fused') {}

  // A region records where it started and where it was cut instead (region.ts), and the
  // calls of its ops that read indices from device data (their values never exist apart
  // from the region's program).
  site(op: OpDef<any>, attrs: unknown, _out: Abstract, caller: Function): CallSite | null {
    return readsUncheckedIndices(op, attrs) ? captureSite(caller, false, true) : null;
  }

  apply(node: TraceNode): Tensor {
    return this.region.record(node, FusedMode.prototype.apply);
  }

  // What the body makes and does not return is a temporary (scope.ts), never a program
  // output even when used twice, so the program keeps the op's whole subgraph (ONNX Runtime
  // can then fuse it into one kernel) and writes only the result. Read later anyway (a
  // backward pass), a temporary is recomputed from its recipe.
  composite(_name: string, fn: () => Tensor): Tensor {
    return temporaries(fn);
  }

  // Recorded in the region: no cut, the program writes the new value (region.ts assign).
  assign(target: Tensor, source: Tensor, derived = false): void {
    if (this.region.assign(target, source, derived)) return;
    this.region.flush('in-place update'); // recipes reading the old value run first
    materialize(source, 'in-place update');
    adopt(target, source);
  }

  leave(reason: string): void {
    this.region.flush(reason);
  }

  // Recorded in the region already.
  oneOp<T>(fn: () => T): T {
    return fn();
  }
}

/** tpu.mode('fused'). */
export const fused = new FusedMode(new Region(REGION_CAP, true));

/** Changes the size cap of tpu.mode('fused')'s region; returns the previous one. */
export function setRegionCap(cap: number): number {
  if (!(cap >= 1)) throw new RangeError(`setRegionCap: cap must be a number >= 1; got ${cap}`);
  const before = fused.region.cap;
  fused.region.cap = cap;
  return before;
}
