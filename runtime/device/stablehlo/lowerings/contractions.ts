// matmul and the convolutions (no bias: a bias is an add). bfloat16 operands multiply into
// a float32 result that is rounded once (as the TPU's MXU accumulates in float32).
import type { DType } from '../../../dtype.js';
import type { MatmulPrecision } from '../../../ops/matmul.js';
import type { ConvAttrs, ConvTransposeAttrs } from '../../../ops/nn/conv.js';
import { ELEMENT_TYPE, type MlirFunction } from '../mlir-function.js';
import { broadcastTo, convert, i64s, paddingAttr, reshape } from './hlo.js';
import { stablehloLowerings } from './table.js';

/** The element type a product of `dtype` operands is accumulated and returned in. */
const productElement = (dtype: DType) => (dtype === 'bfloat16' ? 'f32' : ELEMENT_TYPE[dtype]);

/** XLA:TPU's precision: HIGHEST is full float32; DEFAULT one bfloat16 pass. */
const precisionConfig = (p: MatmulPrecision) => {
  const name = p === 'highest' ? 'HIGHEST' : 'DEFAULT';
  return `precision_config = [#stablehlo<precision ${name}>, #stablehlo<precision ${name}>]`;
};

interface ConvWindow {
  readonly strides: readonly number[];
  readonly padding: readonly (readonly number[])[];
  readonly lhsDilation: readonly number[];
  readonly rhsDilation: readonly number[];
  readonly groups: number;
}

/** NCHW input, OIHW kernel; the output's spatial size follows from the window. */
function convolution(fn: MlirFunction, x: string, w: string, shape: readonly number[], dtype: DType, a: ConvWindow): string {
  const out = fn.op('stablehlo.convolution', [convert(fn, x, dtype), convert(fn, w, dtype)], { shape, element: productElement(dtype) }, [
    'dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>',
    `window_strides = ${i64s(a.strides)}`,
    `padding = ${paddingAttr(a.padding)}`,
    `lhs_dilation = ${i64s(a.lhsDilation)}`,
    `rhs_dilation = ${i64s(a.rhsDilation)}`,
    `feature_group_count = ${a.groups} : i64`,
    'batch_group_count = 1 : i64',
    // The ONNX backend convolves in full float32 whatever the matmul precision.
    precisionConfig('highest'),
  ]);
  return convert(fn, out, dtype);
}

stablehloLowerings.register({
  // NumPy semantics: a 1-D operand is a row (left) or column (right); batch dims broadcast.
  matmul({ fn }, [a, b], attrs: { precision: MatmulPrecision }, types) {
    const dtype = types.output.dtype;
    const [sa, sb] = types.inputs.map((t) => t.shape);
    const a2 = sa!.length === 1 ? [1, sa![0]!] : sa!;
    const b2 = sb!.length === 1 ? [sb![0]!, 1] : sb!;
    const rank = Math.max(a2.length, b2.length);
    const batch = Array.from({ length: rank - 2 }, (_, i) => {
      const da = a2[a2.length - rank + i] ?? 1;
      const db = b2[b2.length - rank + i] ?? 1;
      return da === 1 ? db : da;
    });
    const m = a2[a2.length - 2]!;
    const k = a2[a2.length - 1]!;
    const n = b2[b2.length - 1]!;
    const lhs = broadcastTo(fn, reshape(fn, convert(fn, a!, dtype), a2), [...batch, m, k]);
    const rhs = broadcastTo(fn, reshape(fn, convert(fn, b!, dtype), b2), [...batch, k, n]);
    const nb = batch.length;
    const batchDims = `[${batch.map((_, i) => i).join(', ')}]`;
    const product = fn.op('stablehlo.dot_general', [lhs, rhs], { shape: [...batch, m, n], element: productElement(dtype) }, [
      `dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = ${batchDims}, rhs_batching_dimensions = ${batchDims}, lhs_contracting_dimensions = [${nb + 1}], rhs_contracting_dimensions = [${nb}]>`,
      precisionConfig(attrs.precision),
    ]);
    return reshape(fn, convert(fn, product, dtype), types.output.shape);
  },
  conv2d: ({ fn }, [x, w], a: ConvAttrs, types) =>
    convolution(fn, x!, w!, types.output.shape, types.output.dtype, {
      strides: a.stride, padding: a.padding.map((p) => [p, p]), lhsDilation: [1, 1], rhsDilation: a.dilation, groups: a.groups,
    }),
  // The adjoint of conv2d: the input dilated by the stride, convolved with the kernel flipped
  // and its in/out channels swapped within each group.
  convTranspose2d({ fn }, [x, w], a: ConvTransposeAttrs, types) {
    const [cin, og, kh, kw] = types.inputs[1]!.shape as [number, number, number, number];
    const g = a.groups;
    const t = fn.typeOf(w!);
    const grouped = reshape(fn, w!, [g, cin / g, og, kh, kw]);
    const swapped = fn.op('stablehlo.transpose', [grouped], { shape: [g, og, cin / g, kh, kw], element: t.element }, [`permutation = ${i64s([0, 2, 1, 3, 4])}`]);
    const kernel = reshape(fn, swapped, [g * og, cin / g, kh, kw]);
    const flipped = fn.op('stablehlo.reverse', [kernel], fn.typeOf(kernel), [`dimensions = ${i64s([2, 3])}`]);
    const k = [kh, kw];
    return convolution(fn, x!, flipped, types.output.shape, types.output.dtype, {
      strides: [1, 1],
      padding: [0, 1].map((d) => {
        const edge = a.dilation[d]! * (k[d]! - 1) - a.padding[d]!;
        return [edge, edge + a.outputPadding[d]!];
      }),
      lhsDilation: a.stride, rhsDilation: a.dilation, groups: g,
    });
  },
});
