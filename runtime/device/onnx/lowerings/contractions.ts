// matmul and the convolutions (no bias: a bias is an add).
import type { Abstract } from '../../../ops/op.js';
import type { MatmulPrecision } from '../../../ops/matmul.js';
import type { ConvAttrs, ConvTransposeAttrs } from '../../../ops/nn/conv.js';
import type { OnnxGraph } from '../onnx-graph.js';
import { numel } from '../../../shape.js';
import { onnxLowerings } from './table.js';

function convAttrs(a: ConvAttrs, w: Abstract) {
  return {
    strides: [...a.stride], dilations: [...a.dilation], group: a.groups,
    pads: [a.padding[0], a.padding[1], a.padding[0], a.padding[1]], kernel_shape: [w.shape[2]!, w.shape[3]!],
  };
}

/**
 * Where oneDNN's GEMM beats MLAS here (node test/bench/gemm.bench.mjs): from about 2^26
 * multiply-adds, with K >= 512 and N >= 256 (1024³ 0.82x of MLAS's time, 256x2048x256 0.90x);
 * with a narrow B or a short K MLAS is faster (4096x512 @ 512x64 1.13x, 8192x128 @ 128x128 1.08x).
 */
const SGEMM_MIN_MACS = 2 ** 26;
const SGEMM_MIN_K = 512;
const SGEMM_MIN_N = 256;

/** `value` as the input of a matrix transpose that makes it, if one does. */
function transposed(g: OnnxGraph, value: string): string | undefined {
  const n = g.producer(value);
  const perm = n?.op === 'Transpose' && !n.domain ? n.attrs['perm'] : undefined;
  return Array.isArray(perm) && perm.length === 2 && perm[0] === 1 && perm[1] === 0 ? n!.inputs[0] : undefined;
}

/**
 * Whether tpu_kernel.Sgemm takes a product (native/sgemm-op.h): any A of rank >= 2 times a
 * matrix, or two batches of matrices with equal batch dims (broadcast batches stay on MatMul),
 * large enough to gain. A transposed B (x @ W.T) stays on MatMul, which reads it in place:
 * oneDNN's GEMM is 4-15% slower on it here.
 */
function sgemmTakes(g: OnnxGraph, b: string, sa: readonly number[], sb: readonly number[]): boolean {
  if (sa.length < 2 || sb.length < 2 || transposed(g, b) !== undefined) return false;
  if (sb.length > 2 && (sa.length !== sb.length || sa.slice(0, -2).some((d, i) => d !== sb[i]))) return false;
  const [k, n] = sb.slice(-2) as [number, number];
  return k >= SGEMM_MIN_K && n >= SGEMM_MIN_N && numel(sa) * n >= SGEMM_MIN_MACS;
}

/**
 * Sgemm reads a transposed matrix A in place (its transA), as ORT's own fusion does for
 * MatMul: the Transpose is left unused and pruned, unless something else reads it.
 */
function sgemm(g: OnnxGraph, a: string, b: string, rankA: number): string {
  const at = rankA === 2 ? transposed(g, a) : undefined;
  return g.customNode('tpu_kernel', 'Sgemm', [at ?? a, b], { transA: at ? 1 : 0 });
}

/** What tpu_kernel.Sgemm applies to its product (its epilogue attribute, native/sgemm-op.h). */
export type SgemmEpilogue = 'relu' | 'softmax';
const EPILOGUE_CODE: Record<SgemmEpilogue, number> = { relu: 1, softmax: 2 };

/**
 * Folds a relu or a last-axis softmax into the tpu_kernel.Sgemm node that makes `value`, whose
 * only consumer it must be: false when `value` is not such a node's own output.
 */
export function foldIntoSgemm(g: OnnxGraph, value: string, epilogue: SgemmEpilogue): boolean {
  const n = g.producer(value);
  if (n?.domain !== 'tpu_kernel' || n.op !== 'Sgemm' || 'epilogue' in n.attrs) return false;
  g.setAttribute(value, 'epilogue', EPILOGUE_CODE[epilogue]);
  return true;
}

onnxLowerings.register({
  // Precision 'default' reproduces a TPU's single bf16 pass: operands rounded to bfloat16.
  matmul(ctx, [a, b], attrs: { precision: MatmulPrecision }, types) {
    const out = types.output.dtype;
    const operand = attrs.precision === 'default' && out === 'float32' ? 'bfloat16' : out;
    const ca = ctx.cast(ctx.cast(a!, types.inputs[0]!.dtype, out), out, operand);
    const cb = ctx.cast(ctx.cast(b!, types.inputs[1]!.dtype, out), out, operand);
    // 1-D operands as explicit matrices: ONNX Runtime's transpose+MatMul fusion got a
    // transposed matrix times a 1-D vector wrong (m.T.matmul(v) in a fused program)
    const g = ctx.graph;
    const [sa, sb] = [types.inputs[0]!.shape, types.inputs[1]!.shape];
    const [ra, rb] = [sa.length, sb.length];
    const product = (x: string, y: string, xs: readonly number[], ys: readonly number[]) =>
      ctx.sgemm && operand === 'float32' && sgemmTakes(g, y, xs, ys) ? sgemm(g, x, y, xs.length) : g.node('MatMul', [x, y]);
    if (ra !== 1 && rb !== 1) return product(ca, cb, sa, sb);
    const a2 = ra === 1 ? g.node('Unsqueeze', [ca, g.int64s([0])]) : ca;
    const b2 = rb === 1 ? g.node('Unsqueeze', [cb, g.int64s([1])]) : cb;
    const [sa2, sb2] = [ra === 1 ? [1, ...sa] : sa, rb === 1 ? [...sb, 1] : sb];
    return g.reshape(product(a2, b2, sa2, sb2), types.output.shape);
  },
  conv2d: (ctx, [x, w], a: ConvAttrs, types) =>
    ctx.graph.node('Conv', [ctx.cast(x!, types.inputs[0]!.dtype, types.output.dtype), ctx.cast(w!, types.inputs[1]!.dtype, types.output.dtype)], convAttrs(a, types.inputs[1]!)),
  convTranspose2d(ctx, [x, w], a: ConvTransposeAttrs, types) {
    const g = ctx.graph;
    const operands = [ctx.cast(x!, types.inputs[0]!.dtype, types.output.dtype), ctx.cast(w!, types.inputs[1]!.dtype, types.output.dtype)];
    const attrs = convAttrs(a, types.inputs[1]!);
    if (a.outputPadding.every((p, d) => p < a.stride[d]!)) return g.node('ConvTranspose', operands, { ...attrs, output_padding: [...a.outputPadding] });
    // ONNX Runtime takes an output padding below the stride only (PyTorch: below the stride or the
    // dilation): no padding cut at the end, then the end padded (zeros) or cut to the output's size
    const full = g.node('ConvTranspose', operands, { ...attrs, pads: [a.padding[0], a.padding[1], 0, 0] });
    return g.node('Pad', [full, g.int64s([0, 0, 0, 0, 0, 0, ...a.outputPadding.map((p, d) => p - a.padding[d]!)])]);
  },
});
