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

// ONNX Runtime's optimizer fuses Div(x, √2) -> Erf -> Add 1 -> Mul x -> Mul 0.5 into its Gelu
// kernel (onnxruntime/core/optimizer/gelu_fusion.cc matches a Div, not a Mul by 1/√2): a
// program holding gelu with a matmul runs on ONNX Runtime, where that fusion is its speed.
it('lowers gelu to the subgraph ONNX Runtime fuses into one Gelu kernel', () => {
  tpu.mode('fused');
  tpu.nn.functional.gelu(tpu.ones([2, 3])).dataSync();
  const text = lowerToOnnx(tpu.stats().lastProgram!.program).text;
  tpu.mode('strict');
  const [, sqrt2] = text.match(/(c\d+) = constant float32\[\] \[1\.414213562373095\d*\]/) ?? [];
  const [, half] = text.match(/(c\d+) = constant float32\[\] \[0\.5\]/) ?? [];
  const [, one] = text.match(/(c\d+) = constant float32\[\] \[1\]/) ?? [];
  expect([sqrt2, half, one].every(Boolean)).toBe(true);
  const [, div] = text.match(new RegExp(`(v\\d+) = Div\\(in0, ${sqrt2}\\)`)) ?? [];
  const [, erf] = text.match(new RegExp(`(v\\d+) = Erf\\(${div}\\)`)) ?? [];
  const [, add] = text.match(new RegExp(`(v\\d+) = Add\\(${erf}, ${one}\\)`)) ?? [];
  const [, mul] = text.match(new RegExp(`(v\\d+) = Mul\\(${add}, in0\\)`)) ?? [];
  expect(text).toMatch(new RegExp(`v\\d+ = Mul\\(${mul}, ${half}\\)`));
});
