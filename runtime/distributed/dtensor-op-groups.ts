// Which Tensor methods a DTensor has, and by which rule (generic-rules.ts): one list per rule, so
// a Tensor method added later is either put in one of them or in NOT_ON_DTENSOR with a reason
// (test/distributed/dtensor-method-list.test.ts fails until it is). DTensor's own methods
// (dtensor.ts: add, matmul, sum, max, softmax, transpose, ...) have hand-written rules.
import { normalizeDim } from '../shape.js';
import { isOptions } from '../options.js';
import { dimArgument } from '../ops/dim-argument.js';
import { reduceAttrs, sumArgs, type OneDimOptions, type ReduceOptions, type SumOptions } from '../ops/reduce.js';
import { oneDimArgs } from '../ops/selection-along-dim.js';
import type { DimsReader } from './generic-rules.js';
import { specialized } from '../jit/live-number.js';

/** Elementwise: shards kept, operands broadcast, a Partial input reduced first. */
export const POINTWISE = [
  'abs', 'acos', 'asin', 'atan', 'atan2', 'bitwiseAnd', 'bitwiseLeftShift', 'bitwiseNot', 'bitwiseOr', 'bitwiseRightShift',
  'bitwiseXor', 'ceil', 'clamp', 'clip', 'copysign', 'cos', 'cosh', 'eq', 'erf', 'exp2', 'expm1', 'floor', 'floorDivide', 'fmax',
  'fmin', 'fmod', 'frac', 'ge', 'gt', 'hypot', 'isclose', 'isfinite', 'isinf', 'isnan', 'isneginf', 'isposinf', 'le', 'lerp', 'log',
  'log10', 'log1p', 'log2', 'logaddexp', 'logicalAnd', 'logicalNot', 'logicalOr', 'logicalXor', 'logit', 'lt', 'maskedFill',
  'maximum', 'minimum', 'nanToNum', 'ne', 'pow', 'reciprocal', 'remainder', 'round', 'rsqrt', 'sigmoid', 'sign', 'signbit', 'silu',
  'sin', 'sinh', 'sqrt', 'square', 'tan', 'trunc', 'where', 'xlogy', 'to', 'bfloat16', 'clampMin', 'clampMax', 'lgamma', 'digamma',
  'polygamma', 'erfinv', 'addcmul', 'addcdiv',
  // a Partial's copy too is reduced first, as PyTorch's clone does
  'clone', 'contiguous',
] as const;

/** In place on the pieces (operands laid out as the DTensor is); a Partial DTensor is refused. */
export const IN_PLACE = [
  'add_', 'sub_', 'mul_', 'div_', 'addcmul_', 'addcdiv_', 'pow_', 'clamp_', 'remainder_', 'floorDivide_', 'bitwiseAnd_', 'bitwiseOr_', 'bitwiseXor_',
  'bitwiseNot_', 'bitwiseLeftShift_', 'bitwiseRightShift_', 'fill_', 'zero_', 'maskedFill_', 'copy_', 'abs_', 'acos_', 'asin_',
  'atan_', 'ceil_', 'cos_', 'cosh_', 'erf_', 'exp_', 'expm1_', 'floor_', 'frac_', 'log10_', 'log1p_', 'log2_', 'log_', 'neg_',
  'reciprocal_', 'relu_', 'round_', 'rsqrt_', 'sigmoid_', 'sign_', 'sin_', 'sinh_', 'sqrt_', 'square_', 'tan_', 'tanh_', 'trunc_',
] as const;

/** A dim argument, `x.op(1)` or `x.op({ dim: 1 })`, read as sort's and topk's (-1 when none is given). */
const optionalDim = (who: string, x: { ndim: number }, given: unknown): number => {
  const arg = specialized(given);
  return normalizeDim(who, typeof arg === 'number' ? arg : isOptions(arg) && arg.dim !== undefined ? specialized(arg.dim) as number : -1, x.ndim);
};

const scan: DimsReader = (who, x, [dim]) => ({ dims: [dimArgument(who, x, dim)], keepdim: true, shape: x.shape });
const sorted: DimsReader = (who, x, [opts]) => ({ dims: [optionalDim(who, x, opts)], keepdim: true, shape: x.shape });
const reduced: DimsReader = (who, x, [dim, keepdim]) => reduceAttrs(who, x, dim as ReduceOptions, keepdim as boolean);
/** One dim, the last when none is given, then keepdim: kthvalue's and mode's, from argument `at` on. */
const lastByDefault = (at: number): DimsReader => (who, x, args) => {
  const { dim, keepdim } = oneDimArgs(who, x, args[at] as OneDimOptions, args[at + 1] as boolean);
  return { dims: [dim], keepdim };
};
const nanReduced = (op: 'nansum' | 'nanmean'): DimsReader => (_who, x, [dim, keepdim]) => sumArgs(`DTensor.${op}`, x, dim as SumOptions, keepdim as boolean).attrs;

/** Ops that read whole dims: how each finds them in its arguments. */
export const ALONG_DIMS = {
  cummax: scan,
  cummin: scan,
  logcumsumexp: scan,
  sort: sorted,
  argsort: sorted,
  topk: (who, x, [k, opts]) => {
    const d = optionalDim(who, x, opts);
    return { dims: [d], keepdim: true, shape: x.shape.map((n, i) => (i === d ? specialized(k as number) : n)) };
  },
  median: reduced,
  nanmedian: reduced,
  kthvalue: lastByDefault(1),
  mode: lastByDefault(0),
  logsumexp: reduced,
  nanmean: nanReduced('nanmean'),
  // nansum's sums over pieces add up to the whole's (a Partial input is still reduced first: NaN + 1 is NaN, not 1)
  nansum: (who, x, args) => ({ ...nanReduced('nansum')(who, x, args), part: 'sum' }),
} satisfies Record<string, DimsReader>;

/**
 * No sharding rule: computed whole on every chip from Replicate() copies, the result Replicate()
 * (a profile warning names the op). Right for every op here, data-dependent shapes included: each
 * chip computes the same whole result, and gradients flow back through the gathering.
 */
export const REPLICATED = [
  'addmm', 'baddbmm', 'argwhere', 'at', 'bincount', 'bmm', 'bucketize', 'chunk', 'diag', 'diagonal', 'diff', 'dot', 'expand',
  'flip', 'gather', 'histc', 'index', 'indexAdd', 'indexFill', 'indexSelect', 'maskedSelect', 'movedim', 'moveaxis', 'mv', 'nonzero', 'countNonzero',
  'outer', 'repeat', 'repeatInterleave', 'roll', 'scatter', 'scatterAdd', 'slice', 'split', 'take',
  'takeAlongDim', 'tile', 'trace', 'tril', 'triu', 'unbind', 'unique',
  // x.newZeros(size): the same new tensor on every chip
  'newZeros', 'newOnes', 'newEmpty', 'newFull', 'newTensor', 'quantile', 'nanquantile', 'maskedScatter', 'scatterReduce',
  'uniqueConsecutive', 'det', 'inverse', 'cross', 'kron', 'tensorSplit', 'fliplr', 'flipud', 'indexCopy', 'indexPut',
  'rot90', 'diagEmbed', 'cov', 'corrcoef',
] as const;

/** Values for the host: read once from the full tensor (a sync point, as the Tensor method's). */
export const HOST_READS = ['item', 'array', 'tolist', 'toJSON', 'data', 'dataSync', 'allclose', 'equal'] as const;

/**
 * Tensor methods whose bodies only call other methods of `this` (t() calls transpose, float() calls
 * to('float32'), size() reads shape): DTensor takes the Tensor method itself, which then calls the
 * DTensor's methods.
 */
export const COMPOSED = [
  't', 'swapaxes', 'swapdims', 'absolute', 'sgn', 'trueDivide', 'float', 'int', 'long', 'bool', 'half', 'double', 'size', 'dim',
  'ndimension', 'numel', 'describe', 'mT', 'length',
  // reshape and narrow's (view-rules.ts)
  'flatten', 'unflatten', 'squeeze', 'unsqueeze', 'select',
] as const;

/** Ops that draw random numbers: each chip would draw its own, and a replicated DTensor's copies would differ. */
const RANDOM = 'draws random numbers on every chip, so the copies of a replicated result would differ; apply it to dt.fullTensor() or to each piece (dt.localTensors())';

/** Writes through indices: each would land in one chip's piece or several, and no rule splits them. */
const INDEX_WRITE = 'writes through indices in place, and no sharding rule splits such a write over the pieces; build the new value out of place (dt.indexPut(indices, values), dt.indexCopy(...), replicated), or write into dt.fullTensor()';

/** Tensor methods a DTensor refuses, with what to do instead (the error says it). */
export const NOT_ON_DTENSOR: Record<string, string> = {
  indexPut_: INDEX_WRITE,
  indexAdd_: INDEX_WRITE,
  indexCopy_: INDEX_WRITE,
  indexFill_: INDEX_WRITE,
  scatter_: INDEX_WRITE,
  scatterAdd_: INDEX_WRITE,
  scatterReduce_: INDEX_WRITE,
  setItem: INDEX_WRITE,
  normal_: RANDOM,
  uniform_: RANDOM,
  bernoulli_: RANDOM,
  bernoulli: RANDOM,
  multinomial: RANDOM,
  detach_: 'a DTensor is not cut from its graph in place here: take dt.detach(), a new DTensor over the same pieces',
  slogdet: 'its (sign, logabsdet) pair has no DTensor form here: take dt.fullTensor().slogdet(), or dt.det()',
  device: 'a DTensor lives on the chips of its mesh (dt.mesh.chips); each piece has its own device (dt.localTensors()[k].device)',
  toChip: 'a DTensor is laid out on a mesh: read dt.fullTensor() (on the mesh\'s first chip) and move that, or redistribute the DTensor',
  stride: 'strides are a storage layout, and each piece has its own: dt.localTensors()[k].stride()',
  isContiguous: 'contiguity is a storage layout, and each piece has its own: dt.localTensors()[k].isContiguous()',
  set: 'x.at(i).set(v) writes through a view of a tensor, and a DTensor\'s at() is a new replicated DTensor, not a view of its pieces; write into a piece (dt.localTensors()[k]) or build the new value with where/maskedFill',
  shapeKey: 'a cache key of a tensor\'s shape for the runtime\'s own programs; a DTensor has its global shape in dt.shape',
  readable: 'Tensor\'s own check before a read; read a DTensor with dt.fullTensor() or its pieces',
  registerHook: 'a DTensor\'s gradient flows through its pieces: register the hook on each piece (dt.localTensors()[k].registerHook(fn))',
  retainGrad: 'a computed DTensor keeps no gradient: retain its pieces\' (dt.localTensors()[k].retainGrad()), or read a leaf DTensor\'s dt.grad',
  retainsGrad: 'a computed DTensor keeps no gradient; its pieces\' dt.localTensors()[k].retainsGrad say whether they do',
};

/**
 * tpu's and tpu.nn.functional's functions given a DTensor (dtensor-functions.ts): these activations
 * and the functions named in POINTWISE (tpu.pow(2, x), tpu.where(c, x, y)), the pointwise rule;
 * another named as a DTensor method, with the input first, is that method (tpu.median(x) is
 * x.median()); the rest (losses, layerNorm, conv2d, concat, einsum, ...) the replicated rule.
 */
export const FUNCTIONS_POINTWISE = [
  'leakyRelu', 'elu', 'selu', 'celu', 'hardtanh', 'relu6', 'hardsigmoid', 'hardswish', 'softplus', 'logSigmoid', 'mish', 'softsign',
  'tanhshrink', ...POINTWISE,
] as const;

export const FUNCTIONS_REFUSED = { dropout: RANDOM, randLike: RANDOM, randnLike: RANDOM, randintLike: RANDOM, normal: RANDOM, bernoulli: RANDOM, multinomial: RANDOM } satisfies Record<string, string>;
