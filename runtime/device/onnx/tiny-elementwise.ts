// One float32 add, sub, mul or div of a few thousand values runs as a plain loop on the
// device thread: ONNX Runtime's fixed cost per run (~9 µs of CPU measured here for 8 values)
// is many times the arithmetic. Results are bit-identical to ONNX Runtime's: for these four
// ops a double-precision result rounded to float32 is the correctly rounded float32 result
// (double carries more than 2·24+2 bits), which IEEE single arithmetic also gives.
import { numel, shapesEqual } from '../../shape.js';
import type { Program } from '../../program/program.js';

const MAX_ELEMENTS = 4096;
const OPS = ['add', 'sub', 'mul', 'div'] as const;
type Op = (typeof OPS)[number];

/** Runs the program on float32 input arrays and scalar values, writing `out`. */
export type TinyKernel = (inputs: readonly Float32Array[], scalars: readonly number[], out: Float32Array) => void;

const kernels = new WeakMap<Program, TinyKernel | null>();

/** The loop running `program` (made once per program), or null when it is not one such op. */
export function tinyKernelOf(program: Program): TinyKernel | null {
  let k = kernels.get(program);
  if (k === undefined) kernels.set(program, (k = tinyKernel(program) ?? null));
  return k;
}

function tinyKernel(program: Program): TinyKernel | undefined {
  if (program.nodes.length !== 1) return undefined;
  const node = program.nodes[0]!;
  const op = OPS.find((o) => o === node.op);
  const base = program.inputs.length;
  if (!op || node.dtype !== 'float32' || numel(node.shape) > MAX_ELEMENTS || program.outputs[0] !== base + program.scalars.length) return undefined;
  // Each operand: a full-shape float32 input (its index), or a float32 scalar (-1 - its index).
  const operands: number[] = [];
  for (const id of node.inputs) {
    if (id < base) {
      const v = program.inputs[id]!;
      if (v.dtype !== 'float32' || !shapesEqual(v.shape, node.shape)) return undefined;
      operands.push(id);
    } else {
      if (program.scalars[id - base] !== 'float32') return undefined;
      operands.push(-1 - (id - base));
    }
  }
  if (operands.length !== 2) return undefined;
  const [ia, ib] = operands as [number, number];
  const scratchA = new Float32Array(numel(node.shape));
  const scratchB = new Float32Array(numel(node.shape));
  return (inputs, scalars, out) => {
    // A scalar operand is filled into a scratch array, rounded to float32 as ONNX Runtime's feed is.
    const a = ia >= 0 ? inputs[ia]! : scratchA.fill(scalars[-1 - ia]!);
    const b = ib >= 0 ? inputs[ib]! : scratchB.fill(scalars[-1 - ib]!);
    loop(op, a, b, out);
  };
}

function loop(op: Op, a: Float32Array, b: Float32Array, out: Float32Array): void {
  const n = out.length;
  switch (op) {
    case 'add': for (let i = 0; i < n; i++) out[i] = a[i]! + b[i]!; return;
    case 'sub': for (let i = 0; i < n; i++) out[i] = a[i]! - b[i]!; return;
    case 'mul': for (let i = 0; i < n; i++) out[i] = a[i]! * b[i]!; return;
    case 'div': for (let i = 0; i < n; i++) out[i] = a[i]! / b[i]!; return;
  }
}
