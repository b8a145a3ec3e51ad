// Small StableHLO builders the op families share: dtype conversion, broadcasting, splat
// constants, comparisons, select and reduce.
import type { DType } from '../../../dtype.js';
import { ELEMENT_TYPE, type ElementType, type MlirFunction, type TensorType } from '../mlir-function.js';

export type Direction = 'EQ' | 'NE' | 'GT' | 'GE' | 'LT' | 'LE';

const COMPARE_TYPE: Record<ElementType, string> = { f32: 'FLOAT', bf16: 'FLOAT', i32: 'SIGNED', i64: 'SIGNED', i1: 'UNSIGNED' };

export const isFloatElement = (e: ElementType): boolean => e === 'f32' || e === 'bf16';

/** A value of `dtype`: bool is "non-zero" (NaN included), float -> int truncates, -> bf16 rounds to nearest even. */
export function convert(fn: MlirFunction, v: string, dtype: DType): string {
  const from = fn.typeOf(v);
  const element = ELEMENT_TYPE[dtype];
  if (from.element === element) return v;
  if (element === 'i1') return compare(fn, v, splat(fn, 0, from.shape, from.element), 'NE');
  return fn.op('stablehlo.convert', [v], { shape: from.shape, element });
}

export function splat(fn: MlirFunction, value: number, shape: readonly number[], element: ElementType): string {
  return fn.constant({ shape, element }, [value]);
}

/** NumPy broadcasting of v to `shape` (v's dims line up with the last dims of shape). */
export function broadcastTo(fn: MlirFunction, v: string, shape: readonly number[]): string {
  const t = fn.typeOf(v);
  if (t.shape.length === shape.length && t.shape.every((n, i) => n === shape[i])) return v;
  const dims = t.shape.map((_, i) => shape.length - t.shape.length + i);
  return fn.op('stablehlo.broadcast_in_dim', [v], { shape, element: t.element }, [`broadcast_dimensions = ${i64s(dims)}`]);
}

/** IEEE comparison for floats (NaN compares unequal to everything), signed for int32. */
export function compare(fn: MlirFunction, a: string, b: string, direction: Direction): string {
  const t = fn.typeOf(a);
  return fn.op('stablehlo.compare', [a, b], { shape: t.shape, element: 'i1' }, [
    `comparison_direction = #stablehlo<comparison_direction ${direction}>`,
    `compare_type = #stablehlo<comparison_type ${COMPARE_TYPE[t.element]}>`,
  ]);
}

/** An elementwise op whose result has the type of its first operand. */
export function same(fn: MlirFunction, op: string, ...operands: string[]): string {
  return fn.op(`stablehlo.${op}`, operands, fn.typeOf(operands[0]!));
}

export function select(fn: MlirFunction, c: string, a: string, b: string): string {
  return fn.op('stablehlo.select', [c, a, b], fn.typeOf(a));
}

export function isNan(fn: MlirFunction, v: string): string {
  return compare(fn, v, v, 'NE');
}

/** Reduces `inputs` over `dims` from `inits` (0-d), combining with `body` (accumulators, then elements). */
export function reduce(fn: MlirFunction, inputs: readonly string[], inits: readonly string[], dims: readonly number[], body: (acc: string[], x: string[]) => string[]): string[] {
  const scalars: TensorType[] = inputs.map((v) => ({ shape: [], element: fn.typeOf(v).element }));
  const shape = fn.typeOf(inputs[0]!).shape.filter((_, d) => !dims.includes(d));
  const region = fn.region([...scalars, ...scalars], (args) => body(args.slice(0, inputs.length), args.slice(inputs.length)));
  const results = scalars.map((s) => ({ shape, element: s.element }));
  return fn.opResults('stablehlo.reduce', [...inputs, ...inits], results, [`dimensions = ${i64s(dims)}`], [region]);
}

export function reshape(fn: MlirFunction, v: string, shape: readonly number[]): string {
  const t = fn.typeOf(v);
  if (t.shape.length === shape.length && t.shape.every((n, i) => n === shape[i])) return v;
  return fn.op('stablehlo.reshape', [v], { shape, element: t.element });
}

export function iota(fn: MlirFunction, shape: readonly number[], dim: number): string {
  return fn.op('stablehlo.iota', [], { shape, element: 'i32' }, [`iota_dimension = ${dim} : i64`]);
}

/** An `array<i64: ...>` attribute value. */
export function i64s(values: readonly number[]): string {
  return values.length ? `array<i64: ${values.join(', ')}>` : 'array<i64>';
}

/** A `dense<[[lo, hi], ...]> : tensor<Nx2xi64>` padding attribute value. */
export function paddingAttr(pads: readonly (readonly number[])[]): string {
  return `dense<[${pads.map(([lo, hi]) => `[${lo}, ${hi}]`).join(', ')}]> : tensor<${pads.length}x2xi64>`;
}
