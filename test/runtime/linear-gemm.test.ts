// x @ W.T + b (a linear layer) lowers to one ONNX Gemm with transB, reading W as stored, also
// when the layer's output is read twice (W6's logits) or written out (fused mode), where ONNX
// Runtime kept the weight's Transpose as a kernel. Values against float64 products computed
// here, in fused mode and under tpu.compile; other shapes keep MatMul and Add.
import { afterEach, describe, expect, it } from 'vitest';
import { lowerToOnnx, tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectRef, matmulRef, permuteRef, refOf, broadcastRef, type Ref } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const T = (r: Ref): Tensor => tpu.tensor(r.data, { dtype: 'float32' }).reshape(r.shape);
const [X, W, B] = [refOf([6, 5], 61), refOf([4, 5], 62), refOf([4], 63)];
/** x @ W.T + b in float64. */
const LAYER = broadcastRef(matmulRef(X, permuteRef(W, [1, 0])), B, (p, b) => p + b);
const graphOf = (program: unknown) => lowerToOnnx(program as never).text;

describe('a linear layer', () => {
  it('fused: x @ W.T + b, its output read twice, is one Gemm with transB and no Transpose', () => {
    tpu.mode('fused');
    const y = T(X).matmul(T(W).T).add(T(B));
    const both = y.mul(2).add(y.relu());
    expectRef(y, LAYER, 1e-5, 1e-5);
    expectRef(both, { shape: LAYER.shape, data: LAYER.data.map((v) => 2 * v + Math.max(v, 0)) }, 1e-5, 1e-5);
    const graph = graphOf(tpu.stats().lastProgram!.program);
    expect(graph).toMatch(/= Gemm\(\w+, \w+, \w+, transB=1\)/);
    expect(graph).not.toMatch(/Transpose|MatMul/);
  });

  it('under tpu.compile, a bias of shape [1, N] added first', () => {
    const f = tpu.compile((x: Tensor, w: Tensor, b: Tensor) => b.add(x.matmul(w.T)));
    const got = f(T(X), T(W), T(B).reshape([1, 4])) as Tensor;
    expectRef(got, LAYER, 1e-5, 1e-5);
    expect(graphOf(tpu.stats().lastProgram!.program)).toMatch(/Gemm/);
  });
});

describe('the lowering leaves to MatMul and Add', () => {
  const v = (shape: number[]) => ({ shape, dtype: 'float32' }) as const;
  // inputs x, W, b: permute(W), matmul(x, W.T) with `precision`, add(product, b)
  const program = (xShape: number[], bShape: number[], precision = 'highest', alsoOutputProduct = false) => {
    const [m, n] = [xShape[0]!, 4];
    return {
      inputs: [v(xShape), v([n, xShape[xShape.length - 1]!]), v(bShape)],
      scalars: [],
      nodes: [
        { op: 'permute', inputs: [1], attrs: { perm: [1, 0] }, shape: [xShape[xShape.length - 1]!, n], dtype: 'float32' },
        { op: 'matmul', inputs: [0, 3], attrs: { precision }, shape: [m, n], dtype: 'float32' },
        { op: 'add', inputs: [4, 2], attrs: {}, shape: [m, n], dtype: 'float32' },
      ],
      outputs: alsoOutputProduct ? [5, 4] : [5],
    };
  };

  it('makes the plain case one Gemm', () => {
    expect(graphOf(program([6, 5], [4]))).toMatch(/= Gemm\(in0, in1, in2, transB=1\)/);
  });

  it('a bias of the output shape, a product read elsewhere, bfloat16 operand rounding', () => {
    expect(graphOf(program([6, 5], [6, 4]))).not.toMatch(/Gemm/);
    expect(graphOf(program([6, 5], [4], 'highest', true))).not.toMatch(/Gemm/);
    expect(graphOf(program([6, 5], [4], 'default'))).not.toMatch(/Gemm/);
  });
});
