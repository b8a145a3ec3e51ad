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

// %program shows what the device thread runs, not the host's own lowering: the session's
// custom nodes (ortc's tpu_kernel.Axpy for x - g·s), or the generated C loop that replaced
// the graph once compiled.
it('describes the program as the device runs it: custom nodes, then the generated loop', async () => {
  tpu.mode('fused');
  try {
    const a = tpu.tensor([[1, 2], [3, 4]]);
    const g = tpu.tensor([[10, 20], [30, 40]]);
    expect(Array.from(a.sub(g.mul(0.5)).dataSync())).toEqual([-4, -8, -12, -16]);
    const listing = tpu.profiler.lastProgram()!;
    const host = lowerToOnnx(listing.entry.program).text;
    expect(host).toMatch(/= Sub\(in0, v\d+\)/); // the host lowers it without custom nodes
    expect(listing.backendHeading).toBe('ONNX graph run by the backend (onnxruntime-cpu)');
    const ortc = (await tpu.deviceStats()).binding!.startsWith('ortc');
    // onnxruntime-node (no ortc addon) runs no custom node: the graph is then the host's
    expect(listing.backendGraph).toBe(ortc ? 'inputs: in0: float32[2,2], in1: float32[2,2], s0: float32[]\nv0 = tpu_kernel.Axpy(in0, in1, s0, subtract=1)\noutputs: v0: float32[2,2]' : host);

    // 64K floats: its loop compiles in the background at once (TPU_KERNEL_LOOPGEN)
    const x = tpu.tensor(Float32Array.from({ length: 1 << 16 }, (_, i) => (i % 7) - 3));
    let listed = '';
    for (let i = 0; i < 200 && !listed.startsWith('a generated C loop'); i++) {
      expect(x.mul(2).abs().dataSync()[1]).toBe(4);
      listed = tpu.profiler.lastProgram()!.backendHeading;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(listed).toMatch(/^a generated C loop run by the backend on \d+ threads \(device\/loopgen\)$/);
    expect(tpu.profiler.lastProgram()!.backendGraph).toMatch(/const float v\d+ = in0\[i\] \* sc0;\n\s+const float v\d+ = __builtin_fabsf\(v\d+\);/);
  } finally {
    tpu.mode('strict');
  }
});
