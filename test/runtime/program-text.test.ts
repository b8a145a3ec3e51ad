// %program's material: the last compiled program as IR text and as the ONNX graph it runs.
import { expect, it } from 'vitest';
import { tpu, programText, lowerToOnnx } from 'tpu-kernel/runtime';

it('prints the last fused program and its ONNX graph', () => {
  tpu.mode('fused');
  const x = tpu.ones([2, 3]);
  expect(Array.from(x.mul(2).add(1).sum(1).dataSync())).toEqual([9, 9]);
  const last = tpu.stats().lastProgram!;
  expect(last.label).toBe('fused program of 3 ops (mul, add, sum)');
  expect(programText(last.program)).toBe(
    [
      '%0 = input 0 : float32[2,3]', '%1 = scalar 0 : float32', '%2 = scalar 1 : float32',
      '%3 = mul(%0, %1) : float32[2,3]', '%4 = add(%3, %2) : float32[2,3]',
      '%5 = sum(%4) {"dims":[1],"keepdim":false} : float32[2]', 'return %5',
    ].join('\n'),
  );
  expect(lowerToOnnx(last.program).text).toBe(
    [
      'inputs: in0: float32[2,3], s0: float32[], s1: float32[]', 'c2 = constant int64[1] [1]', 'c4 = constant float32[] [0]',
      'v0 = Mul(in0, s0)', 'v1 = Add(v0, s1)', 'v3 = ReduceSum(v1, c2, keepdims=0)', 'v5 = Sum(v3, c4)', // a sum starts from +0
      'outputs: v5: float32[2]',
    ].join('\n'),
  );
  tpu.mode('strict');
});
