// Gradient check cases, one list per differentiable op of the registry (keyed by op name).
// Each case calls the op through its public API; inputs are seeded, away from kinks where
// the op has one. Broadcasting, reductions over dims, batched and 1-D matmul are covered.
import { apply, ops, tpu, type DType, type Tensor } from 'tpu-kernel/runtime';

export interface InputSpec {
  shape: number[];
  /** Uniform range of the seeded values (default [-2, 2]). */
  range?: [number, number];
  /** Fixed values instead of seeded ones. */
  values?: number[];
  dtype?: DType;
  /** Keep samples away from 0 (ops with a kink there). */
  awayFromZero?: boolean;
  /** A float input not differentiated (e.g. a target). */
  noGrad?: boolean;
}

export interface GradCase {
  label?: string;
  inputs: InputSpec[];
  call: (...xs: Tensor[]) => Tensor;
  step?: number;
  atol?: number;
  rtol?: number;
}

const m = (...shape: number[]): InputSpec => ({ shape });
/** A constant int32 index tensor. */
const ids = (v: number[] | number[][]) => tpu.tensor(v, { dtype: 'int32' });
const pos = (...shape: number[]): InputSpec => ({ shape, range: [0.5, 2] });
const kink = (...shape: number[]): InputSpec => ({ shape, awayFromZero: true });
/** Values at least 0.1 away from integers and half-integers (rounding ops). */
const offGrid = (values: number[]): InputSpec => ({ shape: [values.length], values });

export const GRAD_CASES: Record<string, GradCase[]> = {
  add: [
    { label: 'broadcast row', inputs: [m(2, 3), m(3)], call: (a, b) => a.add(b) },
    { label: 'broadcast column + scalar', inputs: [m(2, 1), m(1, 3)], call: (a, b) => a.add(b).add(0.5) },
  ],
  sub: [{ label: 'broadcast', inputs: [m(3), m(2, 3)], call: (a, b) => a.sub(b) }],
  mul: [
    { label: 'broadcast', inputs: [m(2, 3), m(2, 1)], call: (a, b) => a.mul(b) },
    { label: 'same tensor twice', inputs: [m(4)], call: (a) => a.mul(a).mul(3) },
  ],
  div: [{ label: 'broadcast', inputs: [m(2, 3), pos(3)], call: (a, b) => a.div(b) }],
  neg: [{ inputs: [m(2, 2)], call: (a) => a.neg() }],
  exp: [{ inputs: [m(5)], call: (a) => a.exp() }],
  lgamma: [
    { inputs: [pos(5)], call: (a) => a.lgamma() },
    { label: 'negative non-integers', inputs: [offGrid([-0.3, -1.6, -2.4, -3.7])], call: (a) => a.lgamma() },
  ],
  digamma: [
    { inputs: [pos(5)], call: (a) => a.digamma() },
    { label: 'negative non-integers', inputs: [offGrid([-0.3, -1.6, -2.4, -3.7])], call: (a) => a.digamma() },
  ],
  erfinv: [{ inputs: [{ shape: [6], range: [-0.9, 0.9] }], call: (a) => a.erfinv() }],
  log: [{ inputs: [pos(5)], call: (a) => a.log() }],
  tanh: [{ inputs: [m(2, 3)], call: (a) => a.tanh() }],
  sqrt: [{ inputs: [pos(5)], call: (a) => a.sqrt() }],
  relu: [{ inputs: [kink(2, 4)], call: (a) => a.relu() }],
  abs: [{ inputs: [kink(6)], call: (a) => a.abs() }],
  sign: [{ inputs: [kink(4)], call: (a) => a.sign().add(a) }],
  sum: [
    { label: 'all', inputs: [m(2, 3)], call: (a) => a.sum() },
    { label: 'dim 1 keepdim', inputs: [m(2, 3, 2)], call: (a) => a.sum({ dim: 1, keepdim: true }) },
    { label: 'dims [0, 2]', inputs: [m(2, 3, 2)], call: (a) => a.sum([0, 2]) },
  ],
  mean: [
    { label: 'all', inputs: [m(3, 2)], call: (a) => a.mean() },
    { label: 'dim -1', inputs: [m(2, 4)], call: (a) => a.mean(-1) },
  ],
  amax: [
    { label: 'dim 1 (distinct values)', inputs: [{ shape: [2, 3], values: [0.3, -1.2, 1.9, 0.7, 1.4, -0.6] }], call: (a) => a.amax(1) },
    { label: 'all, keepdim', inputs: [m(2, 3)], call: (a) => a.amax({ keepdim: true }) },
  ],
  logSoftmax: [
    { label: 'dim 1', inputs: [m(3, 4)], call: (a) => a.logSoftmax(1) },
    { label: 'dim 0 of 3-d', inputs: [m(3, 2, 2)], call: (a) => a.logSoftmax(0) },
  ],
  matmul: [
    { label: 'matrices', inputs: [m(2, 3), m(3, 4)], call: (a, b) => a.matmul(b) },
    { label: 'batched, broadcast batch', inputs: [m(2, 2, 3), m(3, 2)], call: (a, b) => a.matmul(b) },
    { label: 'vector · matrix', inputs: [m(3), m(3, 2)], call: (a, b) => a.matmul(b) },
    { label: 'matrix · vector', inputs: [m(2, 3), m(3)], call: (a, b) => a.matmul(b) },
  ],
  reshape: [{ inputs: [m(2, 3)], call: (a) => a.reshape([3, 2]).mul(a.reshape([3, 2])) }],
  permute: [{ inputs: [m(2, 3, 2)], call: (a) => a.permute(2, 0, 1) }],
  expand: [{ inputs: [m(3, 1)], call: (a) => a.expand([2, 3, 4]) }],
  cast: [
    {
      label: 'float32 -> bfloat16 (values and steps exact in bfloat16)',
      inputs: [{ shape: [4], values: [0.5, -1.25, 2, 1.75] }],
      call: (a) => a.to('bfloat16').mul(a.to('bfloat16')),
      step: 0.25,
    },
  ],
  // Sources (no tensor operand): checked through the op that consumes them.
  constant: [{ inputs: [m(3)], call: (a) => a.mul(ops.constantTensor([1.5, -2, 0.25], [3], 'float32')) }],
  identity: [{ inputs: [m(2, 3)], call: (a) => apply(ops.identity, [a.mul(a)], {}).mul(a) }],
  deviceCheck: [{ inputs: [m(2, 3)], call: (a) => apply(ops.deviceCheckOp, [a.mul(a), tpu.tensor(new Int32Array([0])).reshape([])], { op: 'check', text: '{k}', n: 1, batched: false }).mul(a) }],
  fill: [{ inputs: [m(2, 2)], call: (a) => a.mul(ops.fullLike(a, 0.75)).add(ops.fullLike(a, 2)) }],
  rsqrt: [{ inputs: [pos(4)], call: (a) => a.rsqrt() }],
  square: [{ inputs: [m(4)], call: (a) => a.square() }],
  reciprocal: [{ inputs: [pos(4)], call: (a) => a.reciprocal() }],
  sin: [{ inputs: [m(4)], call: (a) => a.sin() }],
  cos: [{ inputs: [m(4)], call: (a) => a.cos() }],
  sigmoid: [{ inputs: [m(4)], call: (a) => a.sigmoid() }],
  erf: [{ inputs: [m(4)], call: (a) => a.erf() }],
  tan: [{ inputs: [{ shape: [4], range: [-1, 1] }], call: (a) => a.tan() }],
  asin: [{ inputs: [{ shape: [4], range: [-0.9, 0.9] }], call: (a) => a.asin() }],
  acos: [{ inputs: [{ shape: [4], range: [-0.9, 0.9] }], call: (a) => a.acos() }],
  atan: [{ inputs: [m(4)], call: (a) => a.atan() }],
  sinh: [{ inputs: [m(4)], call: (a) => a.sinh() }],
  cosh: [{ inputs: [m(4)], call: (a) => a.cosh() }],
  log2: [{ inputs: [pos(4)], call: (a) => a.log2() }],
  log10: [{ inputs: [pos(4)], call: (a) => a.log10() }],
  atan2: [
    { inputs: [kink(2, 3), kink(3)], call: (a, b) => a.atan2(b) },
    { label: 'a number other', inputs: [kink(4)], call: (a) => a.atan2(-2) },
  ],
  xlogy: [
    { inputs: [m(2, 3), pos(3)], call: (a, b) => a.xlogy(b) },
    { label: 'x holding zeros', inputs: [{ shape: [3], values: [0, 1.5, 0] }, pos(3)], call: (a, b) => a.xlogy(b) },
  ],
  log1p: [{ inputs: [{ shape: [4], range: [-0.5, 2] }], call: (a) => a.log1p() }],
  expm1: [{ inputs: [m(4)], call: (a) => a.expm1() }],
  floor: [{ inputs: [offGrid([0.3, 1.2, -0.7, 2.6])], call: (a) => a.floor().mul(a) }],
  ceil: [{ inputs: [offGrid([0.3, 1.2, -0.7, 2.6])], call: (a) => a.ceil().mul(a) }],
  round: [{ inputs: [offGrid([0.3, 1.2, -0.7, 2.65])], call: (a) => a.round().mul(a) }],
  trunc: [{ inputs: [offGrid([0.3, 1.2, -0.7, 2.6])], call: (a) => a.trunc().mul(a) }],
  where: [
    { label: 'broadcast condition', inputs: [m(2, 3), m(3), kink(2, 3)], call: (a, b, c) => ops.where(c.gt(0), a, b) },
  ],
  pow: [
    { label: 'tensor exponent', inputs: [pos(4), m(4)], call: (a, b) => a.pow(b) },
    { label: 'scalar exponent', inputs: [m(4)], call: (a) => a.pow(3) },
  ],
  // finite differences stay away from the jumps of the remainder (where a / b is an integer)
  fmod: [{ inputs: [{ shape: [4], values: [5.3, -5.3, 2.2, 7.9] }, { shape: [4], values: [2, 2, -1.5, 3] }], call: (a, b) => a.fmod(b) }],
  maximum: [{ inputs: [{ shape: [4], values: [0.5, -1, 2, 0.1] }, { shape: [4], values: [0.2, 0.3, 2.5, -1] }], call: (a, b) => a.maximum(b) }],
  minimum: [{ inputs: [{ shape: [4], values: [0.5, -1, 2, 0.1] }, { shape: [4], values: [0.2, 0.3, 2.5, -1] }], call: (a, b) => a.minimum(b) }],
  slice: [
    { label: 'strided', inputs: [m(2, 5)], call: (a) => a.slice(1, 0, 5, 2) },
    { label: 'negative step', inputs: [m(5)], call: (a) => a.flip(0).mul(a) },
  ],
  embedSlice: [
    {
      inputs: [m(2)],
      call: (a) => apply(ops.embedSlice, [a], { begin: [1], step: [2], count: [2], shape: [6] }),
    },
  ],
  concat: [{ inputs: [m(2, 1), m(2, 3)], call: (a, b) => ops.concat([a, b, a], 1) }],
  cumsum: [{ inputs: [m(2, 4)], call: (a) => a.cumsum(1) }],
  amin: [{ inputs: [{ shape: [2, 3], values: [0.3, -1.2, 1.9, 0.7, 1.4, -0.6] }], call: (a) => a.amin(1) }],
  prod: [{ inputs: [{ shape: [2, 3], range: [0.5, 1.5] }], call: (a) => a.prod(1) }],
  pad: [
    { label: 'pad with a value', inputs: [m(2, 2)], call: (a) => ops.pad(a, [1, 2, 0, 1], { value: 0.5 }) },
    { label: 'crop', inputs: [m(2, 4)], call: (a) => ops.pad(a, [-1, 1]) },
  ],
  indexSelect: [{ label: 'repeated index', inputs: [m(3, 2)], call: (a) => a.indexSelect(0, ids([2, 0, 2])) }],
  gather: [{ inputs: [m(2, 3)], call: (a) => a.gather(1, ids([[2, 0], [1, 1]])) }],
  scatter: [
    { label: 'into x, from src', inputs: [m(2, 4), m(2, 3)], call: (x, src) => x.scatter(1, ids([[3, 0, 1], [2, 1, 0]]), src) },
  ],
  scatterAdd: [
    { label: 'into x, from src', inputs: [m(3), m(4)], call: (x, src) => x.scatterAdd(0, ids([0, 2, 2, 1]), src) },
  ],
  scatterReduce: [
    { label: 'prod into x, from src', inputs: [m(3), m(4)], call: (x, src) => x.scatterReduce(0, ids([0, 2, 2, 1]), src, 'prod') },
    { label: 'prod without x', inputs: [m(3), m(4)], call: (x, src) => x.scatterReduce(0, ids([0, 2, 2, 1]), src, 'prod', { includeSelf: false }) },
    { label: 'amax of distinct values', inputs: [{ shape: [3], values: [0.3, -1.2, 1.9] }, { shape: [4], values: [0.7, 1.4, -0.6, 2.5] }], call: (x, src) => x.scatterReduce(0, ids([0, 2, 2, 1]), src, 'amax') },
    { label: 'amin without x', inputs: [{ shape: [3], values: [0.3, -1.2, 1.9] }, { shape: [4], values: [0.7, 1.4, -0.6, 2.5] }], call: (x, src) => x.scatterReduce(0, ids([0, 2, 2, 1]), src, 'amin', { includeSelf: false }) },
  ],
  topkValues: [{ label: 'distinct values', inputs: [{ shape: [2, 3], values: [0.3, -1.2, 1.9, 0.7, 1.4, -0.6] }], call: (a) => a.topk(2, { dim: 1 }).values }],
  trilu: [
    { label: 'tril', inputs: [m(3, 3)], call: (a) => a.tril() },
    { label: 'triu, diagonal 1', inputs: [m(2, 3)], call: (a) => a.triu(1) },
  ],
  conv2d: [
    { label: 'stride 2, padding 1', inputs: [m(1, 2, 4, 4), m(3, 2, 3, 3)], call: (x, w) => ops.conv2d(x, w, { stride: 2, padding: 1 }) },
    { label: 'groups 2, dilation 2', inputs: [m(1, 2, 5, 5), m(2, 1, 2, 2)], call: (x, w) => ops.conv2d(x, w, { groups: 2, dilation: 2 }) },
  ],
  convTranspose2d: [
    {
      label: 'stride 2',
      inputs: [m(1, 2, 2, 2), m(2, 3, 2, 2)],
      call: (x, w) => apply(ops.convTranspose2dOp, [x, w], { stride: [2, 2], padding: [0, 0], dilation: [1, 1], groups: 1, outputPadding: [0, 0] }),
    },
  ],
  // Collectives over a group of one chip (this process has one): the gradient rule's own
  // wiring; test/distributed checks them across 4 chips against hand-computed gradients.
  all_reduce: [
    { label: 'sum', inputs: [m(2, 3)], call: (x) => apply(ops.allReducePrimitive, [x], { groups: [[0]], rank: 0, reduce: 'sum' }) },
    { label: 'max', inputs: [m(3)], call: (x) => apply(ops.allReducePrimitive, [x], { groups: [[0]], rank: 0, reduce: 'max' }) },
  ],
  all_gather: [{ label: 'dim 1', inputs: [m(2, 3)], call: (x) => apply(ops.allGatherPrimitive, [x], { groups: [[0]], rank: 0, dim: 1, sizes: [3] }) }],
  reduce_scatter: [{ label: 'mean, dim 0', inputs: [m(4, 2)], call: (x) => apply(ops.reduceScatterPrimitive, [x], { groups: [[0]], rank: 0, reduce: 'mean', dim: 0, sizes: [4] }) }],
  all_to_all: [{ label: 'split 0, concat 1', inputs: [m(2, 3)], call: (x) => apply(ops.allToAllPrimitive, [x], { groups: [[0]], rank: 0, splitDim: 0, concatDim: 1 }) }],
  collective_permute: [{ label: 'to itself', inputs: [m(3)], call: (x) => apply(ops.permutePrimitive, [x], { groups: [[0]], rank: 0, pairs: [[0, 0]] }) }],
  collective_broadcast: [{ label: 'from rank 0', inputs: [m(3)], call: (x) => apply(ops.broadcastPrimitive, [x], { groups: [[0]], rank: 0, src: 0 }) }],
};
