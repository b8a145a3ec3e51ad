// int64 sums and products that wrap as PyTorch's: ONNX Runtime's int64 ReduceSum and
// ReduceProd saturate at ±2^63, while its Add and Mul wrap (two's complement). The reduced
// values are moved to one last axis and combined in halves, log2(n) nodes.
import type { OnnxGraph } from './onnx-graph.js';

const product = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);

const REDUCE = { Add: { onnx: 'ReduceSum', identity: 0 }, Mul: { onnx: 'ReduceProd', identity: 1 } } as const;

/** The int64 sum (Add) or product (Mul) over `dims` of a value of `shape`, shaped as `outShape`. */
export function wrappingReduce(g: OnnxGraph, op: 'Add' | 'Mul', x: string, shape: readonly number[], dims: readonly number[], outShape: readonly number[]): string {
  const kept = shape.map((_, i) => i).filter((i) => !dims.includes(i));
  const rows = product(kept.map((d) => shape[d]!));
  let n = product(dims.map((d) => shape[d]!));
  // nothing to combine (no overflow possible): the plain reduction, its identity for n = 0
  if (n <= 1) return g.reshape(g.node(REDUCE[op].onnx, [x, g.int64s(dims)], { keepdims: 0 }), outShape);
  let v = g.reshape(g.node('Transpose', [x], { perm: [...kept, ...dims] }), [rows, n]);
  const identity = g.constant('int64', [], [REDUCE[op].identity]);
  while (n > 1) {
    if (n % 2) v = g.node('Pad', [v, g.int64s([0, 0, 0, 1]), identity]); // an odd count: one more neutral value
    const half = Math.ceil(n / 2);
    const slice = (from: number) => g.node('Slice', [v, g.int64s([from]), g.int64s([from + half]), g.int64s([1])]);
    v = g.node(op, [slice(0), slice(half)]);
    n = half;
  }
  return g.reshape(v, outShape);
}
