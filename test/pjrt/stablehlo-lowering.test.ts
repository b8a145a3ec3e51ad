// The StableHLO text itself: bfloat16 stays bf16, scalars are 0-d parameters, matmul
// precision is a precision_config, and a rule's result is held to the program's types.
import { describe, expect, it } from 'vitest';
import type { Program } from '../../runtime/program/program.js';
import { lowerToStableHlo } from '../../runtime/device/stablehlo/index.js';

describe('lowerToStableHlo', () => {
  it('writes @main over the inputs then the scalars; bf16 native, its sum accumulated in f32', () => {
    const program: Program = {
      inputs: [{ shape: [2, 3], dtype: 'bfloat16' }], scalars: ['bfloat16'],
      nodes: [
        { op: 'mul', inputs: [0, 1], attrs: {}, shape: [2, 3], dtype: 'bfloat16' },
        { op: 'sum', inputs: [2], attrs: { dims: [1], keepdim: false }, shape: [2], dtype: 'bfloat16' },
      ],
      outputs: [3, 2],
    };
    const lowered = lowerToStableHlo(program);
    expect(lowered.text).toBe(`module @program {
  func.func public @main(%arg0: tensor<2x3xbf16>, %arg1: tensor<bf16>) -> (tensor<2xbf16>, tensor<2x3xbf16>) {
    %0 = "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64>} : (tensor<bf16>) -> tensor<2x3xbf16>
    %1 = "stablehlo.multiply"(%arg0, %0) : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
    %2 = "stablehlo.convert"(%1) : (tensor<2x3xbf16>) -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%2, %3) ({
      ^bb0(%4: tensor<f32>, %5: tensor<f32>):
        %6 = "stablehlo.add"(%4, %5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%6) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = "stablehlo.convert"(%7) : (tensor<2xf32>) -> tensor<2xbf16>
    "func.return"(%8, %1) : (tensor<2xbf16>, tensor<2x3xbf16>) -> ()
  }
}`);
    expect(lowered.parameters).toEqual([{ shape: [2, 3], element: 'bf16' }, { shape: [], element: 'bf16' }]);
    expect(lowered.results).toEqual([{ shape: [2], element: 'bf16' }, { shape: [2, 3], element: 'bf16' }]);
  });

  it('computes bfloat16 elementwise chains in bf16 (no float32 anywhere)', () => {
    const t = { shape: [4], dtype: 'bfloat16' } as const;
    const { text } = lowerToStableHlo({
      inputs: [t, t], scalars: [],
      nodes: [{ op: 'exp', inputs: [0], attrs: {}, ...t }, { op: 'add', inputs: [2, 1], attrs: {}, ...t }, { op: 'tanh', inputs: [3], attrs: {}, ...t }],
      outputs: [4],
    });
    expect(text).toContain('"stablehlo.exponential"(%arg0) : (tensor<4xbf16>) -> tensor<4xbf16>');
    expect(text).toContain('"stablehlo.tanh"');
    expect(text).not.toContain('f32');
  });

  it("writes matmul precision as precision_config: 'highest' HIGHEST, 'default' DEFAULT; bf16 products in f32", () => {
    const matmul = (precision: string, dtype: 'float32' | 'bfloat16') => lowerToStableHlo({
      inputs: [{ shape: [2, 3], dtype }, { shape: [3, 4], dtype }], scalars: [],
      nodes: [{ op: 'matmul', inputs: [0, 1], attrs: { precision }, shape: [2, 4], dtype }], outputs: [2],
    }).text;
    expect(matmul('highest', 'float32')).toContain('precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]');
    expect(matmul('default', 'float32')).toContain('precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]');
    expect(matmul('default', 'bfloat16')).toContain('"stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>');
  });

  it('writes constants as exact bit patterns (NaN, infinities, bf16 rounding) and bools as words', () => {
    const constant = (dtype: string, values: number[]) => lowerToStableHlo({
      inputs: [], scalars: [], nodes: [{ op: 'constant', inputs: [], attrs: { shape: [values.length], dtype, values }, shape: [values.length], dtype: dtype as 'float32' }], outputs: [0],
    }).text;
    expect(constant('float32', [1, NaN, -Infinity])).toContain('dense<[0x3F800000, 0x7FC00000, 0xFF800000]> : tensor<3xf32>');
    expect(constant('bfloat16', [0.1, 1])).toContain('dense<[0x3DCD, 0x3F80]> : tensor<2xbf16>'); // 0.1 rounds to nearest even
    expect(constant('bool', [1, 0])).toContain('dense<[true, false]> : tensor<2xi1>');
    expect(constant('int32', [7, 7])).toContain('dense<7> : tensor<2xi32>');
  });

  it("names a primitive without a lowering, and a rule whose result contradicts the program's types", () => {
    const x = { shape: [2], dtype: 'float32' } as const;
    expect(() => lowerToStableHlo({ inputs: [x], scalars: [], nodes: [{ op: 'nope', inputs: [0], attrs: {}, ...x }], outputs: [1] }))
      .toThrow("the stablehlo backend has no lowering for the primitive 'nope'");
    expect(() => lowerToStableHlo({ inputs: [x], scalars: [], nodes: [{ op: 'identity', inputs: [0], attrs: {}, shape: [2], dtype: 'int32' }], outputs: [1] }))
      .toThrow('stablehlo lowering of identity: made tensor<2xf32>, the program says tensor<2xi32>');
  });
});
