// Roofline estimate of a program on a TPU generation: the larger of its FLOPs over the
// chip's peak bfloat16 rate and its HBM traffic over the HBM bandwidth. Traffic counts
// the program's inputs and outputs once (a fused program keeps its intermediates on
// chip). An estimate, labelled so wherever it is shown.
import { ITEMSIZE } from '../dtype.js';
import { numel } from '../shape.js';
import { valueOf, type Program } from '../program/program.js';
import { CHIPS, type ChipGeneration } from '../device/chips.js';

export interface ProgramCost {
  readonly flops: number;
  readonly bytes: number;
}

export interface RooflineEstimate {
  readonly ms: number;
  /** Which roof limits it. */
  readonly bound: 'compute' | 'memory';
}

export function programCost(p: Program): ProgramCost {
  let flops = 0;
  for (const n of p.nodes) {
    if (n.op === 'matmul') {
      // 2·K multiply-adds per output element; K is the contracted dim of the first operand.
      const a = valueOf(p, n.inputs[0]!).shape;
      flops += 2 * numel(n.shape) * (a[a.length - 1] ?? 1);
    } else {
      // Elementwise ops and reductions: one operation per element read.
      flops += Math.max(numel(n.shape), ...n.inputs.map((id) => numel(valueOf(p, id).shape)));
    }
  }
  let bytes = 0;
  for (const v of p.inputs) bytes += numel(v.shape) * ITEMSIZE[v.dtype];
  for (const id of p.outputs) {
    const v = valueOf(p, id);
    bytes += numel(v.shape) * ITEMSIZE[v.dtype];
  }
  return { flops, bytes };
}

export function roofline(cost: ProgramCost, chip: ChipGeneration): RooflineEstimate {
  const c = CHIPS[chip];
  const compute = cost.flops / c.peakBf16Flops;
  const memory = cost.bytes / c.hbmBytesPerSecond;
  return { ms: Math.max(compute, memory) * 1000, bound: compute >= memory ? 'compute' : 'memory' };
}
