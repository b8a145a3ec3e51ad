// Debug mode reports an op that makes NaN or Inf from finite inputs; one it passes on from an
// input (a -Infinity fill of an attention mask, NaN data) is the input's, and every mode gives
// PyTorch's value for it. Expected values are worked by hand in float64.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, NonFiniteError } from 'tpu-kernel/runtime';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => tpu.mode('strict'));

/** softmax([3, 4]) and its sum weighted by [1, 2], in float64. */
const e = Math.E;
const p = [1 / (1 + e), e / (1 + e)];
const weighted = p[0]! * 1 + p[1]! * 2;

describe.each(MODES)('%s mode: NaN and Inf an op passes on', (mode) => {
  it('a causal mask filled with -Infinity, then softmax, gives the masked probabilities and their gradient', () => {
    tpu.mode(mode);
    const scores = tpu.tensor([[1, 2], [3, 4]], { requiresGrad: true });
    const mask = tpu.ones([2, 2]).triu(1).to('bool');
    const probs = scores.maskedFill(mask, -Infinity).softmax(-1);
    const got = probs.array() as number[][];
    expect(got[0]).toEqual([1, 0]);
    expect(got[1]![0]).toBeCloseTo(p[0]!, 6);
    expect(got[1]![1]).toBeCloseTo(p[1]!, 6);
    probs.mul(tpu.tensor([1, 2])).sum().backward();
    // d/ds_j of sum_k p_k w_k = p_j (w_j - sum_k p_k w_k); the masked score gets none
    const grad = scores.grad!.array() as number[][];
    expect(grad[0]).toEqual([0, 0]);
    expect(grad[1]![0]).toBeCloseTo(p[0]! * (1 - weighted), 6);
    expect(grad[1]![1]).toBeCloseTo(p[1]! * (2 - weighted), 6);
  });

  it('NaN data and -Infinity values flow through ops as in PyTorch', () => {
    tpu.mode(mode);
    expect(tpu.tensor([1, NaN, 3]).max().item()).toBeNaN();
    expect(tpu.tensor([NaN, -1]).relu().array()).toEqual([NaN, 0]);
    expect(tpu.full([2], -Infinity).add(tpu.tensor([0, 1])).array()).toEqual([-Infinity, -Infinity]);
    // a composed op reading NaN: every element of the normalized row is NaN (torch.layer_norm)
    expect(tpu.nn.functional.layerNorm(tpu.tensor([[1, NaN, 3]]), [3]).array()).toEqual([[NaN, NaN, NaN]]);
  });
});

describe('debug mode: NaN and Inf an op makes', () => {
  it('is still an error at the op that made it from finite inputs', () => {
    tpu.mode('debug');
    expect(() => tpu.tensor([-1, 4]).sqrt()).toThrow(NonFiniteError);
    expect(() => tpu.tensor([-1, 4]).sqrt()).toThrow(/^sqrt produced NaN or Inf \(output \[2\] float32\) at .*debug-nonfinite-inputs\.test\.ts:\d+/);
    expect(() => tpu.tensor([1, 2]).div(tpu.tensor([0, 1]))).toThrow(/^div produced NaN or Inf/);
    // a composed op whose finite inputs overflow: (3e38)² is past float32's maximum
    expect(() => tpu.tensor([3e38, -3e38]).var()).toThrow(/^var produced NaN or Inf/);
  });
});
