// Computed results take PyTorch's strides (result-strides.ts) where PyTorch's op decides them
// from its input's: elementwise primitives (TensorIterator), casts and clones (preserve_format).
// Every other primitive's result is row-major, as PyTorch's reductions, matmul, concat, ...
// Only the strides change: the value is the same, in every mode and inside tpu.compile.
import { Tensor } from '../tensor.js';
import type { Operand } from '../ops/op.js';
import { addApplyHook } from '../modes/dispatch.js';
import { layoutOf } from './view-tracking.js';
import { channelsLastStrides, isNonOverlappingAndDense, iteratorStrides, preservedStrides, suggestsChannelsLast, type Strided } from './result-strides.js';
import { contiguousStrides, viewStrides } from './layout.js';

const ELEMENTWISE = new Set([
  'add', 'sub', 'mul', 'div', 'fmod', 'divTruncInt', 'pow', 'maximum', 'minimum', 'where',
  'neg', 'exp', 'log', 'tanh', 'sqrt', 'relu', 'abs', 'sign', 'rsqrt', 'square', 'reciprocal', 'sin', 'cos',
  'sigmoid', 'erf', 'log1p', 'expm1', 'floor', 'ceil', 'round', 'trunc', 'lgamma', 'digamma', 'trigamma', 'erfinv',
  'gt', 'lt', 'eq', 'ge', 'le', 'logicalAnd', 'logicalOr', 'logicalXor', 'logicalNot', 'isnan', 'isinf', 'isfinite',
]);
/** Copies of their one input with memory_format=preserve_format: .to(dtype), clone(). */
const PRESERVING = new Set(['cast', 'identity']);

/** Exactly row-major strides (also in size-1 dims): the layout a tensor has unless told otherwise. */
function isRowMajor(shape: readonly number[], strides: readonly number[] | undefined): boolean {
  if (strides === undefined) return true;
  for (let d = shape.length - 1, s = 1; d >= 0; d--) {
    if (strides[d] !== s) return false;
    s *= Math.max(shape[d]!, 1);
  }
  return true;
}

function plain(v: Operand): boolean {
  return !(v instanceof Tensor) || isRowMajor(v.shape, v._viewOf ? v._viewOf.layout.strides : v._strides);
}

/** An operand as TensorIterator sees it: a JS scalar is a 0-d tensor. */
function strided(v: Operand): Strided {
  return v instanceof Tensor ? { shape: v.shape, strides: layoutOf(v).strides } : { shape: [], strides: [] };
}

/** Gives a fresh result (not a view) its strides; row-major ones are not stored. */
export function setStrides(t: Tensor, strides: readonly number[]): Tensor {
  if (!isRowMajor(t.shape, strides)) t._strides = strides;
  else if (t._strides !== undefined) t._strides = undefined;
  return t;
}

/**
 * An op's result laid out as a preserve_format copy of its input `like` (flip, sort, zerosLike):
 * PyTorch's op allocates it with empty_like. An input returned as it came is copied first.
 */
export function preserveLayout(like: Tensor, t: Tensor): Tensor {
  if (t === like) return like.clone();
  return plain(like) ? rowMajor(t) : setStrides(t, preservedStrides(like.shape, layoutOf(like).strides));
}

/**
 * An op's result made row-major, as PyTorch allocates it (softmax, layerNorm, contiguous(), ...);
 * `input` returned as it came (an op with nothing to do) is copied first.
 */
export function rowMajor(t: Tensor, input?: Tensor): Tensor {
  if (t === input) return rowMajor(input.clone());
  if (t._strides !== undefined) t._strides = undefined;
  return t;
}

const suggestsNHWC = (x: Tensor) => !plain(x) && suggestsChannelsLast(x.shape, layoutOf(x).strides);

/** A fresh 4-d result channels-last or row-major; an input returned as it came is copied first. */
function channelsLastOr(inputs: readonly Tensor[], t: Tensor, channelsLast: boolean): Tensor {
  if (inputs.includes(t)) t = t.clone();
  return channelsLast && t.ndim === 4 ? setStrides(t, channelsLastStrides(t.shape)) : rowMajor(t);
}

/**
 * The result of a 4-d image op (conv2d, pooling, interpolate): channels-last when an input's
 * strides suggest it, as PyTorch's kernels choose (suggest_memory_format), else row-major.
 */
export function imageLayout(inputs: readonly Tensor[], t: Tensor): Tensor {
  return channelsLastOr(inputs, t, inputs.some(suggestsNHWC));
}

/** concat's result (a new tensor, also of one input): channels-last when every input suggests it, as PyTorch's cat. */
export function concatLayout(inputs: readonly Tensor[], t: Tensor): Tensor {
  return channelsLastOr(inputs, t, inputs.every(suggestsNHWC));
}

/**
 * The result of advanced indexing x[..., index, ...] (one index tensor at `dim`): ATen runs it
 * as a TensorIterator over x restrided (stride 0 along the index's dims) and the index viewed
 * with size-1 dims around it, so x's memory order decides, then the index's. `xs`: x's strides
 * when x is a view not recorded as one (x.at('1:', idx) slices first).
 */
export function indexLayout(x: Tensor, index: Tensor, dim: number, t: Tensor, xs = layoutOf(x).strides): Tensor {
  if (isRowMajor(x.shape, xs) && plain(index)) return t;
  const around = (n: number) => new Array<number>(n).fill(1);
  const indexShape = [...around(dim), ...index.shape, ...around(x.ndim - dim - 1)];
  const self = { shape: t.shape, strides: [...xs.slice(0, dim), ...index.shape.map(() => 0), ...xs.slice(dim + 1)] };
  const indexer = { shape: indexShape, strides: viewStrides(index.shape, layoutOf(index).strides, indexShape)! };
  return setStrides(t, iteratorStrides(t.shape, [self, indexer]));
}

/**
 * AccumulateGrad's layout contract: a leaf's new .grad (a fresh tensor) has the leaf's strides
 * when they are dense, else row-major ones, whatever the backward pass computed it in.
 */
export function gradLayout(leaf: Tensor, grad: Tensor): Tensor {
  if (grad._viewOf) return grad;
  const { strides } = layoutOf(leaf);
  return setStrides(grad, isNonOverlappingAndDense(leaf.shape, strides) ? strides : contiguousStrides(leaf.shape));
}

function allPlain(operands: readonly Operand[]): boolean {
  for (let i = 0; i < operands.length; i++) if (!plain(operands[i]!)) return false;
  return true;
}

/**
 * The strides of a result whose tensor operands all have the result's shape, no dim of size 0
 * or 1, and the strides of one of them that is a computed result (so dense): each of ATen's
 * rules gives that same layout (a chain of ops on one permuted result), with nothing sorted.
 */
function carried(operands: readonly Operand[], shape: readonly number[]): readonly number[] | undefined {
  let dense: readonly number[] | undefined;
  for (let i = 0; i < operands.length && !dense; i++) {
    const v = operands[i];
    if (v instanceof Tensor && !v._viewOf) dense = v._strides;
  }
  if (!dense) return undefined;
  for (let d = 0; d < shape.length; d++) if (shape[d]! < 2) return undefined;
  for (let i = 0; i < operands.length; i++) {
    const v = operands[i]!;
    if (!(v instanceof Tensor)) continue;
    const s = v._viewOf ? v._viewOf.layout.strides : v._strides;
    if (!s || v.shape.length !== shape.length) return undefined;
    for (let d = 0; d < shape.length; d++) if (v.shape[d] !== shape[d] || s[d] !== dense[d]) return undefined;
  }
  return dense;
}

// With only row-major operands (the common case) the result is row-major: nothing to compute.
addApplyHook((op, operands, _attrs, out) => {
  const elementwise = ELEMENTWISE.has(op.name);
  if ((!elementwise && !PRESERVING.has(op.name)) || allPlain(operands)) return;
  // PyTorch's pow(Scalar, Tensor) is its own kernel, with a row-major result
  if (op.name === 'pow' && !(operands[0] instanceof Tensor)) return;
  const same = carried(operands, out.shape);
  if (same) out._strides = same;
  else if (elementwise) setStrides(out, iteratorStrides(out.shape, operands.map(strided)));
  else setStrides(out, preservedStrides(out.shape, layoutOf(operands[0] as Tensor).strides));
});
