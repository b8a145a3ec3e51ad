// Seeded random tensor programs for the differential fuzzer: one step list, run two ways
// (the runtime in a mode, and a float64 reference over the same steps) and printed as code.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import {
  bf16, broadcastRef, mapRef, matmulRef, ravel, reduceRef, seededValues, size, sumRef, unravel, type Ref,
} from '../reference.js';

export type FuzzDType = 'float32' | 'bfloat16' | 'int32';

/** One step of a program; `operand` is a fresh input (values, shape) for binary ops and matmul. */
export type Step =
  | { op: 'add' | 'sub' | 'mul' | 'maximum'; operand: Ref }
  | { op: 'matmul'; operand: Ref }
  | { op: 'neg' | 'abs' | 'tanh' | 'sqrtAbs' | 'expTanh' }
  | { op: 'sum' | 'mean'; dim: number; keepdim: boolean }
  | { op: 'transpose' }
  | { op: 'flattenReshape'; shape: number[] }
  | { op: 'slice'; dim: number; start: number; end: number }
  | { op: 'indexSelect'; dim: number; index: number[] }
  | { op: 'gather'; dim: number; index: Ref }
  | { op: 'amax'; dim: number; keepdim: boolean }
  /** where(t > operand, t, -t): a bool mask made and consumed inside the program. */
  | { op: 'flipWhereGreater'; operand: Ref }
  /** t.add_(operand) on whatever t is (often a view): only with FUZZ_INPLACE=1. */
  | { op: 'addInPlace'; operand: Ref }
  /** A JS number literal as users write it (`t.mul(2)`, `t.div(4)`), dtype-preserving for the program's dtype. */
  | { op: 'addScalar' | 'subScalar' | 'mulScalar' | 'divScalar'; value: number }
  | { op: 'clamp'; min: number; max: number }
  /** Float programs: a positive divisor, so no quotient is near infinite. */
  | { op: 'divPositive'; operand: Ref }
  | { op: 'softmax' | 'logSoftmax' | 'cumsum'; dim: number }
  | { op: 'square' }
  /** where(t > 0, t, 0): a literal 0 as the other branch (relu as users write it). */
  | { op: 'reluWhere' };

/** In-place writes through views are generated only when FUZZ_INPLACE=1 (off by default). */
const INPLACE = process.env.FUZZ_INPLACE === '1';

export interface Program { seed: number; dtype: FuzzDType; input: Ref; steps: Step[] }

function rng(seed: number) {
  let s = (seed * 2654435761) >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

const isFloat = (d: FuzzDType) => d !== 'int32';

function values(n: number, seed: number, dtype: FuzzDType): number[] {
  const v = seededValues(n, seed, -2, 2);
  return dtype === 'int32' ? v.map((x) => Math.round(x * 2)) : v.map(round(dtype));
}

/** The value a dtype stores (float32 and bfloat16 round to nearest even; int32 is exact here). */
export const round = (dtype: FuzzDType | 'float64') => (x: number) =>
  dtype === 'bfloat16' ? bf16(x) : dtype === 'float32' ? Math.fround(x) : x;

/** A random program of 2..7 steps over a rank-1 or rank-2 input (shapes stay small). */
export function generate(seed: number): Program {
  const pick = rng(seed);
  const dtype = (['float32', 'bfloat16', 'int32'] as const)[pick(3)]!;
  let shape = pick(4) === 0 ? [1 + pick(6)] : [1 + pick(5), 1 + pick(5)];
  const input = { shape, data: values(size(shape), seed + 1, dtype) };
  const steps: Step[] = [];
  const n = 2 + pick(6);
  for (let i = 0; steps.length < n && i < 40; i++) {
    const step = randomStep(pick, shape, dtype, seed * 100 + i);
    if (!step) continue;
    steps.push(step);
    shape = stepShape(step, shape);
  }
  return { seed, dtype, input, steps };
}

function randomStep(pick: (n: number) => number, shape: number[], dtype: FuzzDType, s: number): Step | null {
  const nd = shape.length;
  const broadcastOperand = () => {
    let os = shape.map((d) => (pick(3) === 0 ? 1 : d));
    if (pick(3) === 0) os = os.slice(pick(os.length + 1));
    return { shape: os, data: values(size(os), s, dtype) };
  };
  if (pick(3) === 0) return naturalStep(pick, shape, dtype, s);
  switch (pick(INPLACE ? 14 : 13)) {
    case 10: return nd === 0 ? null : { op: 'amax', dim: pick(nd), keepdim: pick(2) === 0 };
    case 11: return { op: 'flipWhereGreater', operand: broadcastOperand() };
    case 12: {
      if (nd === 0) return null;
      const dim = pick(nd);
      const is = shape.map((d, i) => (i === dim ? 1 + pick(4) : 1 + pick(d)));
      return { op: 'gather', dim, index: { shape: is, data: Array.from({ length: size(is) }, () => pick(shape[dim]!)) } };
    }
    case 13: return { op: 'addInPlace', operand: { shape: [...shape], data: values(size(shape), s, dtype) } };
    case 0: case 1: {
      // A broadcast operand: leading dims dropped or any dim set to 1.
      let os = shape.map((d) => (pick(3) === 0 ? 1 : d));
      if (pick(3) === 0) os = os.slice(pick(os.length + 1));
      const op = (['add', 'sub', 'mul', 'maximum'] as const)[pick(4)]!;
      return { op, operand: { shape: os, data: values(size(os), s, dtype) } };
    }
    case 2: {
      const op = isFloat(dtype) ? (['neg', 'abs', 'tanh', 'sqrtAbs', 'expTanh'] as const)[pick(5)]! : (['neg', 'abs'] as const)[pick(2)]!;
      return { op };
    }
    case 3: {
      if (nd === 0) return null;
      const op = isFloat(dtype) && pick(2) === 0 ? 'mean' : 'sum';
      return { op, dim: pick(nd), keepdim: pick(2) === 0 };
    }
    case 4: return nd === 2 ? { op: 'transpose' } : null;
    case 5: {
      if (nd === 0) return null;
      const total = size(shape);
      const divisors = Array.from({ length: total }, (_, i) => i + 1).filter((d) => total % d === 0);
      const a = divisors[pick(divisors.length)]!;
      return { op: 'flattenReshape', shape: pick(3) === 0 ? [total] : [a, total / a] };
    }
    case 6: {
      if (nd === 0) return null;
      const dim = pick(nd);
      const start = pick(shape[dim]!);
      return { op: 'slice', dim, start, end: start + 1 + pick(shape[dim]! - start) };
    }
    case 7: {
      if (nd === 0) return null;
      const dim = pick(nd);
      return { op: 'indexSelect', dim, index: Array.from({ length: 1 + pick(4) }, () => pick(shape[dim]!)) };
    }
    default: {
      if (nd !== 2 || dtype === 'int32') return null;
      // A 1-D operand half the time: matrix times vector.
      const os = pick(2) === 0 ? [shape[1]!] : [shape[1]!, 1 + pick(4)];
      return { op: 'matmul', operand: { shape: os, data: values(size(os), s, dtype) } };
    }
  }
}

/** Steps written as PyTorch users write them: number literals, clamps, softmax, cumsum. */
function naturalStep(pick: (n: number) => number, shape: number[], dtype: FuzzDType, s: number): Step | null {
  const nd = shape.length;
  const literals = isFloat(dtype) ? [1, 2, 0.5, 3, -1.5, 4] : [1, 2, 3, -2];
  switch (pick(6)) {
    case 0: {
      const ops = isFloat(dtype) ? (['addScalar', 'subScalar', 'mulScalar', 'divScalar'] as const) : (['addScalar', 'subScalar', 'mulScalar'] as const);
      return { op: ops[pick(ops.length)]!, value: literals[pick(literals.length)]! };
    }
    case 1: return isFloat(dtype) ? { op: 'clamp', min: -1, max: 1.5 } : { op: 'clamp', min: -2, max: 3 };
    case 2: {
      if (!isFloat(dtype)) return null;
      let os = shape.map((d) => (pick(3) === 0 ? 1 : d));
      if (pick(3) === 0) os = os.slice(pick(os.length + 1));
      return { op: 'divPositive', operand: { shape: os, data: values(size(os), s, dtype).map((v) => round(dtype)(Math.abs(v) + 0.5)) } };
    }
    case 3: {
      // int32 cumsum is int64 in PyTorch: the fuzzer's programs keep one dtype, so floats only.
      if (nd === 0 || !isFloat(dtype)) return null;
      return { op: (['softmax', 'logSoftmax', 'cumsum'] as const)[pick(3)]!, dim: pick(nd) };
    }
    case 4: return { op: 'square' };
    default: return { op: 'reluWhere' };
  }
}

function stepShape(step: Step, shape: number[]): number[] {
  return refStep(step, { shape, data: new Array(size(shape)).fill(0) }, 'float32').shape;
}

/** The float64 reference of one step, rounded to the dtype after the op (as the runtime does). */
export function refStep(step: Step, x: Ref, dtype: FuzzDType | 'float64'): Ref {
  const r = round(dtype);
  const fin = (a: Ref) => mapRef(a, r);
  switch (step.op) {
    case 'add': return fin(broadcastRef(x, step.operand, (a, b) => a + b));
    case 'sub': return fin(broadcastRef(x, step.operand, (a, b) => a - b));
    case 'mul': return fin(broadcastRef(x, step.operand, (a, b) => a * b));
    case 'maximum': return fin(broadcastRef(x, step.operand, (a, b) => Math.max(a, b)));
    case 'matmul': {
      const v = step.operand.shape.length === 1;
      const out = matmulRef(x, v ? { shape: [step.operand.shape[0]!, 1], data: step.operand.data } : step.operand);
      return fin(v ? { shape: [out.shape[0]!], data: out.data } : out);
    }
    case 'neg': return fin(mapRef(x, (v) => -v));
    case 'abs': return fin(mapRef(x, Math.abs));
    case 'tanh': return fin(mapRef(x, Math.tanh));
    case 'sqrtAbs': return fin(mapRef(fin(mapRef(x, Math.abs)), Math.sqrt));
    case 'expTanh': return fin(mapRef(fin(mapRef(x, Math.tanh)), Math.exp));
    case 'sum': return fin(sumRef(x, [step.dim], step.keepdim));
    case 'mean': {
      const s = sumRef(x, [step.dim], step.keepdim);
      return fin(mapRef(s, (v) => v / x.shape[step.dim]!));
    }
    case 'transpose': {
      const [m, n] = x.shape as [number, number];
      const data = new Array(m * n);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) data[j * m + i] = x.data[i * n + j];
      return { shape: [n, m], data };
    }
    case 'flattenReshape': return { shape: [...step.shape], data: [...x.data] };
    case 'amax': return reduceRef(x, [step.dim], step.keepdim, (v) => Math.max(...v));
    case 'flipWhereGreater': return broadcastRef(x, step.operand, (a, b) => (a > b ? a : -a));
    case 'addScalar': return fin(mapRef(x, (v) => v + step.value));
    case 'subScalar': return fin(mapRef(x, (v) => v - step.value));
    case 'mulScalar': return fin(mapRef(x, (v) => v * step.value));
    case 'divScalar': return fin(mapRef(x, (v) => v / step.value));
    case 'clamp': return mapRef(x, (v) => Math.min(Math.max(v, step.min), step.max));
    case 'divPositive': return fin(broadcastRef(x, step.operand, (a, b) => a / b));
    case 'square': return fin(mapRef(x, (v) => v * v));
    case 'reluWhere': return mapRef(x, (v) => (v > 0 ? v : 0));
    case 'softmax': case 'logSoftmax': case 'cumsum': return fin(alongDim(x, step.dim, step.op));
    case 'addInPlace': return fin(broadcastRef(x, step.operand, (a, b) => a + b));
    case 'gather': {
      const ix = step.index;
      const data = ix.data.map((v, k) => {
        const idx = unravel(k, ix.shape);
        idx[step.dim] = v;
        return x.data[ravel(idx, x.shape)]!;
      });
      return { shape: [...ix.shape], data };
    }
    case 'slice': case 'indexSelect': {
      const picks = step.op === 'slice'
        ? Array.from({ length: step.end - step.start }, (_, i) => step.start + i) : step.index;
      const shape = x.shape.map((d, i) => (i === step.dim ? picks.length : d));
      const data = Array.from({ length: size(shape) }, (_, k) => {
        const idx = unravel(k, shape);
        idx[step.dim] = picks[idx[step.dim]!]!;
        return x.data[ravel(idx, x.shape)]!;
      });
      return { shape, data };
    }
  }
}

/** softmax, logSoftmax or cumsum of every line of `x` along `dim`, in float64. */
function alongDim(x: Ref, dim: number, op: 'softmax' | 'logSoftmax' | 'cumsum'): Ref {
  const data = [...x.data];
  const n = x.shape[dim]!;
  const stride = x.shape.slice(dim + 1).reduce((a, b) => a * b, 1);
  for (let k = 0; k < x.data.length; k++) {
    if (Math.floor(k / stride) % n !== 0) continue; // k starts a line
    const at = Array.from({ length: n }, (_, i) => k + i * stride);
    const v = at.map((i) => x.data[i]!);
    let out: number[];
    if (op === 'cumsum') {
      let acc = 0;
      out = v.map((e) => (acc += e));
    } else {
      const m = Math.max(...v);
      const lse = m + Math.log(v.reduce((a, e) => a + Math.exp(e - m), 0));
      out = v.map((e) => (op === 'softmax' ? Math.exp(e - lse) : e - lse));
    }
    at.forEach((i, j) => (data[i] = out[j]!));
  }
  return { shape: [...x.shape], data };
}

/** The runtime form of one step (what the printed program says). */
export function runStep(step: Step, x: Tensor, dtype: FuzzDType): Tensor {
  const operand = () => tpu.tensor((step as { operand: Ref }).operand.data, { dtype }).reshape((step as { operand: Ref }).operand.shape);
  switch (step.op) {
    case 'add': case 'sub': case 'mul': case 'maximum': case 'matmul': return x[step.op](operand());
    case 'neg': return x.neg();
    case 'abs': return x.abs();
    case 'tanh': return x.tanh();
    case 'sqrtAbs': return x.abs().sqrt();
    case 'expTanh': return x.tanh().exp();
    case 'sum': return x.sum(step.dim, step.keepdim);
    case 'mean': return x.mean(step.dim, step.keepdim);
    case 'transpose': return x.transpose(0, 1);
    case 'flattenReshape': return x.reshape(step.shape);
    case 'slice': return x.slice(step.dim, step.start, step.end);
    case 'indexSelect': return x.indexSelect(step.dim, tpu.tensor(step.index, { dtype: 'int32' }));
    case 'gather': return x.gather(step.dim, tpu.tensor(step.index.data, { dtype: 'int32' }).reshape(step.index.shape));
    case 'amax': return x.amax(step.dim, step.keepdim);
    case 'flipWhereGreater': return tpu.where(x.gt(operand()), x, x.neg());
    case 'addInPlace': return (x as unknown as { add_(o: Tensor): Tensor }).add_(operand());
    case 'addScalar': return x.add(step.value);
    case 'subScalar': return x.sub(step.value);
    case 'mulScalar': return x.mul(step.value);
    case 'divScalar': return x.div(step.value);
    case 'clamp': return x.clamp(step.min, step.max);
    case 'divPositive': return x.div(operand());
    case 'square': return x.pow(2);
    case 'reluWhere': return tpu.where(x.gt(0), x, 0);
    case 'softmax': return x.softmax(step.dim);
    case 'logSoftmax': return x.logSoftmax(step.dim);
    case 'cumsum': return x.cumsum(step.dim);
  }
}

/** The program as code a user can paste to reproduce it. */
export function programText(p: Program): string {
  const lit = (r: Ref) => `tpu.tensor([${r.data.join(', ')}], { dtype: '${p.dtype}' }).reshape([${r.shape}])`;
  const lines = [`let t = ${lit(p.input)};`];
  for (const s of p.steps) {
    const call = {
      add: 0, sub: 0, mul: 0, maximum: 0, matmul: 0,
    }[s.op as 'add'] === 0 ? `t.${s.op}(${lit((s as { operand: Ref }).operand)})`
      : s.op === 'sqrtAbs' ? 't.abs().sqrt()' : s.op === 'expTanh' ? 't.tanh().exp()'
      : s.op === 'sum' || s.op === 'mean' ? `t.${s.op}(${s.dim}, ${s.keepdim})`
      : s.op === 'transpose' ? 't.transpose(0, 1)'
      : s.op === 'flattenReshape' ? `t.reshape([${s.shape}])`
      : s.op === 'slice' ? `t.slice(${s.dim}, ${s.start}, ${s.end})`
      : s.op === 'gather' ? `t.gather(${s.dim}, tpu.tensor([${s.index.data}], { dtype: 'int32' }).reshape([${s.index.shape}]))`
      : s.op === 'amax' ? `t.amax(${s.dim}, ${s.keepdim})`
      : s.op === 'flipWhereGreater' ? `tpu.where(t.gt(${lit(s.operand)}), t, t.neg())`
      : s.op === 'addInPlace' ? `t.add_(${lit(s.operand)})`
      : s.op === 'indexSelect' ? `t.indexSelect(${s.dim}, tpu.tensor([${s.index}], { dtype: 'int32' }))`
      : s.op === 'addScalar' || s.op === 'subScalar' || s.op === 'mulScalar' || s.op === 'divScalar' ? `t.${s.op.slice(0, 3)}(${s.value})`
      : s.op === 'clamp' ? `t.clamp(${s.min}, ${s.max})`
      : s.op === 'divPositive' ? `t.div(${lit(s.operand)})`
      : s.op === 'square' ? 't.pow(2)'
      : s.op === 'reluWhere' ? 'tpu.where(t.gt(0), t, 0)'
      : s.op === 'softmax' || s.op === 'logSoftmax' || s.op === 'cumsum' ? `t.${s.op}(${s.dim})`
      : `t.${s.op}()`;
    lines.push(`t = ${call};`);
  }
  return lines.join('\n');
}
