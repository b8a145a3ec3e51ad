// Which programs our GEMM (gemm-c.ts) runs, and the kernel itself: a program that is one
// float32 2-D matmul of two inputs at precision 'highest', with K within one 256-deep slice
// (C written once) and B within 1 MiB (it stays in a core's L2: our kernel reads B in place,
// ONNX Runtime packs it). That is a linear layer's weight gradient (784x64x256 in W6), where
// ONNX Runtime's MLAS was slowest against our kernel on one thread; on larger K or B it was as
// fast or faster, so it keeps them (test/bench/gemm.bench.mjs times the shapes taken). Anything else (bfloat16 passes, batches, a matmul among other ops) stays on
// ONNX Runtime, as does everything where no compiler is found. TPU_KERNEL_GEMM=0 keeps every
// matmul on ONNX Runtime (A/B runs: test/bench/gemm.bench.mjs).
import type { Program } from '../../program/program.js';
import { GEMM_C, GEMM_ROWS } from './gemm-c.js';
import { compileKernel, type LoadedKernel } from './native.js';

export interface GemmCall {
  /** Program input indices of A and B. */
  readonly operands: readonly [number, number];
  /** M, K, N, as the kernel reads them (exact: each below 2^24). */
  readonly dims: Float32Array;
  /** Row blocks of C (the run's indices) and multiply-adds per block (for the split). */
  readonly blocks: number;
  readonly unit: number;
}

const EXACT_IN_FLOAT32 = 2 ** 24;
const MAX_B_BYTES = 2 ** 20;
const MAX_K = 256;

export function gemmCall(program: Program): GemmCall | undefined {
  if (process.env.TPU_KERNEL_GEMM === '0') return undefined;
  const { inputs, nodes, outputs } = program;
  const node = nodes[0];
  if (nodes.length !== 1 || outputs.length !== 1 || program.scalars.length || outputs[0] !== inputs.length || !node) return undefined;
  if (node.op !== 'matmul' || (node.attrs as { precision?: string }).precision === 'default' || node.dtype !== 'float32') return undefined;
  const [ia, ib] = node.inputs as [number, number];
  const a = inputs[ia];
  const b = inputs[ib];
  if (!a || !b || a.dtype !== 'float32' || b.dtype !== 'float32' || a.shape.length !== 2 || b.shape.length !== 2) return undefined;
  const [m, k, n] = [a.shape[0]!, a.shape[1]!, b.shape[1]!];
  if (![m, k, n].every((d) => d > 0 && d < EXACT_IN_FLOAT32) || k > MAX_K || k * n * 4 > MAX_B_BYTES) return undefined;
  const blocks = Math.ceil(m / GEMM_ROWS);
  return { operands: [ia, ib], dims: Float32Array.of(m, k, n), blocks, unit: GEMM_ROWS * k * n };
}

let loading: Promise<LoadedKernel | undefined> | undefined;
let loaded: LoadedKernel | undefined;

/** Starts loading the GEMM kernel (compiled once per machine and kept on disk); no compiler: it never loads. */
export function loadGemmKernel(): void {
  if (process.env.TPU_KERNEL_GEMM === '0') return;
  loading ??= compileKernel(GEMM_C).then((k) => (loaded = k));
}

/**
 * The GEMM kernel once loaded, else undefined: a program compiled before it is ready stays on
 * ONNX Runtime for its life, so a program's results never change bits between runs.
 */
export function gemmKernel(): LoadedKernel | undefined {
  return loaded;
}
