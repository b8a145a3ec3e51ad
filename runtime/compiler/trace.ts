// A traced op application: the recipe of a tensor that is not (yet) in device memory.
import type { DType } from '../dtype.js';
import type { Shape } from '../shape.js';
import type { OpDef } from '../ops/op.js';
import type { CallSite } from '../call-site.js';
import type { Tensor } from '../tensor.js';
import type { LiveNumber } from '../compile/live-number.js';

/** A JS scalar operand, fed to the program by value at each run (never a baked constant). */
export interface WeakScalar {
  readonly value: number;
  readonly dtype: DType;
  /** Where tpu.compile re-reads the value on a replay (else the value is the trace's). */
  readonly live?: LiveNumber;
}

export interface TraceNode {
  readonly op: OpDef<any>;
  readonly inputs: readonly (Tensor | WeakScalar)[];
  readonly attrs: unknown;
  readonly shape: Shape;
  readonly dtype: DType;
  /** Where it was called (null when call sites are off). */
  readonly site: CallSite | null;
  /** The fused region it was recorded in (0: not recorded in a region). */
  region: number;
  /** Ops of its own region that consume it. */
  consumers: number;
}

export function isScalar(v: Tensor | WeakScalar): v is WeakScalar {
  return 'value' in v;
}
