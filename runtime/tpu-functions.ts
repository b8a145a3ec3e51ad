// The functional forms of the op catalog on `tpu` (tpu.where, tpu.concat, tpu.einsum,
// tpu.exp(x), ...) and `tpu.nn.functional` (softmax, layerNorm, conv2d, ...). Each is the
// op's one definition in runtime/ops/, reached another way.
import { Tensor } from './tensor.js';
import { addScaled, type AlphaOptions } from './ops/scaled-add.js';
import type { OpDef, Operand } from './ops/op.js';
import { apply } from './modes/dispatch.js';
import * as ops from './ops/index.js';
import { linspace, logspace, eye, randint, randperm } from './creation-computed.js';
import { trilIndices, triuIndices } from './triangle-indices.js';
import { withRequiresGrad } from './autograd/creation.js';
import { intArray } from './shape-args.js';
import { wrapNumber } from './ops/wrapped-number.js';
import { tensorArg } from './ops/tensor-arg.js';
import { rejectBoolSubtrahend } from './ops/bool-subtraction.js';

const method = <K extends keyof Tensor>(name: K) =>
  ((x: Tensor, ...args: unknown[]) => (tensorArg(`tpu.${String(name)}`, 'input', x)[name] as (...a: unknown[]) => unknown).apply(x, args)) as Tensor[K] extends (...a: infer A) => infer R ? (x: Tensor, ...a: A) => R : never;

/**
 * torch.reshape(x, shape) and torch.permute(x, dims) take their list as one list only: the
 * integers form, x.reshape(2, 3), is the method's. `min` as intArray's.
 */
const listForm = (name: 'reshape' | 'permute', arg: string, min?: number) => ((x: Tensor, list: readonly number[], ...rest: unknown[]): Tensor => {
  const op = `tpu.${name}`;
  if (rest.length > 0) {
    const given = [list, ...rest].map((v) => (typeof v === 'number' ? String(v) : JSON.stringify(v))).join(', ');
    throw new TypeError(`${op}: ${arg} must be one array of integers, as torch.${name} takes it: ${op}(x, [${given}]) (x.${name} also takes integers); got ${rest.length + 1} arguments after x: ${given}`);
  }
  return x[name](intArray(op, list, arg, min));
}) as (x: Tensor, list: readonly number[]) => Tensor;

/** tpu.pow(2, x): either operand may be a JS scalar. */
const binary = (op: OpDef) => (a: Operand, b: Operand): Tensor => apply(op, [a, b], {});
/** tpu.add(x, y, { alpha }): x + alpha·y, as torch.add (a JS number x wrapped as PyTorch wraps it). */
const withAlpha = (name: 'add' | 'sub', op: OpDef) => (a: Operand, b: Operand, options?: AlphaOptions): Tensor => {
  if (name === 'sub') {
    rejectBoolSubtrahend('tpu.sub', a, 'input');
    rejectBoolSubtrahend('tpu.sub', b);
  }
  return options === undefined ? apply(op, [a, b], {}) : addScaled(name, wrapNumber(`tpu.${name}`, a, b), b, options);
};

export const functional = {
  // their options' requiresGrad applied, as the creation functions' (creation.ts)
  ...withRequiresGrad({ linspace, logspace, eye, randint, randperm }), normal: ops.normal, bernoulli: ops.bernoulli, multinomial: ops.multinomial,
  zerosLike: ops.zerosLike, onesLike: ops.onesLike, fullLike: ops.fullLike, emptyLike: ops.emptyLike, randLike: ops.randLike, randnLike: ops.randnLike, randintLike: ops.randintLike,
  where: ops.where, concat: ops.concat, cat: ops.concat, stack: ops.stack, hstack: ops.hstack, vstack: ops.vstack, meshgrid: ops.meshgrid, einsum: ops.einsum,
  split: ops.split, chunk: ops.chunk, tensorSplit: ops.tensorSplit, roll: ops.roll, flip: ops.flip, fliplr: ops.fliplr, flipud: ops.flipud,
  matmul: (a: Tensor, b: Tensor) => tensorArg('tpu.matmul', 'input', a).matmul(b), dot: ops.dot, outer: ops.outer, bmm: ops.bmm,
  mm: ops.mm, mv: ops.mv, addmm: ops.addmm, baddbmm: ops.baddbmm, addcmul: ops.addcmul, addcdiv: ops.addcdiv, diagonal: ops.diagonal, diag: ops.diag, trace: ops.trace,
  diagEmbed: ops.diagEmbed, rot90: ops.rot90, cov: ops.cov, corrcoef: ops.corrcoef, trilIndices, triuIndices,
  linalg: ops.linalg, det: ops.det, slogdet: ops.slogdet, inverse: ops.inv, cross: ops.cross, kron: ops.kron, tensordot: ops.tensordot, cdist: ops.cdist,
  t: method('t'), swapaxes: method('swapaxes'), swapdims: method('swapdims'), select: ops.select, unbind: method('unbind'),
  add: withAlpha('add', ops.add), sub: withAlpha('sub', ops.sub), mul: binary(ops.mul),
  div: (a: Operand, b: Operand, options?: ops.DivOptions): Tensor => (options === undefined ? apply(ops.div, [a, b], {}) : ops.divide(wrapNumber('tpu.div', a, b), b, options)),
  floorDivide: (a: Operand, b: Operand): Tensor => wrapNumber('tpu.floorDivide', a, b).floorDivide(b),
  trueDivide: (a: Operand, b: Operand): Tensor => apply(ops.div, [a, b], {}),
  ...ops.bitwiseFunctions, bitwiseNot: method('bitwiseNot'),
  fmod: binary(ops.fmodOp), remainder: (a: Operand, b: Operand): Tensor => ops.remainder(wrapNumber('tpu.remainder', a, b), b),
  pow: binary(ops.pow), maximum: binary(ops.maximum), minimum: binary(ops.minimum), clamp: ops.clamp, clip: ops.clamp, lerp: ops.lerp,
  fmax: ops.fmax, fmin: ops.fmin, atan2: (a: Tensor, b: Operand) => tensorArg('tpu.atan2', 'input', a).atan2(b),
  hypot: ops.hypot, xlogy: ops.xlogy, logaddexp: ops.logaddexp, copysign: ops.copysign, exp2: ops.exp2, logit: ops.logit,
  signbit: ops.signbit, isposinf: ops.isposinf, isneginf: ops.isneginf, nanToNum: ops.nanToNum,
  tan: method('tan'), asin: method('asin'), acos: method('acos'), atan: method('atan'), sinh: method('sinh'), cosh: method('cosh'),
  log2: method('log2'), log10: method('log10'), frac: method('frac'), absolute: method('absolute'), sgn: method('sgn'),
  exp: method('exp'), log: method('log'), log1p: method('log1p'), expm1: method('expm1'), sqrt: method('sqrt'),
  rsqrt: method('rsqrt'), square: method('square'), abs: method('abs'), sign: method('sign'), neg: method('neg'),
  sin: method('sin'), cos: method('cos'), tanh: method('tanh'), sigmoid: method('sigmoid'), erf: method('erf'),
  erfinv: method('erfinv'), lgamma: method('lgamma'), digamma: method('digamma'), polygamma: ops.polygamma,
  floor: method('floor'), ceil: method('ceil'), round: method('round'), trunc: method('trunc'),
  isnan: method('isnan'), isinf: method('isinf'), isfinite: method('isfinite'),
  logicalAnd: method('logicalAnd'), logicalOr: method('logicalOr'), logicalXor: method('logicalXor'), logicalNot: method('logicalNot'),
  sum: method('sum'), mean: method('mean'), prod: method('prod'), amax: method('amax'), amin: method('amin'), max: ops.max, min: ops.min,
  argmax: method('argmax'), argmin: method('argmin'), any: method('any'), all: method('all'),
  var: ops.variance, std: ops.std, varMean: ops.varMean, stdMean: ops.stdMean, logsumexp: ops.logsumexp, norm: ops.norm,
  nansum: ops.nansum, nanmean: ops.nanmean, median: ops.median, nanmedian: ops.nanmedian, kthvalue: ops.kthvalue, quantile: ops.quantile, nanquantile: ops.nanquantile, cummax: ops.cummax, cummin: ops.cummin, logcumsumexp: ops.logcumsumexp,
  diff: ops.diff, isclose: ops.isclose, allclose: ops.allclose, equal: ops.equal,
  cumsum: ops.cumsum, cumprod: ops.cumprod, sort: ops.sort, argsort: ops.argsort, topk: ops.topk,
  tril: ops.tril, triu: ops.triu, gather: ops.gather, indexSelect: ops.indexSelect, scatterAdd: ops.scatterAdd, scatter: ops.scatter, scatterReduce: ops.scatterReduce, maskedScatter: ops.maskedScatter,
  take: ops.take, takeAlongDim: ops.takeAlongDim, indexAdd: ops.indexAdd, indexCopy: ops.indexCopy, indexFill: ops.indexFill, indexPut: ops.indexPut, repeatInterleave: ops.repeatInterleave,
  maskedFill: ops.maskedFill, maskedSelect: ops.maskedSelect, nonzero: ops.nonzero, countNonzero: ops.countNonzero, searchsorted: ops.searchsorted, bucketize: ops.bucketize, bincount: ops.bincount, histc: ops.histc, unique: ops.unique, uniqueConsecutive: ops.uniqueConsecutive, argwhere: ops.argwhere, squeeze: ops.squeeze, unsqueeze: ops.unsqueeze, flatten: ops.flatten, unflatten: ops.unflatten,
  movedim: ops.movedim, moveaxis: method('moveaxis'), reshape: listForm('reshape', 'shape', -1), permute: listForm('permute', 'dims'), transpose: method('transpose'),
  softmax: ops.softmax, logSoftmax: ops.logSoftmax,
};

/** tpu.nn.functional: torch.nn.functional's names in camelCase. */
export const nnFunctional = {
  relu: method('relu'), gelu: ops.gelu, silu: ops.silu, sigmoid: method('sigmoid'), tanh: method('tanh'),
  leakyRelu: ops.leakyRelu, elu: ops.elu, selu: ops.selu, celu: ops.celu, hardtanh: ops.hardtanh, relu6: ops.relu6,
  hardsigmoid: ops.hardsigmoid, hardswish: ops.hardswish, softplus: ops.softplus, logSigmoid: ops.logSigmoid, mish: ops.mish,
  softsign: ops.softsign, tanhshrink: ops.tanhshrink, softmin: ops.softmin,
  hardshrink: ops.hardshrink, softshrink: ops.softshrink, threshold: ops.threshold, prelu: ops.prelu, glu: ops.glu,
  normalize: ops.normalize, cosineSimilarity: ops.cosineSimilarity, pairwiseDistance: ops.pairwiseDistance,
  softmax: ops.softmax, logSoftmax: ops.logSoftmax, layerNorm: ops.layerNorm, rmsNorm: ops.rmsNorm,
  dropout: ops.dropout, embedding: ops.embedding, linear: ops.linear, oneHot: ops.oneHot, pad: ops.pad,
  conv1d: ops.conv1d, conv2d: ops.conv2d, convTranspose1d: ops.convTranspose1d, convTranspose2d: ops.convTranspose2d, unfold: ops.unfold, fold: ops.fold, maxPool2d: ops.maxPool2d, avgPool2d: ops.avgPool2d,
  interpolate: ops.interpolate, scaledDotProductAttention: ops.scaledDotProductAttention,
  batchNorm: ops.batchNorm, groupNorm: ops.groupNorm, adaptiveAvgPool2d: ops.adaptiveAvgPool2d, maxPool1d: ops.maxPool1d, avgPool1d: ops.avgPool1d,
};
