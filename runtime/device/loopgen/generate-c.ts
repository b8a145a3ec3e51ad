// Elementwise float32 programs as one generated C loop: one pass over memory instead of one
// ONNX Runtime kernel (and one full-size intermediate) per op. A program qualifies when every
// node is a supported elementwise op on the full shape, reading full-shape float32 buffers,
// float32 scalars or one-value constants; anything else stays on ONNX Runtime. When a loop is
// worth its compile is the backend's call (ort-backend.ts).
import { useCounts, valueOf, type Program, type ProgramNode } from '../../program/program.js';
import { numel } from '../../shape.js';
import { blockRead, erfBlockLoops, type BlockErf } from './erf-blocks.js';
import { nodeClosure } from './node-closure.js';
import { VECTOR_MATH_C } from './vector-math.js';

/** Each supported elementwise op as a C expression of its operands (also used by generate-rows-c.ts). */
export const C_OPS: Record<string, (a: string, b: string) => string> = {
  add: (a, b) => `${a} + ${b}`,
  sub: (a, b) => `${a} - ${b}`,
  mul: (a, b) => `${a} * ${b}`,
  div: (a, b) => `${a} / ${b}`,
  neg: (a) => `-${a}`,
  abs: (a) => `__builtin_fabsf(${a})`,
  sqrt: (a) => `__builtin_sqrtf(${a})`,
  square: (a) => `${a} * ${a}`,
  // NaN and -0 pass through, as PyTorch's and ONNX Runtime's relu
  relu: (a) => `(${a} < 0.0f ? 0.0f : ${a})`,
  tanh: (a) => `tk_tanh(${a})`,
  erf: (a) => `tk_erf(${a})`,
  identity: (a) => a,
};

/**
 * Ops whose IEEE result is rounded once, so a loop gives ONNX Runtime's bits. A program of one
 * op (strict mode) runs on ONNX Runtime until its loop is built: only these keep the same
 * bits either way (tanh is an approximation in both, a different one).
 */
const EXACT_OPS = new Set(['add', 'sub', 'mul', 'div', 'neg', 'abs', 'sqrt', 'square', 'relu', 'constant']);

/**
 * Comparisons of float32 values: their bool results stay inside the loop, read by a where
 * (relu's gradient is where(out <= 0, 0, g)). IEEE comparisons, as ONNX Runtime's: false with NaN.
 */
const C_COMPARISONS: Record<string, string> = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '==', ne: '!=' };

/** A one-value finite float32 constant node as a C literal, or undefined. */
export function constantC(node: ProgramNode): string | undefined {
  const { values, dtype } = node.attrs as { values: readonly number[]; dtype: string };
  if (dtype !== 'float32' || values.length !== 1 || !Number.isFinite(values[0])) return undefined;
  return `(float)${values[0]!.toPrecision(17)}`;
}

/**
 * Quotients x / c (c a one-value constant) that only an erf reads, by value id, each with the C
 * literal of float32 1/c: the loops compute them as x * (1/c), as PyTorch's gelu kernel does
 * (x * M_SQRT1_2), since a division is 3 vector instructions and occupies the divider 10-16
 * cycles (W5's fused loop: 10% of its time on one thread). The product is within 1.5 float32
 * rounding errors of the quotient, which moves erf by at most as much (|x erf'(x)| <= erf(x)):
 * the loops' erf of such a quotient is tested against float64 erf(x / c) (test/runtime/erf-quotient-loop.test.ts).
 * Gelu's program keeps the division, the form ONNX Runtime fuses into its Gelu kernel.
 */
export function erfQuotients(program: Program): Map<number, string> {
  const base = program.inputs.length + program.scalars.length;
  const node = (id: number) => (id >= base ? program.nodes[id - base] : undefined);
  const uses = useCounts(program);
  const quotients = new Map<number, string>();
  for (const n of program.nodes) {
    const id = n.inputs[0]!;
    const div = node(id);
    if (n.op !== 'erf' || div?.op !== 'div' || uses.get(id) !== 1) continue;
    const divisor = node(div.inputs[1]!);
    if (divisor?.op !== 'constant' || constantC(divisor) === undefined) continue;
    const reciprocal = 1 / Math.fround((divisor.attrs as { values: readonly number[] }).values[0]!);
    // a normal float32 reciprocal only: 1/0 and the reciprocals of subnormals and of c near the float32 maximum keep the division
    const r32 = Math.abs(Math.fround(reciprocal));
    if (r32 >= 2 ** -126 && r32 < Infinity) quotients.set(id, `(float)${reciprocal.toPrecision(17)}`);
  }
  return quotients;
}

/** The C source of the program's loop (entry point tk_kernel over elements [begin, end)), or undefined if it does not qualify. */
export function generateC(program: Program): string | undefined {
  if (program.nodes.length === 0) return undefined;
  // One op: a loop skips ONNX Runtime's fixed cost per run (and, through onnxruntime-node's binding, its output copy).
  if (program.nodes.length === 1 && !EXACT_OPS.has(program.nodes[0]!.op)) return undefined;
  const last = program.nodes[program.nodes.length - 1]!;
  const key = last.shape.join(',');
  const full = (shape: readonly number[]) => shape.join(',') === key;
  if (program.scalars.some((d) => d !== 'float32')) return undefined;
  if (program.inputs.some((v) => v.dtype !== 'float32' || !(full(v.shape) || numel(v.shape) === 1))) return undefined;
  const base = program.inputs.length + program.scalars.length;
  const names: string[] = [];
  const decls: string[] = [];
  program.inputs.forEach((v, i) => {
    decls.push(`  const float* restrict in${i} = in[${i}];`);
    names.push(full(v.shape) ? `in${i}[i]` : `in${i}[0]`);
  });
  program.scalars.forEach((_, i) => {
    decls.push(`  const float sc${i} = sc[${i}];`);
    names.push(`sc${i}`);
  });
  /** Each node's C line by value id (undeclared: inputs, scalars, constants). */
  const lines: string[] = [];
  const erfs: BlockErf[] = [];
  const quotients = erfQuotients(program);
  /** Nodes with a bool result (comparisons): only a where may read them. */
  const bools = new Set<number>();
  const floatOperand = (v: number) => {
    const value = valueOf(program, v);
    return value.dtype === 'float32' && (full(value.shape) || numel(value.shape) === 1) ? names[v] : undefined;
  };
  for (const [k, node] of program.nodes.entries()) {
    const id = base + k;
    names[id] = `v${id}`;
    if (node.dtype === 'bool' && Object.hasOwn(C_COMPARISONS, node.op) && full(node.shape)) {
      const [a, b] = node.inputs.map(floatOperand);
      if (a === undefined || b === undefined) return undefined;
      lines[id] = `const int v${id} = ${a} ${C_COMPARISONS[node.op]} ${b};`;
      bools.add(id);
      continue;
    }
    if (node.dtype !== 'float32') return undefined;
    if (node.op === 'where' && full(node.shape)) {
      const [c, a, b] = [node.inputs[0]!, floatOperand(node.inputs[1]!), floatOperand(node.inputs[2]!)];
      if (!bools.has(c) || a === undefined || b === undefined) return undefined;
      lines[id] = `const float v${id} = v${c} ? ${a} : ${b};`;
      continue;
    }
    if (node.op === 'constant') {
      const literal = constantC(node);
      if (literal === undefined) return undefined;
      names[id] = literal;
      continue;
    }
    const emit = C_OPS[node.op];
    if (!emit || !full(node.shape)) return undefined;
    const operands = node.inputs.map(floatOperand);
    if (operands.some((o) => o === undefined) || operands.length !== emit.length) return undefined;
    const reciprocal = quotients.get(id);
    if (node.op === 'erf') erfs.push({ id, operand: node.inputs[0]!, arg: operands[0]! });
    const value = node.op === 'erf' ? blockRead(id, 'i', 'i0') : reciprocal ? `${operands[0]} * ${reciprocal}` : emit(operands[0]!, operands[1] ?? '');
    lines[id] = `const float v${id} = ${value};`;
  }
  const stores: string[] = [];
  for (const [j, id] of program.outputs.entries()) {
    if (id < base || bools.has(id) || !full(valueOf(program, id).shape)) return undefined;
    decls.push(`  float* restrict out${j} = out[${j}];`);
    stores.push(`out${j}[i] = ${names[id]};`);
  }
  const closure = (targets: readonly number[], stop: ReadonlySet<number>) => nodeClosure(program, targets, (id) => lines[id] !== undefined, stop);
  const nodes = { closure, line: (id: number) => lines[id]!, isFloat: (id: number) => !bools.has(id) };
  const loop = erfs.length
    ? [
        '  for (int64_t i0 = begin; i0 < end; i0 += TK_ERF_BLOCK) {',
        '    const int64_t i1 = i0 + TK_ERF_BLOCK < end ? i0 + TK_ERF_BLOCK : end;',
        ...erfBlockLoops(erfs, nodes, program.outputs, stores, 'i', 'i0', 'i1', '    '),
        '  }',
      ]
    : ['  for (int64_t i = begin; i < end; i++) {', ...[...closure(program.outputs, new Set()).map(nodes.line), ...stores].map((l) => `    ${l}`), '  }'];
  return [VECTOR_MATH_C, 'void tk_kernel(const float* const* in, const float* sc, float* const* out, int64_t begin, int64_t end) {', ...decls, ...loop, '}', ''].join('\n');
}
