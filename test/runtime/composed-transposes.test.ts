// A permute of a permuted value lowers to one Transpose of the original (none when the two
// cancel): autograd's matmul gradient transposes a transposed weight back (W2.T.T in a linear
// layer's backward), and ONNX Runtime then kept the weight's Transpose as a kernel of its own.
// Values against permutes done element by element here, in fused mode and under tpu.compile.
import { afterEach, describe, expect, it } from 'vitest';
import { lowerToOnnx, tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectRef, matmulRef, permuteRef, refOf, type Ref } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const T = (r: Ref): Tensor => tpu.tensor(r.data, { dtype: 'float32' }).reshape(r.shape);
const X = refOf([2, 3, 4], 41);
const transposes = (graph: string) => graph.match(/= Transpose\(/g)?.length ?? 0;
const lastGraph = () => lowerToOnnx(tpu.stats().lastProgram!.program).text;

describe('a permute of a permute', () => {
  it('fused: two that cancel give the operand, with no Transpose node', () => {
    tpu.mode('fused');
    const y = T(X).mul(2).permute([1, 2, 0]).permute([2, 0, 1]);
    expectRef(y, { shape: X.shape, data: X.data.map((v) => v * 2) }, 0, 0);
    expect(transposes(lastGraph())).toBe(0);
  });

  it('fused: two that do not cancel give the composed permutation, as one Transpose node', () => {
    tpu.mode('fused');
    const y = T(X).mul(2).permute([1, 0, 2]).permute([0, 2, 1]);
    const twice = { shape: X.shape, data: X.data.map((v) => v * 2) };
    expectRef(y, permuteRef(permuteRef(twice, [1, 0, 2]), [0, 2, 1]), 0, 0);
    expect(transposes(lastGraph())).toBe(1);
  });

  it('under tpu.compile, x @ W.T then its product with W.T.T reads W as it is', () => {
    const [x, w] = [refOf([3, 4], 42), refOf([5, 4], 43)];
    const f = tpu.compile((a: Tensor, b: Tensor) => a.matmul(b.T).matmul(b.T.T));
    const got = f(T(x), T(w)) as Tensor;
    expectRef(got, matmulRef(matmulRef(x, permuteRef(w, [1, 0])), w), 1e-5, 1e-5);
    expect(transposes(lastGraph())).toBe(1);
  });
});
