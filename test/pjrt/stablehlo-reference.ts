// Runs one program on both backends with the same inputs: the ONNX backend (ONNX Runtime,
// the session's own executor) and its StableHLO text on XLA:CPU; compares the outputs
// element by element within a tolerance.
import { OrtBackend } from '../../runtime/device/onnx/ort-backend.js';
import { lowerToStableHlo } from '../../runtime/device/stablehlo/index.js';
import { ELEMENT_TYPE } from '../../runtime/device/stablehlo/mlir-function.js';
import { valueOf, type Program } from '../../runtime/program/program.js';
import { bf16Bits, widenBf16, type DType, type StorageArray } from '../../runtime/dtype.js';
import type { XlaArray, XlaCpu } from '../support/xla-cpu.js';
import type { Tolerance } from './stablehlo-cases.js';
import { hasCollective } from '../../runtime/program/collective-nodes.js';
import { compileSegmented, runSegmented, SegmentedExecutable } from '../../runtime/device/ici/segmented-program.js';

const ort = new OrtBackend({ threads: 1 });

export interface BothResults {
  readonly onnx: number[][];
  readonly xla: number[][];
  readonly dtypes: DType[];
}

/** Storage as numbers (bfloat16 widened, bool 0/1, int64 exact within 2^53: the cases stay there). */
function numbersOf(dtype: DType, data: StorageArray): number[] {
  if (data instanceof BigInt64Array) return Array.from(data, Number);
  return dtype === 'bfloat16' ? Array.from(widenBf16(data as Uint16Array)) : Array.from(data as ArrayLike<number>);
}

export async function runBoth(xla: XlaCpu, program: Program, inputs: readonly StorageArray[], scalars: readonly number[]): Promise<BothResults> {
  // A program holding collectives runs as the device thread runs it: in parts (chip 0 alone).
  const segmented = hasCollective(program.nodes);
  const exe = segmented ? await compileSegmented(program, ort) : await ort.compile(program);
  const buffers = inputs.map((data, i) => ort.toDevice(program.inputs[i]!.dtype, data));
  const outs = exe instanceof SegmentedExecutable ? await runSegmented(exe, ort, buffers, scalars, { chip: 0, launch: 0, program: 0 }, null, null) : await ort.execute(exe, buffers, scalars);
  const dtypes = program.outputs.map((id) => valueOf(program, id).dtype);
  const onnx = outs.map((b, i) => numbersOf(dtypes[i]!, ort.toHost(b)));
  for (const b of [...buffers, ...outs]) ort.free(b);
  if (exe instanceof SegmentedExecutable) for (const step of exe.steps) await (step.kind === 'part' ? ort.release(step.exe) : undefined);
  else await ort.release(exe);

  const { text } = lowerToStableHlo(program);
  const args: XlaArray[] = [
    ...inputs.map((data, i) => ({ type: ELEMENT_TYPE[program.inputs[i]!.dtype], shape: program.inputs[i]!.shape, data })),
    ...program.scalars.map((d, i) => ({ type: ELEMENT_TYPE[d], shape: [], data: scalarStorage(d, scalars[i]!) })),
  ];
  const results = await xla.run(text, args);
  return { onnx, xla: results.map((r, i) => numbersOf(dtypes[i]!, r.data)), dtypes };
}

function scalarStorage(dtype: DType, v: number): StorageArray {
  if (dtype === 'float32') return Float32Array.of(v);
  if (dtype === 'bfloat16') return Uint16Array.of(bf16Bits(v));
  if (dtype === 'int32') return Int32Array.of(v);
  if (dtype === 'int64') return BigInt64Array.of(BigInt(v));
  return Uint8Array.of(v ? 1 : 0);
}

/** The spacing of floats of `dtype` at |v| (its ulp). */
function ulp(v: number, dtype: DType): number {
  const mantissa = dtype === 'bfloat16' ? 7 : 23;
  const a = Math.max(Math.abs(v), 2 ** -126);
  return 2 ** (Math.floor(Math.log2(a)) - mantissa);
}

function ulpBound(tolerance: { ulps: number; abs?: number }, v: number, dtype: DType): number {
  const ulps = dtype === 'bfloat16' ? Math.min(tolerance.ulps, 1) : tolerance.ulps;
  return ulps * ulp(v, dtype) + (tolerance.abs ?? 0);
}

/** The first element outside the tolerance, described; undefined when all agree. */
export function firstMismatch(onnx: readonly number[], xla: readonly number[], dtype: DType, tolerance: Tolerance, reference = 'ONNX'): string | undefined {
  if (onnx.length !== xla.length) return `${xla.length} elements, ${reference} has ${onnx.length}`;
  for (let i = 0; i < onnx.length; i++) {
    const [a, b] = [onnx[i]!, xla[i]!];
    if (Number.isNaN(a) && Number.isNaN(b)) continue;
    // PyTorch's values count the sign of a zero (ONNX Runtime's do not always keep it)
    const zero = (v: number) => (Object.is(v, -0) ? '-0' : '0');
    if (a === b && reference === 'PyTorch' && !Object.is(a, b)) return `element ${i}: XLA:CPU ${zero(b)}, ${reference} ${zero(a)}`;
    if (a === b) continue;
    let ok = false;
    if (tolerance !== 'exact' && Number.isFinite(a) && Number.isFinite(b)) {
      const bound = 'ulps' in tolerance ? ulpBound(tolerance, Math.max(Math.abs(a), Math.abs(b)), dtype) : tolerance.abs + tolerance.rel * Math.abs(a);
      ok = Math.abs(a - b) <= bound;
    }
    if (!ok) return `element ${i}: XLA:CPU ${b}, ${reference} ${a}`;
  }
  return undefined;
}
