// One program per primitive and dtype (and per attribute form that takes another path in a
// lowering), built as Program IR with the op's own shape rule, with deterministic inputs
// that include the values where backends differ (NaN, ±inf, ±0, ties, rounding halves,
// negative indices). Shared by the libtpu compile test and the XLA:CPU-vs-ONNX test.
import { registeredOps } from '../../runtime/ops/index.js';
import { bf16Bits, type DType, type StorageArray } from '../../runtime/dtype.js';
import type { Program, ProgramNode } from '../../runtime/program/program.js';

/** How close the StableHLO result must be to the ONNX backend's. */
export type Tolerance =
  | 'exact'
  /**
   * float32 ulps (2^-23 relative), plus `abs`. A bfloat16 result may be one bfloat16 ulp off
   * when ulps > 0 (float32 values a few ulps apart can round to neighbouring bfloat16 values).
   */
  | { readonly ulps: number; readonly abs?: number }
  /** |a − b| ≤ abs + rel·|onnx|: reductions and transcendental chains. */
  | { readonly abs: number; readonly rel: number };

export interface OperandSpec {
  readonly shape: readonly number[];
  readonly dtype: DType;
  /** A 0-d scalar parameter of the program (fed by value, as a learning rate is). */
  readonly scalar?: number;
  /** Explicit values (else generated from the dtype). */
  readonly values?: readonly number[];
  /** Random integers in [lo, hi] (indices, exponents). */
  readonly ints?: readonly [number, number];
  /** Generated floats without NaN/±inf (reductions where one NaN hides the rest). */
  readonly finite?: boolean;
}

export interface PrimitiveCase {
  readonly label: string;
  readonly op: string;
  readonly operands: readonly OperandSpec[];
  readonly attrs: unknown;
  readonly tolerance: Tolerance;
  /**
   * PyTorch's values, hand-computed, where the ONNX backend departs from PyTorch: the
   * StableHLO result is checked against these instead.
   */
  readonly pytorch?: readonly number[];
}

const byName = new Map(registeredOps().map((op) => [op.name, op]));

/** The program of one op application: tensor operands are inputs, scalar operands scalars. */
export function programOf(c: PrimitiveCase): Program {
  const tensors = c.operands.filter((o) => o.scalar === undefined);
  const scalars = c.operands.filter((o) => o.scalar !== undefined);
  let t = 0;
  let s = tensors.length;
  const ids = c.operands.map((o) => (o.scalar === undefined ? t++ : s++));
  const op = byName.get(c.op);
  if (!op) throw new Error(`no primitive '${c.op}'`);
  const out = op.infer(c.operands.map((o) => ({ shape: o.shape, dtype: o.dtype })), c.attrs as never);
  const node: ProgramNode = { op: c.op, inputs: ids, attrs: c.attrs, shape: out.shape, dtype: out.dtype };
  return {
    inputs: tensors.map((o) => ({ shape: o.shape, dtype: o.dtype })),
    scalars: scalars.map((o) => o.dtype),
    nodes: [node],
    outputs: [tensors.length + scalars.length],
  };
}

// ---- deterministic data -------------------------------------------------------------

function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 0.5, 1.5, 2.5, -2.5, 1e-8, -1e-8, 1];

/** A float operand's values: specials first, then values of mixed magnitude and sign. */
function floats(n: number, next: () => number, finite: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const special = finite ? undefined : SPECIALS[i];
    if (special !== undefined && i < n / 2) out.push(special);
    else out.push((next() - 0.5) * 8 * (next() < 0.2 ? 0.01 : 1));
  }
  return out;
}

/** Host storage of an operand (bfloat16 as bit patterns), and its values as numbers. */
export function operandData(o: OperandSpec, seed: number): { storage: StorageArray; numbers: number[] } {
  const n = o.shape.reduce((a, b) => a * b, 1);
  const next = random(seed * 7919 + n);
  let numbers: number[];
  if (o.values) numbers = [...o.values];
  else if (o.ints) numbers = Array.from({ length: n }, () => o.ints![0] + Math.floor(next() * (o.ints![1] - o.ints![0] + 1)));
  else if (o.dtype === 'bool') numbers = Array.from({ length: n }, () => (next() < 0.5 ? 1 : 0));
  else if (o.dtype === 'int32') numbers = Array.from({ length: n }, () => Math.floor(next() * 21) - 10);
  // int64: small values and values beyond int32 (products wrap modulo 2^64 on both backends)
  else if (o.dtype === 'int64') numbers = Array.from({ length: n }, () => (Math.floor(next() * 21) - 10) * (next() < 0.3 ? 2 ** 33 : 1));
  else numbers = floats(n, next, o.finite ?? false);
  switch (o.dtype) {
    case 'float32': return { storage: Float32Array.from(numbers), numbers: Array.from(Float32Array.from(numbers)) };
    case 'bfloat16': {
      const bits = Uint16Array.from(numbers, (v) => bf16Bits(v));
      const widened = new Float32Array(new Uint32Array(Array.from(bits, (b) => b << 16)).buffer);
      return { storage: bits, numbers: Array.from(widened) };
    }
    case 'int32': return { storage: Int32Array.from(numbers), numbers };
    case 'int64': return { storage: BigInt64Array.from(numbers, BigInt), numbers };
    case 'bool': return { storage: Uint8Array.from(numbers, (v) => (v ? 1 : 0)), numbers: numbers.map((v) => (v ? 1 : 0)) };
  }
}

// ---- the catalogue ------------------------------------------------------------------

const T = (shape: readonly number[], dtype: DType, more: Partial<OperandSpec> = {}): OperandSpec => ({ shape, dtype, ...more });
const S = (dtype: DType, value: number): OperandSpec => ({ shape: [], dtype, scalar: value });

const EXACT: Tolerance = 'exact';
/** Correctly rounded in IEEE arithmetic on both backends. */
const ARITHMETIC: Tolerance = { ulps: 0 };
/** XLA:CPU's float32 divide is 1 ulp off the correctly rounded quotient at times (ONNX Runtime's is exact). */
const DIVISION: Tolerance = { ulps: 1 };
/**
 * ONNX Runtime's sigmoid is an approximation with an absolute error up to ~1e-7 (2e-4
 * relative at sigmoid(-8)); XLA's logistic is within an ulp of the float64 value.
 */
const SIGMOID: Tolerance = { ulps: 4, abs: 2e-7 };
/** Library approximations of transcendental functions differ by a few ulps. */
const TRANSCENDENTAL: Tolerance = { ulps: 4 };
/**
 * The special functions are float32 formulas of other primitives (device/special-functions/):
 * each backend's sin, log and tan differ by an ulp, and near lgamma's negative zeros the
 * reflection formula's difference of two values near 1 leaves an absolute error ~1e-7.
 */
const SPECIAL_FUNCTIONS: Tolerance = { ulps: 8, abs: 2e-7 };
/** XLA's sinh and cosh are ~5 float32 ulps off at |x| = 10 (ONNX Runtime's within one). */
const HYPERBOLIC: Tolerance = { ulps: 8 };
/** Summation order differs (XLA's tree vs ONNX Runtime's vectorized loop). */
const REDUCTION: Tolerance = { abs: 1e-5, rel: 1e-5 };

const ALL: DType[] = ['float32', 'bfloat16', 'int32', 'bool'];
/** The dtypes with int64, for the primitives that admit it (runtime/ops/int64-support.ts). */
const WITH_INT64: DType[] = [...ALL, 'int64'];
const NUMERIC: DType[] = ['float32', 'bfloat16', 'int32'];
const FLOATS: DType[] = ['float32', 'bfloat16'];
const forAll = (dtypes: DType[], f: (d: DType) => PrimitiveCase[]) => dtypes.flatMap(f);
const one = (label: string, op: string, operands: OperandSpec[], attrs: unknown, tolerance: Tolerance): PrimitiveCase => ({ label, op, operands, attrs, tolerance });
const noAttrs = {};

/** A float result's tolerance: transcendental ulps for floats; integer or bool results exact. */
const unaryTolerance = (op: string): Tolerance =>
  op === 'sigmoid' ? SIGMOID : ['lgamma', 'digamma', 'trigamma', 'erfinv'].includes(op) ? SPECIAL_FUNCTIONS : op === 'sinh' || op === 'cosh' ? HYPERBOLIC : op === 'reciprocal' ? DIVISION : ['neg', 'abs', 'sign', 'relu', 'square', 'floor', 'ceil', 'round', 'trunc', 'sqrt'].includes(op) ? ARITHMETIC : TRANSCENDENTAL;

function binaryCases(): PrimitiveCase[] {
  const cases: PrimitiveCase[] = [];
  const arithmetic = ['add', 'sub', 'mul', 'div', 'maximum', 'minimum'];
  for (const op of [...arithmetic, 'pow', 'gt', 'lt', 'eq', 'ge', 'le', 'logicalAnd', 'logicalOr', 'logicalXor']) {
    const tolerance = op === 'pow' ? TRANSCENDENTAL : op === 'div' ? DIVISION : arithmetic.includes(op) ? ARITHMETIC : EXACT;
    for (const d of WITH_INT64) {
      if ((op === 'sub' || op === 'pow') && d === 'bool') continue;
      const exponent = op === 'pow' && (d === 'int32' || d === 'int64') ? { ints: [0, 4] as const } : {};
      cases.push(one(`${op} ${d}`, op, [T([3, 4], d), T([3, 4], d, exponent)], noAttrs, tolerance));
    }
    // broadcasting, a mixed-dtype pair and a scalar parameter
    cases.push(one(`${op} float32[3,4] with int32[4]`, op, [T([3, 4], 'float32'), T([4], 'int32', op === 'pow' ? { ints: [0, 3] } : {})], noAttrs, tolerance));
    cases.push(one(`${op} bfloat16 with a scalar`, op, [T([2, 5], 'bfloat16'), S('bfloat16', 1.5)], noAttrs, tolerance));
    if (op.startsWith('logical') || op === 'pow') continue;
    cases.push(one(`${op} int64[3,4] with int32[4]`, op, [T([3, 4], 'int64'), T([4], 'int32')], noAttrs, tolerance));
    cases.push(one(`${op} int64 with a scalar`, op, [T([2, 5], 'int64'), S('int64', op === 'div' ? -3 : 2 ** 40)], noAttrs, tolerance));
  }
  // a float32 scalar beside bfloat16 (0.1 is no bfloat16 value): mul and div read it whole, in
  // float32; add and the comparisons round it to bfloat16 first (PyTorch CPU's rules)
  for (const op of ['add', 'mul', 'div', 'lt', 'eq']) cases.push(one(`${op} bfloat16 with a float32 scalar`, op, [T([2, 5], 'bfloat16'), S('float32', 0.1)], noAttrs, EXACT));
  // fmod and integer division toward zero, divisors away from 0 (ONNX fails there, XLA defines a value)
  for (const d of NUMERIC) cases.push(one(`fmod ${d}`, 'fmod', [T([3, 4], d), T([3, 4], d, d === 'int32' ? { ints: [1, 6] } : { finite: true })], noAttrs, ARITHMETIC));
  // PyTorch's integer pow by a negative exponent: 1 for 1, ±1 for -1, else 0
  for (const d of ['int32', 'int64'] as const) {
    cases.push(one(`pow ${d} by negative exponents`, 'pow', [T([3, 4], d, { values: [-3, -2, -1, 0, 1, 2, 3, -1, 1, 0, 2, -1] }), T([4], d, { values: [-1, -2, -3, 2] })], noAttrs, EXACT));
  }
  cases.push(one('fmod int32 by negatives', 'fmod', [T([3, 4], 'int32'), T([4], 'int32', { values: [-1, -3, 2, 5] })], noAttrs, EXACT));
  cases.push(one('divTruncInt int32', 'divTruncInt', [T([3, 4], 'int32'), T([4], 'int32', { values: [-1, -3, 2, 5] })], noAttrs, EXACT));
  cases.push(one('fmod int64 by negatives', 'fmod', [T([3, 4], 'int64'), T([4], 'int64', { values: [-1, -3, 2, 2 ** 35 + 1] })], noAttrs, EXACT));
  cases.push(one('divTruncInt int64', 'divTruncInt', [T([3, 4], 'int64'), T([4], 'int64', { values: [-1, -3, 2, 2 ** 35 + 1] })], noAttrs, EXACT));
  for (const d of WITH_INT64) {
    cases.push(one(`where ${d}`, 'where', [T([3, 4], 'bool'), T([3, 4], d), T([4], d)], noAttrs, EXACT));
  }
  cases.push(one('where float32 and int32 scalar', 'where', [T([3, 4], 'bool'), T([3, 4], 'float32'), S('float32', -2)], noAttrs, EXACT));
  // float results of any operands: atan2's quadrants and signed zeros, xlogy's zeros and NaN
  for (const op of ['atan2', 'xlogy']) {
    for (const d of WITH_INT64) cases.push(one(`${op} ${d}`, op, [T([3, 4], d), T([3, 4], d)], noAttrs, TRANSCENDENTAL));
    cases.push(one(`${op} float32[3,4] with int32[4]`, op, [T([3, 4], 'float32'), T([4], 'int32')], noAttrs, TRANSCENDENTAL));
    cases.push(one(`${op} bfloat16 with a scalar`, op, [T([2, 5], 'bfloat16'), S('bfloat16', 1.5)], noAttrs, TRANSCENDENTAL));
  }
  cases.push({ ...one('atan2 float32 signed zeros and infinities', 'atan2', [T([8], 'float32', { values: [0, -0, 0, -0, Infinity, -Infinity, 1, -1] }), T([8], 'float32', { values: [-0, -0, 0, 0, Infinity, -Infinity, -Infinity, -Infinity] })], noAttrs, TRANSCENDENTAL), pytorch: [Math.fround(Math.PI), -Math.fround(Math.PI), 0, -0, Math.fround(Math.PI / 4), Math.fround(-3 * Math.PI / 4), Math.fround(Math.PI), -Math.fround(Math.PI)] });
  cases.push({ ...one('xlogy float32 where x is 0', 'xlogy', [T([5], 'float32', { values: [0, 0, 0, -0, 2] }), T([5], 'float32', { values: [0, NaN, Infinity, -1, NaN] })], noAttrs, EXACT), pytorch: [0, NaN, 0, 0, NaN] });
  // the special functions' formulas (device/special-functions/) at their poles, ends and large arguments, against PyTorch's values
  const GAMMA_EDGES = [0, -0, -3, 1, 2, 0.5, -2.5, 1e-30, 1e30, Infinity, -Infinity, NaN];
  cases.push({ ...one('lgamma float32 edges', 'lgamma', [T([12], 'float32', { values: GAMMA_EDGES })], noAttrs, SPECIAL_FUNCTIONS), pytorch: [Infinity, Infinity, Infinity, 0, 0, 0.5723649, -0.05624372, 69.07755, 6.807755e31, Infinity, Infinity, NaN] });
  cases.push({ ...one('digamma float32 edges', 'digamma', [T([12], 'float32', { values: GAMMA_EDGES })], noAttrs, SPECIAL_FUNCTIONS), pytorch: [-Infinity, Infinity, NaN, -0.5772159, 0.42278421, -1.9635109, 1.1031567, -1e30, 69.07755, Infinity, NaN, NaN] });
  cases.push({ ...one('erfinv float32 edges', 'erfinv', [T([8], 'float32', { values: [0, -0, 1, -1, 1.5, 0.999999, -0.5, NaN] })], noAttrs, SPECIAL_FUNCTIONS), pytorch: [0, -0, Infinity, -Infinity, NaN, 3.4570746, -0.4769363, NaN] });
  return cases;
}

/** int64's ends (whose negation wraps) and values beyond int32, exact as doubles. */
const INT64_EDGES = [-(2 ** 63), 2 ** 62, -(2 ** 40) - 1, 2 ** 31, -1, 0];

function unaryCases(): PrimitiveCase[] {
  const promotes = ['exp', 'log', 'tanh', 'sqrt', 'rsqrt', 'reciprocal', 'sin', 'cos', 'sigmoid', 'erf', 'log1p', 'expm1', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'log2', 'log10',
    'lgamma', 'digamma', 'trigamma', 'erfinv'];
  const keeps = ['neg', 'relu', 'abs', 'sign', 'square', 'floor', 'ceil', 'round', 'trunc'];
  const predicates = ['logicalNot', 'isnan', 'isinf', 'isfinite'];
  return [
    ...promotes.flatMap((op) => WITH_INT64.map((d) => one(`${op} ${d}`, op, [T([4, 6], d)], noAttrs, unaryTolerance(op)))),
    ...keeps.flatMap((op) => [...NUMERIC, 'int64' as const].map((d) => one(`${op} ${d}`, op, [T([4, 6], d)], noAttrs, unaryTolerance(op)))),
    ...predicates.flatMap((op) => WITH_INT64.map((d) => one(`${op} ${d}`, op, [T([4, 6], d)], noAttrs, EXACT))),
    ...['neg', 'abs', 'sign', 'square', 'isnan', 'isinf', 'isfinite'].map((op) => one(`${op} int64 at its ends`, op, [T([4, 6], 'int64', { values: [...INT64_EDGES, ...Array.from({ length: 18 }, (_, i) => (i - 9) * 2 ** 35)] })], noAttrs, EXACT)),
  ];
}

function reduceCases(): PrimitiveCase[] {
  const cases: PrimitiveCase[] = [];
  const shapes: [string, { dims: number[]; keepdim: boolean }][] = [
    ['dim 1', { dims: [1], keepdim: false }], ['dims 0,2 keepdim', { dims: [0, 2], keepdim: true }], ['all', { dims: [0, 1, 2], keepdim: false }],
  ];
  for (const [what, attrs] of shapes) {
    for (const op of ['sum', 'prod', 'amax', 'amin']) cases.push(one(`${op} int64 ${what}`, op, [T([3, 5, 4], 'int64')], attrs, EXACT));
    for (const d of ALL) {
      const finite = { finite: true };
      cases.push(one(`sum ${d} ${what}`, 'sum', [T([3, 5, 4], d, finite)], attrs, d === 'float32' || d === 'bfloat16' ? REDUCTION : EXACT));
      cases.push(one(`prod ${d} ${what}`, 'prod', [T([3, 5, 4], d, d === 'int32' ? { ints: [-2, 2] } : { finite: true })], attrs, d === 'int32' || d === 'bool' ? EXACT : REDUCTION));
      cases.push(one(`any ${d} ${what}`, 'any', [T([3, 5, 4], d)], attrs, EXACT));
      cases.push(one(`all ${d} ${what}`, 'all', [T([3, 5, 4], d, d === 'bool' ? {} : { ints: [0, 9] })], attrs, EXACT));
      if (d === 'bool') continue;
      cases.push(one(`amax ${d} ${what}`, 'amax', [T([3, 5, 4], d, finite)], attrs, EXACT));
      cases.push(one(`amin ${d} ${what}`, 'amin', [T([3, 5, 4], d, finite)], attrs, EXACT));
      if (d !== 'int32') cases.push(one(`mean ${d} ${what}`, 'mean', [T([3, 5, 4], d, finite)], attrs, REDUCTION));
    }
    // a result dtype of its own: the float32 mean rounded once to bfloat16, a bfloat16 one widened
    cases.push(one(`mean float32 with bfloat16 dtype ${what}`, 'mean', [T([3, 5, 4], 'float32', { finite: true })], { ...attrs, dtype: 'bfloat16' }, REDUCTION));
    cases.push(one(`mean bfloat16 with float32 dtype ${what}`, 'mean', [T([3, 5, 4], 'bfloat16', { finite: true })], { ...attrs, dtype: 'float32' }, REDUCTION));
  }
  // Empty reduced dims give the init values: 0 (sum), 1 (prod), false (any), true (all).
  for (const op of ['sum', 'prod', 'any', 'all']) {
    for (const d of ['float32', 'int32'] as const) cases.push(one(`${op} ${d} over an empty dim`, op, [T([0, 3], d)], { dims: [0], keepdim: false }, EXACT));
  }
  // PyTorch: 0/0; ONNX Runtime's ReduceMean gives 0.
  cases.push({ ...one('mean float32 over an empty dim', 'mean', [T([0, 3], 'float32')], { dims: [0], keepdim: true }, EXACT), pytorch: [NaN, NaN, NaN] });
  cases.push(one('cumsum float32 of an empty dim', 'cumsum', [T([2, 0], 'float32')], { dim: 1, reverse: false, exclusive: true }, EXACT));
  // NaN anywhere in the reduced elements makes amax/amin NaN (PyTorch); ONNX Runtime's
  // ReduceMax/ReduceMin skip it (3 and 1 here).
  const withNan = (op: string, values: number[], pytorch: number[]) =>
    ({ ...one(`${op} float32 with NaN`, op, [T([2, 3], 'float32', { values })], { dims: [1], keepdim: false }, EXACT), pytorch });
  // logSoftmax, lowered as its composition on both backends
  cases.push(one('logSoftmax float32 dim 1', 'logSoftmax', [T([3, 5, 4], 'float32', { finite: true })], { dim: 1 }, REDUCTION));
  cases.push(one('logSoftmax float32 last dim', 'logSoftmax', [T([6, 10], 'float32', { finite: true })], { dim: 1 }, REDUCTION));
  cases.push(withNan('amax', [1, NaN, 3, -1, -2, -3], [NaN, -1]));
  cases.push(withNan('amin', [1, 2, NaN, -1, -2, -3], [NaN, -3]));
  // The sign of a zero result, as PyTorch gives it (compared sign included; checked with torch 2.13).
  const signed = (op: string, operands: number[][], pytorch: number[]) =>
    ({ ...one(`${op} float32 signed zeros`, op, operands.map((values) => T([values.length], 'float32', { values })), noAttrs, EXACT), pytorch });
  const nearZero = [-0.5, -0, 0, -1e-30, 1e-30, -0.999];
  cases.push(signed('maximum', [[-0, 0, -0, 0, -1, -0], [0, -0, -0, 0, -0, 3]], [-0, 0, -0, 0, -0, 3]));
  cases.push(signed('minimum', [[-0, 0, -0, 0, -1, -0], [0, -0, -0, 0, -0, 3]], [-0, 0, -0, 0, -1, -0]));
  cases.push(signed('relu', [[-0, 0, -1, NaN]], [-0, 0, 0, NaN]));
  cases.push(signed('floor', [nearZero], [-1, -0, 0, -1, 0, -1]));
  cases.push(signed('ceil', [nearZero], [-0, -0, 0, -0, 1, -0]));
  cases.push(signed('trunc', [nearZero], [-0, -0, 0, -0, 0, -0]));
  cases.push(signed('round', [nearZero], [-0, -0, 0, -0, 0, -1]));
  cases.push({ ...signed('expm1', [nearZero], [-0.39346933364868164, -0, 0, -1e-30, 1e-30, -0.6317524909973145]), tolerance: TRANSCENDENTAL });
  const negZeros = T([2, 2], 'float32', { values: [-0, -0, 0, -0] });
  cases.push({ ...one('sum float32 of -0s starts from +0', 'sum', [negZeros], { dims: [1], keepdim: false }, EXACT), pytorch: [0, 0] });
  cases.push({ ...one('cumsum float32 of -0s starts from +0', 'cumsum', [negZeros], { dim: 1, reverse: false, exclusive: false }, EXACT), pytorch: [0, 0, 0, 0] });
  cases.push({ ...signed('log1p', [nearZero], [-0.6931471824645996, -0, 0, -1e-30, 1e-30, -6.907768249511719]), tolerance: TRANSCENDENTAL });
  const argInputs: [string, OperandSpec][] = [
    ['float32 ties', T([3, 4], 'float32', { values: [1, 3, 3, 0, 2, 2, 2, 2, -1, 5, -1, 5] })],
    ['bfloat16', T([3, 4], 'bfloat16', { finite: true })],
    ['int32 ties', T([3, 4], 'int32', { ints: [0, 2] })],
    // below -2^31: an int32 initial value would beat them
    ['int64 beyond int32', T([3, 4], 'int64', { values: [-(2 ** 40), -(2 ** 41), -(2 ** 40), 5, -(2 ** 62), 2 ** 50, 3, 2 ** 50, 0, -1, -(2 ** 33), -(2 ** 33)] })],
  ];
  // PyTorch: NaN is the extreme of both, its first index wins.
  const nans = T([2, 4], 'float32', { values: [1, NaN, 3, NaN, 2, -1, 2, -1] });
  cases.push({ ...one('argmax float32 with NaN', 'argmax', [nans], { dim: 1, keepdim: false }, EXACT), pytorch: [1, 0] });
  cases.push({ ...one('argmin float32 with NaN', 'argmin', [nans], { dim: 1, keepdim: false }, EXACT), pytorch: [1, 1] });
  for (const op of ['argmax', 'argmin']) {
    for (const [what, x] of argInputs) {
      cases.push(one(`${op} ${what} dim 1`, op, [x], { dim: 1, keepdim: false }, EXACT));
      cases.push(one(`${op} ${what} dim 0 keepdim`, op, [x], { dim: 0, keepdim: true }, EXACT));
      cases.push(one(`${op} ${what} flattened`, op, [x], { dim: null, keepdim: false }, EXACT));
    }
  }
  for (const d of NUMERIC) {
    cases.push(one(`argmax ${d} 3-D dim 1`, 'argmax', [T([2, 5, 3], d, { finite: true })], { dim: 1, keepdim: false }, EXACT));
    cases.push(one(`cumsum ${d} 3-D dim 0 reverse exclusive`, 'cumsum', [T([4, 2, 3], d, { finite: true })], { dim: 0, reverse: true, exclusive: true }, d === 'int32' ? EXACT : REDUCTION));
  }
  for (const d of WITH_INT64) {
    for (const [what, reverse, exclusive] of [['', false, false], [' reverse', true, false], [' exclusive', false, true], [' reverse exclusive', true, true]] as const) {
      cases.push(one(`cumsum ${d}${what}`, 'cumsum', [T([3, 6], d, { finite: true })], { dim: 1, reverse, exclusive }, d === 'float32' || d === 'bfloat16' ? REDUCTION : EXACT));
    }
  }
  return cases;
}

function layoutCases(): PrimitiveCase[] {
  const int64 = [
    one('reshape int64', 'reshape', [T([2, 6], 'int64')], { shape: [3, 2, 2] }, EXACT),
    one('permute int64', 'permute', [T([2, 3, 4], 'int64')], { perm: [2, 0, 1] }, EXACT),
    one('expand int64', 'expand', [T([3, 1], 'int64')], { shape: [2, 3, 4] }, EXACT),
    one('slice int64 steps', 'slice', [T([7, 8], 'int64')], { begin: [1, 7], step: [2, -3], count: [3, 3] }, EXACT),
    one('embedSlice int64 steps', 'embedSlice', [T([3, 3], 'int64')], { begin: [1, 7], step: [2, -3], count: [3, 3], shape: [7, 8] }, EXACT),
    one('slice int64 fed row', 'slice', [T([7, 8], 'int64'), S('int32', 5)], { begin: [0, 1], step: [1, 2], count: [2, 3], fed: [0] }, EXACT),
    one('concat int64 with int32', 'concat', [T([2, 3], 'int64'), T([2, 1], 'int32'), T([2, 2], 'int64')], { dim: 1 }, EXACT),
  ];
  return [...int64, ...ALL.flatMap((d) => [
    one(`reshape ${d}`, 'reshape', [T([2, 6], d)], { shape: [3, 2, 2] }, EXACT),
    one(`permute ${d}`, 'permute', [T([2, 3, 4], d)], { perm: [2, 0, 1] }, EXACT),
    one(`expand ${d}`, 'expand', [T([3, 1], d)], { shape: [2, 3, 4] }, EXACT),
    one(`slice ${d} steps`, 'slice', [T([7, 8], d)], { begin: [1, 7], step: [2, -3], count: [3, 3] }, EXACT),
    one(`slice ${d} empty`, 'slice', [T([7, 8], d)], { begin: [0, 2], step: [1, 1], count: [0, 4] }, EXACT),
    one(`embedSlice ${d} steps`, 'embedSlice', [T([3, 3], d)], { begin: [1, 7], step: [2, -3], count: [3, 3], shape: [7, 8] }, EXACT),
    // fed begins (x.at(i), narrow): the scalar operands, not begin, place the elements
    one(`slice ${d} fed rows`, 'slice', [T([7, 8], d), S('int32', 5)], { begin: [0, 1], step: [1, 2], count: [2, 3], fed: [0] }, EXACT),
    one(`slice ${d} fed element`, 'slice', [T([7, 8], d), S('int32', 6), S('int32', 3)], { begin: [0, 0], step: [1, 1], count: [1, 2], fed: [0, 1] }, EXACT),
    one(`embedSlice ${d} fed rows`, 'embedSlice', [T([2, 3], d), S('int32', 4)], { begin: [0, 1], step: [1, 2], count: [2, 3], shape: [7, 8], fed: [0] }, EXACT),
    one(`pad ${d}`, 'pad', [T([3, 4], d), S(d, d === 'bool' ? 1 : 2)], { pads: [[1, 2], [0, 3]] }, EXACT),
    one(`pad ${d} cropping`, 'pad', [T([5, 4], d), S(d, 0)], { pads: [[-1, 2], [1, -2]] }, EXACT),
    one(`concat ${d} with float32`, 'concat', [T([2, 3], d), T([2, 1], 'float32'), T([2, 2], d)], { dim: 1 }, EXACT),
    one(`trilu ${d} upper +1`, 'trilu', [T([2, 4, 5], d)], { upper: true, diagonal: 1 }, EXACT),
    one(`trilu ${d} lower -1`, 'trilu', [T([4, 5], d)], { upper: false, diagonal: -1 }, EXACT),
  ])];
}

// Indices in range: a negative index is an error in these primitives (PyTorch's index_select,
// gather, scatter_add), which the ONNX backend raises and XLA cannot.
function indexCases(): PrimitiveCase[] {
  const cases = [
    one('indexSelect float32 int64 index', 'indexSelect', [T([4, 5, 3], 'float32'), T([2, 3], 'int64', { ints: [0, 4] })], { dim: 1 }, EXACT),
    one('gather float32 int64 index', 'gather', [T([4, 5], 'float32'), T([6, 4], 'int64', { ints: [0, 3] })], { dim: 0 }, EXACT),
    one('scatterAdd float32 int64 index', 'scatterAdd', [T([4, 5], 'float32', { finite: true }), T([4, 3], 'int64', { ints: [0, 4] }), T([4, 3], 'float32', { finite: true })], { dim: 1 }, REDUCTION),
  ];
  cases.push(...WITH_INT64.flatMap((d) => [
    one(`indexSelect ${d} 2-D index`, 'indexSelect', [T([4, 5, 3], d), T([2, 3], 'int32', { ints: [0, 4] })], { dim: 1 }, EXACT),
    one(`indexSelect ${d} 0-d index`, 'indexSelect', [T([4, 5], d), T([], 'int32', { values: [3] })], { dim: 0 }, EXACT),
    one(`gather ${d}`, 'gather', [T([4, 5], d), T([6, 4], 'int32', { ints: [0, 3] })], { dim: 0 }, EXACT),
  ]));
  for (const d of WITH_INT64) {
    // duplicate indices: several sources add into one element
    cases.push(one(`scatterAdd ${d}`, 'scatterAdd', [T([4, 5], d, { finite: true }), T([4, 3], 'int32', { ints: [0, 4] }), T([4, 3], d, { finite: true })], { dim: 1 }, d === 'float32' || d === 'bfloat16' ? REDUCTION : EXACT));
    // no index repeated in a row: of repeated ones, XLA keeps any update and ONNX Runtime the last
    cases.push(one(`scatter ${d}`, 'scatter', [T([4, 5], d), T([4, 2], 'int64', { values: [4, 0, 1, 3, 0, 2, 3, 1] }), T([4, 2], d)], { dim: 1 }, EXACT));
  }
  // prod, amax and amin with repeated indices (amax and amin exact; prod's order of products may differ)
  for (const d of ['float32', 'bfloat16', 'int32', 'int64'] as const) {
    for (const reduce of ['prod', 'amax', 'amin']) {
      const operands = [T([4, 5], d, { finite: true, ...(d === 'int32' || d === 'int64' ? { ints: [-3, 3] as const } : {}) }), T([4, 3], 'int32', { ints: [0, 4] }), T([4, 3], d, { finite: true, ...(d === 'int32' || d === 'int64' ? { ints: [-3, 3] as const } : {}) })];
      cases.push(one(`scatterReduce ${reduce} ${d}`, 'scatterReduce', operands, { dim: 1, reduce, includeSelf: true }, reduce === 'prod' && (d === 'float32' || d === 'bfloat16') ? REDUCTION : EXACT));
      cases.push(one(`scatterReduce ${reduce} ${d} without the input's values`, 'scatterReduce', operands, { dim: 1, reduce, includeSelf: false }, reduce === 'prod' && (d === 'float32' || d === 'bfloat16') ? REDUCTION : EXACT));
    }
  }
  const topkInputs: [string, OperandSpec][] = [
    ['float32 ties', T([3, 6], 'float32', { values: [1, 3, 3, 0, -0, 2, 2, 2, 2, 2, 5, 5, -1, 5, -1, 5, 0, 7] })],
    ['bfloat16', T([3, 6], 'bfloat16', { finite: true })],
    ['int32 ties', T([3, 6], 'int32', { ints: [0, 3] })],
    ['int64', T([3, 6], 'int64')],
  ];
  // PyTorch: NaN is larger than every number.
  const nans = T([2, 4], 'float32', { values: [1, NaN, 3, 2, 0, -1, NaN, 5] });
  cases.push({ ...one('topkValues float32 with NaN largest', 'topkValues', [nans], { dim: 1, k: 2, largest: true }, EXACT), pytorch: [NaN, 3, NaN, 5] });
  cases.push({ ...one('topkIndices float32 with NaN largest', 'topkIndices', [nans], { dim: 1, k: 2, largest: true }, EXACT), pytorch: [1, 2, 2, 3] });
  cases.push({ ...one('topkValues float32 with NaN smallest', 'topkValues', [nans], { dim: 1, k: 2, largest: false }, EXACT), pytorch: [1, 2, -1, 0] });
  cases.push({ ...one('topkIndices float32 with NaN smallest', 'topkIndices', [nans], { dim: 1, k: 2, largest: false }, EXACT), pytorch: [0, 3, 1, 0] });
  for (const op of ['topkValues', 'topkIndices']) {
    for (const [what, x] of topkInputs) {
      cases.push(one(`${op} ${what} largest`, op, [x], { dim: 1, k: 3, largest: true }, EXACT));
      cases.push(one(`${op} ${what} smallest dim 0`, op, [x], { dim: 0, k: 2, largest: false }, EXACT));
      cases.push(one(`${op} ${what} full sort`, op, [x], { dim: 1, k: 6, largest: true }, EXACT));
    }
  }
  return cases;
}

function contractionCases(): PrimitiveCase[] {
  const mm = (label: string, a: OperandSpec, b: OperandSpec, precision: 'highest' | 'default', tol: Tolerance) =>
    one(`matmul ${label} ${precision}`, 'matmul', [a, b], { precision }, tol);
  const finite = { finite: true };
  const cases = [
    ...NUMERIC.flatMap((d) => [
      mm(`${d} [3,5]x[5,4]`, T([3, 5], d, finite), T([5, 4], d, finite), 'highest', d === 'int32' ? EXACT : REDUCTION),
      mm(`${d} batched broadcast`, T([2, 1, 3, 5], d, finite), T([3, 5, 2], d, finite), 'highest', d === 'int32' ? EXACT : REDUCTION),
      mm(`${d} vector x matrix`, T([5], d, finite), T([5, 4], d, finite), 'highest', d === 'int32' ? EXACT : REDUCTION),
      mm(`${d} matrix x vector`, T([3, 5], d, finite), T([5], d, finite), 'highest', d === 'int32' ? EXACT : REDUCTION),
    ]),
    mm('float32 [2,0]x[0,3] (zeros)', T([2, 0], 'float32'), T([0, 3], 'float32'), 'highest', EXACT),
    // XLA:CPU multiplies DEFAULT in full float32; the ONNX backend rounds the operands to
    // bfloat16 (a TPU's one pass): bfloat16-level agreement only.
    mm('float32 [3,5]x[5,4]', T([3, 5], 'float32', finite), T([5, 4], 'float32', finite), 'default', { abs: 0.1, rel: 0.02 }),
  ];
  const conv = { stride: [1, 1], padding: [0, 0], dilation: [1, 1], groups: 1 };
  const convs: [string, number[], number[], object][] = [
    ['plain', [2, 3, 6, 7], [4, 3, 3, 2], conv],
    ['stride padding dilation', [1, 2, 9, 8], [3, 2, 3, 3], { stride: [2, 1], padding: [1, 2], dilation: [2, 1], groups: 1 }],
    ['groups', [1, 4, 5, 5], [6, 2, 3, 3], { ...conv, groups: 2, padding: [1, 1] }],
  ];
  for (const d of FLOATS) {
    for (const [what, xs, ws, attrs] of convs) {
      cases.push(one(`conv2d ${d} ${what}`, 'conv2d', [T(xs, d, finite), T(ws, d, finite)], attrs, REDUCTION));
    }
    const transposed: [string, number[], number[], object][] = [
      ['plain', [2, 3, 4, 5], [3, 2, 3, 2], { ...conv, outputPadding: [0, 0] }],
      ['stride padding dilation output padding', [1, 2, 4, 3], [2, 3, 3, 3], { stride: [2, 3], padding: [1, 0], dilation: [1, 2], groups: 1, outputPadding: [1, 2] }],
      ['groups', [1, 4, 3, 3], [4, 3, 2, 2], { ...conv, groups: 2, stride: [2, 2], outputPadding: [0, 0] }],
      // PyTorch allows an output padding below the dilation only (ONNX Runtime's ConvTranspose does not)
      ['output padding below the dilation, at or above the stride', [1, 2, 3, 4], [2, 2, 2, 3], { stride: [2, 1], padding: [0, 1], dilation: [3, 3], groups: 1, outputPadding: [2, 2] }],
    ];
    for (const [what, xs, ws, attrs] of transposed) {
      cases.push(one(`convTranspose2d ${d} ${what}`, 'convTranspose2d', [T(xs, d, finite), T(ws, d, finite)], attrs, REDUCTION));
    }
  }
  return cases;
}

/**
 * Collectives over a group of one chip (one device for XLA:CPU; the embedded backend runs them
 * between program parts); test/distributed checks them across 4 chips.
 */
function collectiveCases(): PrimitiveCase[] {
  const one_ = { groups: [[0]], rank: 0 };
  return [
    // products (their combining region multiplies), bool's or (max) and and (min), and int64's
    // reductions other than a sum (gathered, then reduced on the chip: XLA:TPU has no such all-reduce)
    ...(['int32', 'int64'] as const).map((d) => one(`all_reduce ${d} product`, 'all_reduce', [T([3, 4], d)], { ...one_, reduce: 'product' }, EXACT)),
    one('all_reduce int64 max', 'all_reduce', [T([3, 4], 'int64')], { ...one_, reduce: 'max' }, EXACT),
    one('reduce_scatter int64 product', 'reduce_scatter', [T([4, 3], 'int64')], { ...one_, reduce: 'product', dim: 0, sizes: [4] }, EXACT),
    ...(['max', 'min'] as const).map((r) => one(`all_reduce bool ${r}`, 'all_reduce', [T([3, 4], 'bool')], { ...one_, reduce: r }, EXACT)),
    ...FLOATS.flatMap((d) => [
      one(`all_reduce ${d} sum`, 'all_reduce', [T([3, 4], d)], { ...one_, reduce: 'sum' }, EXACT),
      one(`all_reduce ${d} max`, 'all_reduce', [T([3, 4], d)], { ...one_, reduce: 'max' }, EXACT),
      one(`all_reduce ${d} product`, 'all_reduce', [T([3, 4], d)], { ...one_, reduce: 'product' }, EXACT),
      one(`reduce_scatter ${d} product`, 'reduce_scatter', [T([4, 3], d)], { ...one_, reduce: 'product', dim: 0, sizes: [4] }, EXACT),
      one(`all_gather ${d}`, 'all_gather', [T([3, 4], d)], { ...one_, dim: 1, sizes: [4] }, EXACT),
      one(`reduce_scatter ${d} mean`, 'reduce_scatter', [T([3, 4], d, { finite: true })], { ...one_, reduce: 'mean', dim: 0, sizes: [3] }, EXACT),
      one(`all_to_all ${d}`, 'all_to_all', [T([2, 3], d)], { ...one_, splitDim: 0, concatDim: 1 }, EXACT),
      one(`collective_permute ${d}`, 'collective_permute', [T([5], d)], { ...one_, pairs: [[0, 0]] }, EXACT),
      one(`collective_broadcast ${d}`, 'collective_broadcast', [T([5], d)], { ...one_, src: 0 }, EXACT),
    ]),
  ];
}

function valueCases(): PrimitiveCase[] {
  const constants: [DType, number[]][] = [
    ['float32', [0.1, -0, NaN, Infinity, -Infinity, 3]], ['bfloat16', [0.1, -2.5, NaN, 1e30, -1e-30, 3]],
    ['int32', [0, -1, 2 ** 31 - 1, -(2 ** 31), 7, 8]], ['bool', [1, 0, 0, 1, 1, 1]],
    ['int64', [0, -1, 2 ** 53, -(2 ** 63), 2 ** 31, 8]],
  ];
  return [
    ...constants.map(([d, values]) => one(`constant ${d}`, 'constant', [], { shape: [2, 3], dtype: d, values }, EXACT)),
    one('constant float32 0-d', 'constant', [], { shape: [], dtype: 'float32', values: [0.5] }, EXACT),
    ...WITH_INT64.flatMap((d) => WITH_INT64.map((to) => one(`fill ${to} from ${d} scalar`, 'fill', [S(d, d === 'bool' ? 1 : d === 'int32' ? -3 : d === 'int64' ? -(2 ** 40) : 2.5)], { shape: [2, 3], dtype: to }, EXACT))),
    ...WITH_INT64.map((d) => one(`identity ${d}`, 'identity', [T([3, 4], d)], noAttrs, EXACT)),
    // a check that passes (code 0): the value as it is; a failing code is test/pjrt/stablehlo-device-check.test.ts's
    ...(['float32', 'bfloat16', 'int32'] as const).map((d) => one(`deviceCheck ${d}`, 'deviceCheck', [T([3, 4], d), T([], 'int32', { values: [0] })], { op: 'linalg.inv', text: 'pivot {k}', n: 4, batched: false }, EXACT)),
    // float -> int truncates toward zero; NaN and infinities have no int32 or int64 (left out);
    // int64 -> int32 keeps the low 32 bits on both backends, as PyTorch.
    ...WITH_INT64.flatMap((d) => WITH_INT64.map((to) => one(`cast ${d} to ${to}`, 'cast', [T([4, 6], d, to === 'int32' || to === 'int64' ? { finite: true } : {})], { dtype: to }, EXACT))),
  ];
}

/** Bitwise ops of bools and integers (last in the list: the other cases keep their seeds). */
function bitwiseCases(): PrimitiveCase[] {
  const cases: PrimitiveCase[] = [];
  for (const d of ['bool', 'int32', 'int64'] as const) {
    for (const op of ['bitwiseAnd', 'bitwiseOr', 'bitwiseXor']) cases.push(one(`${op} ${d}`, op, [T([3, 4], d), T([4], d)], noAttrs, EXACT));
  }
  // shift counts out of range: negative, the width and past it
  for (const d of ['int32', 'int64'] as const) {
    const counts = d === 'int32' ? [0, 1, 5, 31, 32, 40, -1, -33, 3, 7, 30, 2] : [0, 1, 35, 63, 64, 70, -1, -65, 3, 40, 62, 2];
    for (const op of ['bitwiseLeftShift', 'bitwiseRightShift']) {
      cases.push(one(`${op} ${d} with counts out of range`, op, [T([3, 4], d, { values: [5, -5, -(2 ** 30), 1, -1, 7, 7, -7, 2 ** 30, -3, 1, 9] }), T([3, 4], d, { values: counts })], noAttrs, EXACT));
    }
  }
  for (const d of ['bool', 'int32', 'int64'] as const) cases.push(one(`bitwiseNot ${d}`, 'bitwiseNot', [T([4, 6], d)], noAttrs, EXACT));
  cases.push(one('bitwiseNot int64 at its ends', 'bitwiseNot', [T([6], 'int64', { values: INT64_EDGES })], noAttrs, EXACT));
  return cases;
}

export const PRIMITIVE_CASES: readonly PrimitiveCase[] = [
  ...binaryCases(), ...unaryCases(), ...reduceCases(), ...layoutCases(), ...indexCases(), ...contractionCases(), ...valueCases(),
  ...collectiveCases(), ...bitwiseCases(),
];
