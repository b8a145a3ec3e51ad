// Lowers a program to an ONNX model. Values are held in their compute types (bfloat16 as
// float32); every bfloat16 node result is rounded to nearest even right where it is made,
// so a fused program and op-by-op execution round identically.
import { COMPUTE_TYPE, type DType } from '../../dtype.js';
import { useCounts, valueOf, verifyProgram, type Program } from '../../program/program.js';
import { OnnxGraph } from './onnx-graph.js';
import { matchSoftmax } from './match-softmax.js';
import { matchAxpy } from './match-axpy.js';
import { matchLinear } from './match-linear.js';
import { onnxLowerings, type OnnxLowerContext } from './lowerings/index.js';
import { foldIntoSgemm } from './lowerings/contractions.js';
import type { DeviceCheck } from '../device-check.js';

export interface LoweredModel {
  readonly model: Uint8Array;
  /** The ONNX graph as readable text. */
  readonly text: string;
  readonly inputNames: readonly string[];
  readonly scalarNames: readonly string[];
  readonly outputNames: readonly string[];
  /** What each device check of the program says when it fails (lowerings/device-checks.ts). */
  readonly checks: readonly DeviceCheck[];
}

const ONNX_CAST_TO: Record<string, number> = { float32: 1, int32: 6, int64: 7, bool: 9 };

/** The custom nodes the session runs (the ortc addon's; none through onnxruntime-node). */
export interface LowerOptions {
  /** tpu_kernel.Sgemm: oneDNN's GEMM (when it loaded). */
  readonly sgemm?: boolean;
  /** tpu_kernel.Axpy: x ± g·s in one pass. */
  readonly axpy?: boolean;
  /** tpu_kernel.Softmax: a last-axis softmax that makes no float32 denormal on the way. */
  readonly softmax?: boolean;
  /** tpu_kernel.Select: a float32 where in one pass, exact to the sign of zero. */
  readonly select?: boolean;
}

function makeContext(graph: OnnxGraph, options: LowerOptions): OnnxLowerContext {
  const roundBf16 = (v: string) => graph.node('Cast', [graph.node('Cast', [v], { to: 16 })], { to: 1 });
  return {
    graph,
    sgemm: options.sgemm ?? false,
    select: options.select ?? false,
    checks: [],
    cast(value: string, from: DType, to: DType): string {
      if (from === to) return value;
      let v = value;
      if (COMPUTE_TYPE[from] !== COMPUTE_TYPE[to]) v = graph.node('Cast', [v], { to: ONNX_CAST_TO[COMPUTE_TYPE[to]]! });
      return to === 'bfloat16' ? roundBf16(v) : v;
    },
  };
}

export function lowerToOnnx(program: Program, options: LowerOptions = {}): LoweredModel {
  verifyProgram(program);
  const graph = new OnnxGraph();
  const ctx = makeContext(graph, options);
  const names: string[] = [];
  const inputNames = program.inputs.map((v, i) => graph.input(`in${i}`, COMPUTE_TYPE[v.dtype], v.shape));
  const scalarNames = program.scalars.map((d, i) => graph.input(`s${i}`, COMPUTE_TYPE[d], []));
  names.push(...inputNames, ...scalarNames);
  // How many nodes and outputs read each value, for every matcher and fold below.
  const uses = useCounts(program);
  const softmax = matchSoftmax(program, uses);
  const axpy = options.axpy ? matchAxpy(program, uses) : undefined;
  const base = program.inputs.length + program.scalars.length;
  // A composed op reads its input through one identity node (ops/identity.ts).
  const ownInput = (x: number) => {
    const n = x >= base ? program.nodes[x - base] : undefined;
    return n?.op === 'identity' && uses.get(n.inputs[0]!) === 1 ? n.inputs[0]! : x;
  };
  // A relu or a softmax of a product nothing else reads runs in the product's node, on each
  // block of it while in cache (tpu_kernel.Sgemm's epilogue): W4's forward is two nodes. The
  // folded op's value is the node's output (an identity between them has its name).
  const folded = (x: number, epilogue: 'relu' | 'softmax', readers: number) => {
    const own = ownInput(x);
    // an identity kept (its operand read elsewhere too) has the product's name: no fold
    if (program.nodes[own - base]?.op === 'identity') return undefined;
    const product = names[own]!;
    return uses.get(x) === readers && foldIntoSgemm(graph, product, epilogue) ? product : undefined;
  };
  const taken = new Set([...softmax.at.keys(), ...softmax.skip, ...(axpy?.at.keys() ?? []), ...(axpy?.skip ?? [])]);
  const linear = matchLinear(program, uses, taken);
  for (const [i, n] of program.nodes.entries()) {
    const fused = softmax.at.get(i);
    const update = axpy?.at.get(i);
    const layer = linear.at.get(i);
    if (softmax.skip.has(i) || axpy?.skip.has(i) || linear.skip.has(i)) {
      names.push(''); // an intermediate of a matched pattern: never referenced
      continue;
    }
    if (fused) {
      const x = names[fused.input]!;
      const last = options.softmax && fused.axis === n.shape.length - 1;
      // the softmax's input is read by its amax and its sub only
      const product = last ? folded(fused.input, 'softmax', 2) : undefined;
      names.push(product ?? (last ? graph.customNode('tpu_kernel', 'Softmax', [x]) : graph.node('Softmax', [x], { axis: fused.axis })));
      continue;
    }
    if (update) {
      const ins = [update.x, update.g, update.s].map((id) => names[id]!);
      names.push(graph.customNode('tpu_kernel', 'Axpy', ins, { subtract: update.subtract ? 1 : 0 }));
      continue;
    }
    if (layer) {
      names.push(graph.node('Gemm', [names[layer.x]!, names[layer.w]!, names[layer.b]!], { transB: 1 }));
      continue;
    }
    const product = n.op === 'relu' && n.dtype === 'float32' ? folded(n.inputs[0]!, 'relu', 1) : undefined;
    if (product) {
      names.push(product);
      continue;
    }
    const lower = onnxLowerings.get(n.op);
    const ins = n.inputs.map((id) => names[id]!);
    const types = { inputs: n.inputs.map((id) => valueOf(program, id)), output: n };
    let out = lower(ctx, ins, n.attrs, types);
    if (n.dtype === 'bfloat16') out = ctx.cast(out, 'float32', 'bfloat16');
    names.push(out);
  }
  // A node's value is output directly (an Identity would copy it); graph inputs and values
  // output twice need one, as ONNX output names must be distinct node outputs.
  const used = new Set<string>(names.slice(0, inputNames.length + scalarNames.length));
  const outputNames = program.outputs.map((id) => {
    const v = valueOf(program, id);
    const out = used.has(names[id]!) ? graph.node('Identity', [names[id]!]) : names[id]!;
    used.add(out);
    graph.output(out, COMPUTE_TYPE[v.dtype], v.shape);
    return out;
  });
  return { model: graph.encode(), text: graph.toText(), inputNames, scalarNames, outputNames, checks: ctx.checks };
}
