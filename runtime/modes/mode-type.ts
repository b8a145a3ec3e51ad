// What a mode is: its name (tpu.mode('fused'), TPU_KERNEL_MODE) and what it does with each
// op application, composed op and in-place update. Dispatch (dispatch.ts) hands every op to
// the active mode's apply(), like JAX hands a primitive to its interpreter.
import type { Abstract, OpDef } from '../ops/op.js';
import type { CallSite } from '../call-site.js';
import type { Tensor, TraceNode } from '../tensor.js';
import type { Region } from './region.js';

export type ModeName = 'debug' | 'strict' | 'fused';
export const MODES: readonly ModeName[] = ['debug', 'strict', 'fused'];

export function assertMode(value: unknown, source: string): ModeName {
  if (typeof value === 'string' && (MODES as readonly string[]).includes(value)) return value as ModeName;
  throw new RangeError(`${source}: mode must be one of ${MODES.join(', ')}; got ${JSON.stringify(value)}`);
}

export interface Mode {
  readonly name: ModeName;
  /** Where its ops are recorded to run later as one program (null: each op runs at once). */
  readonly region: Region | null;
  /** The call site an op records, captured below `caller` (null: none). */
  site(op: OpDef<any>, attrs: unknown, out: Abstract, caller: Function): CallSite | null;
  /** Runs or records one op application; returns its result. */
  apply(node: TraceNode): Tensor;
  /** Runs the body of the composed op `name` (composite.ts). */
  composite(name: string, fn: () => Tensor): Tensor;
  /**
   * `target` takes the value of `source` in place; `source` is consumed. `derived`: the new
   * value follows from another update (a view of a base updated in place), so it can be
   * recomputed when read instead of being written out.
   */
  assign(target: Tensor, source: Tensor, derived?: boolean): void;
  /** Another mode takes over (or a whole function is captured): pending work runs first. */
  leave(reason: string): void;
  /** Runs runtime code that is one op to the user (a gradient rule, an optimizer step): one program in strict mode. */
  oneOp<T>(fn: () => T): T;
}
