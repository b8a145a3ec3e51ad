// The StableHLO backend's lowering table and what its rules see. Values keep their own
// dtype (bfloat16 is bf16, computed natively); a rule converts operands where the op needs
// another element type, and returns a value of exactly the node's shape and dtype (the
// driver, ../lower-program.ts, checks it).
import { LoweringTable, type LoweringRule } from '../../lowering-table.js';
import type { MlirFunction } from '../mlir-function.js';
import type { DeviceCheck } from '../../device-check.js';

export interface StableHloLowerContext {
  readonly fn: MlirFunction;
  /** The program's device checks so far, each with its code's value: @main returns the codes after the outputs (lower-program.ts). */
  readonly checks: { readonly code: string; readonly check: DeviceCheck }[];
}

export type StableHloLowering = LoweringRule<StableHloLowerContext, string>;

/** StableHLO lowers every primitive. */
export const stablehloLowerings = new LoweringTable<StableHloLowering>('stablehlo');
