// The ONNX backend's lowering table and what its rules see. Values are held in their
// compute types (bfloat16 as float32); the driver (../lower-program.ts) rounds bfloat16
// results, so a rule only casts its operands where the op needs another type.
import type { DType } from '../../../dtype.js';
import type { DeviceCheck } from '../../device-check.js';
import { LoweringTable, type LoweringRule } from '../../lowering-table.js';
import type { OnnxGraph } from '../onnx-graph.js';
import { COLLECTIVE_PRIMITIVES } from '../../../program/collective-nodes.js';

export interface OnnxLowerContext {
  readonly graph: OnnxGraph;
  /** Casts a value between dtypes (bfloat16 rounding included). */
  cast(value: string, from: DType, to: DType): string;
  /** Whether the session runs tpu_kernel.Sgemm nodes (oneDNN's GEMM): float32 matmuls lower to them. */
  readonly sgemm: boolean;
  /** Whether the session runs tpu_kernel.Select nodes: a float where lowers to one. */
  readonly select: boolean;
  /** The program's device checks so far: the node of check i is named `check<i>` (device-checks.ts). */
  readonly checks: DeviceCheck[];
}

export type OnnxLowering = LoweringRule<OnnxLowerContext, string>;

/** ONNX lowers every primitive but the collectives: the device thread runs those between the graphs (device/ici/). */
export const onnxLowerings = new LoweringTable<OnnxLowering>('onnx', undefined, COLLECTIVE_PRIMITIVES);
