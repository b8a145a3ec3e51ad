// Seeded random programs written as PyTorch users write them (number literals, mixed dtypes,
// broadcasting, views, reductions, rounded division, where with a literal, index tensors,
// in-place updates of clones) for the PyTorch tier: random-programs.test.ts compares their
// values, random-gradients.test.ts the gradients of float32 ones.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import type { InputSpec, TorchCase } from './torch-tier.js';

type DType = InputSpec['dtype'];
const DTYPES: DType[] = ['float32', 'bfloat16', 'int32', 'int64', 'bool'];

function rng(seed: number) {
  let s = (seed * 2654435761) >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

/** Values every dtype holds exactly: small integers, halves and quarters for floats. */
function values(pick: (n: number) => number, n: number, dtype: DType): (number | boolean)[] {
  return Array.from({ length: n }, () => {
    if (dtype === 'bool') return pick(2) === 0;
    const whole = pick(9) - 4;
    return dtype === 'float32' || dtype === 'bfloat16' ? whole + [0, 0.5, 0.25, -0.5][pick(4)]! : whole;
  });
}

/** One step: the runtime's spelling over `t` and the operands, and PyTorch's over `t` and x1, x2, ... */
interface Step {
  js: (t: Tensor, xs: Tensor[]) => Tensor;
  py: string;
  /** The rank of `t` after the step. */
  rank: number;
  /**
   * PyTorch's sign of a zero result depends on its kernel's path: matmul of 0 and -1 with one
   * contracted element gives -0 on [3, 1] @ [1, 3] but +0 batched ([2, 3, 1] @ [2, 1, 4]), in
   * bfloat16, or with a vector (PyTorch 2.13).
   */
  zeroSignUnspecified?: boolean;
}

const LITERALS = [2, -1, 3, 0.5, 1.5, -0.25];

type Method = (this: Tensor, ...args: unknown[]) => Tensor;
const methodOf = (t: Tensor, name: string) => (t as unknown as Record<string, Method>)[name]!;

/** t.name(), spelled the same in both: the result has rank `rank`. */
function method(name: string, rank: number): Step {
  return { js: (t) => methodOf(t, name).call(t), py: `t = t.${name}()`, rank };
}

/** t.name(dim, keepdim=...), spelled the same in both (keepdim a keyword: var/std's second positional is unbiased). */
function along(name: string, dim: number, keep: boolean, rank: number): Step {
  return { js: (t) => methodOf(t, name).call(t, dim, { keepdim: keep }), py: `t = t.${name}(${dim}, keepdim=${keep ? 'True' : 'False'})`, rank: keep ? rank : rank - 1 };
}
const litText = (v: number) => String(v);

function step(pick: (n: number) => number, rank: number, shape: number[], addInput: (shape: number[]) => number, addIds: (shape: number[], below: number) => number): Step | null {
  const dim = rank ? pick(rank) : 0;
  const operandShape = () => {
    let s = shape.map((d) => (pick(3) === 0 ? 1 : d));
    if (pick(3) === 0) s = s.slice(pick(s.length + 1));
    return s;
  };
  const group = pick(3);
  if (group === 0) return moreSteps(pick, rank, shape, dim, operandShape, addInput);
  if (group === 1 && rank > 0) return indexingSteps(pick, rank, shape, dim, addIds);
  switch (pick(20)) {
    case 0: case 1: {
      const [op, py] = [['add', '+'], ['sub', '-'], ['mul', '*'], ['div', '/']][pick(4)]!;
      const k = addInput(operandShape());
      return { js: (t, xs) => methodOf(t, op).call(t, xs[k]!), py: `t = t ${py} x${k}`, rank };
    }
    case 2: case 3: {
      const [op, py] = [['add', '+'], ['sub', '-'], ['mul', '*'], ['div', '/']][pick(4)]!;
      const v = LITERALS[pick(LITERALS.length)]!;
      return { js: (t) => methodOf(t, op).call(t, v), py: `t = t ${py} ${litText(v)}`, rank };
    }
    case 4: {
      const mode = (['floor', 'trunc'] as const)[pick(2)];
      const k = addInput(operandShape());
      return { js: (t, xs) => t.div(xs[k]!, { roundingMode: mode }), py: `t = torch.div(t, x${k}, rounding_mode='${mode}')`, rank };
    }
    case 5: {
      const k = addInput(operandShape());
      return pick(2) === 0
        ? { js: (t, xs) => t.remainder(xs[k]!), py: `t = torch.remainder(t, x${k})`, rank }
        : { js: (t, xs) => t.maximum(xs[k]!), py: `t = torch.maximum(t, x${k})`, rank };
    }
    case 6: return [
      method('abs', rank),
      { js: (t: Tensor) => t.neg(), py: 't = -t', rank },
      { js: (t: Tensor) => t.pow(2), py: 't = t ** 2', rank },
      { js: (t: Tensor) => t.clamp(-1, 2), py: 't = torch.clamp(t, -1, 2)', rank },
    ][pick(4)]!;
    case 7: return method(['exp', 'sigmoid', 'sqrt', 'tanh'][pick(4)]!, rank);
    case 8: {
      const v = LITERALS[pick(LITERALS.length)]!;
      return pick(2) === 0
        ? { js: (t) => t.gt(v), py: `t = t > ${litText(v)}`, rank }
        : { js: (t) => tpu.where(t.gt(0), t, v), py: `t = torch.where(t > 0, t, ${litText(v)})`, rank };
    }
    case 9: {
      const k = addInput(operandShape());
      return { js: (t, xs) => tpu.where(t.lt(xs[k]!), xs[k]!, t), py: `t = torch.where(t < x${k}, x${k}, t)`, rank };
    }
    case 10: {
      if (rank === 0) return null;
      const keep = pick(2) === 0;
      return along(['sum', 'mean', 'amax', 'argmax'][pick(4)]!, dim, keep, rank);
    }
    case 11: return { js: (t) => t.sum(), py: 't = t.sum()', rank: 0 };
    case 12: {
      if (rank === 0) return null;
      return pick(2) === 0
        ? { js: (t) => t.cumsum(dim), py: `t = t.cumsum(${dim})`, rank }
        : { js: (t) => t.softmax(dim), py: `t = t.softmax(${dim})`, rank };
    }
    case 13: return rank === 2 ? { js: (t) => t.T, py: 't = t.T', rank } : null;
    case 14: return rank >= 1 ? { js: (t) => t.reshape([-1]), py: 't = t.reshape(-1)', rank: 1 } : null;
    case 15: {
      if (rank === 0 || shape[dim]! < 2) return null;
      return { js: (t) => t.narrow(dim, 1, shape[dim]! - 1), py: `t = t.narrow(${dim}, 1, ${shape[dim]! - 1})`, rank };
    }
    case 16: {
      if (rank !== 2) return null;
      const k = addInput([shape[1]!, 1 + pick(3)]);
      return { js: (t, xs) => t.matmul(xs[k]!), py: `t = t @ x${k}`, rank: 2, zeroSignUnspecified: true };
    }
    case 17: return rank >= 1 ? { js: (t) => t.unsqueeze(0), py: 't = t.unsqueeze(0)', rank: rank + 1 } : null;
    case 18: {
      const to = (['float32', 'int32', 'int64', 'bool'] as const)[pick(4)];
      const pyType = { float32: 'torch.float32', int32: 'torch.int32', int64: 'torch.int64', bool: 'torch.bool' }[to];
      return { js: (t) => t.to(to), py: `t = t.to(${pyType})`, rank };
    }
    default: {
      const k = addInput(operandShape());
      return { js: (t, xs) => t.mul(xs[k]!).add(1), py: `t = t * x${k} + 1`, rank };
    }
  }
}

/** Unary math, statistics, concatenation, masks and in-place updates (on a clone, as users write them). */
function moreSteps(pick: (n: number) => number, rank: number, shape: number[], dim: number, operandShape: () => number[], addInput: (shape: number[]) => number): Step | null {
  const keep = pick(2) === 0;
  const kd = keep ? 'True' : 'False';
  switch (pick(14)) {
    case 0: return method(['floor', 'round', 'sign', 'relu'][pick(4)]!, rank);
    case 1: return [
      method('log', rank),
      method('log1p', rank),
      method('reciprocal', rank),
      { js: (t: Tensor) => t.pow(0.5), py: 't = t ** 0.5', rank },
    ][pick(4)]!;
    case 2: return rank === 0 ? null : along(['var', 'std', 'logsumexp', 'prod'][pick(4)]!, dim, keep, rank);
    case 3: {
      if (rank === 0) return null;
      return pick(2) === 0
        ? { js: (t) => t.max(dim, keep).values, py: `t = t.max(${dim}, keepdim=${kd}).values`, rank: keep ? rank : rank - 1 }
        : { js: (t) => t.min(dim, keep).indices, py: `t = t.min(${dim}, keepdim=${kd}).indices`, rank: keep ? rank : rank - 1 };
    }
    case 4: return method(['mean', 'max', 'prod'][pick(3)]!, 0);
    case 5: {
      if (rank === 0) return null;
      const k = addInput([...shape]);
      return pick(2) === 0
        ? { js: (t, xs) => tpu.concat([t, xs[k]!], dim), py: `t = torch.cat([t, x${k}], ${dim})`, rank }
        : { js: (t, xs) => tpu.stack([t, xs[k]!], dim), py: `t = torch.stack([t, x${k}], ${dim})`, rank: rank + 1 };
    }
    case 6: return rank === 0 ? null : { js: (t) => t.flip(dim), py: `t = t.flip(${dim})`, rank };
    case 7: {
      const v = LITERALS[pick(LITERALS.length)]!;
      const k = addInput(operandShape());
      return { js: (t, xs) => t.maskedFill(xs[k]!.gt(0), v), py: `t = t.masked_fill(x${k} > 0, ${litText(v)})`, rank };
    }
    case 8: {
      const k = addInput(operandShape());
      return pick(2) === 0
        ? { js: (t, xs) => t.fmod(xs[k]!), py: `t = torch.fmod(t, x${k})`, rank }
        : { js: (t, xs) => t.pow(xs[k]!), py: `t = t ** x${k}`, rank };
    }
    case 9: {
      const k = addInput(operandShape());
      return pick(2) === 0
        ? { js: (t, xs) => t.eq(xs[k]!), py: `t = t == x${k}`, rank }
        : { js: (t, xs) => t.ne(xs[k]!).logicalNot(), py: `t = torch.logical_not(t != x${k})`, rank };
    }
    case 10: case 11: {
      // In place on a clone: the result keeps t's dtype, or PyTorch refuses the cast
      const v = LITERALS[pick(LITERALS.length)]!;
      const [m, py] = [['add_', '+='], ['sub_', '-='], ['mul_', '*='], ['div_', '/=']][pick(4)]!;
      return { js: (t) => { const c = t.clone(); methodOf(c, m).call(c, v); return c; }, py: `t = t.clone(); t ${py} ${litText(v)}`, rank };
    }
    case 12: {
      const k = addInput(operandShape());
      return { js: (t, xs) => { const c = t.clone(); c.add_(xs[k]!); return c; }, py: `t = t.clone(); t += x${k}`, rank };
    }
    default: {
      if (rank === 0) return null;
      return pick(2) === 0
        ? { js: (t) => t.clone().clamp_(-1, 1), py: 't = t.clone().clamp_(-1, 1)', rank }
        : { js: (t) => { const c = t.clone(); c.at(0).fill_(7); return c; }, py: 't = t.clone(); t[0] = 7', rank };
    }
  }
}

/** Index tensors (int64 ids, in range), negative positions, broadcasts, triangles, top-k, any/all. */
function indexingSteps(pick: (n: number) => number, rank: number, shape: number[], dim: number, addIds: (shape: number[], below: number) => number): Step | null {
  const n = shape[dim]!;
  switch (pick(9)) {
    case 0: {
      const k = addIds([1 + pick(3)], n);
      return { js: (t, xs) => t.indexSelect(dim, xs[k]!), py: `t = t.index_select(${dim}, x${k})`, rank };
    }
    case 1: {
      const k = addIds(shape.map((d, i) => (i === dim ? 1 + pick(3) : d)), n);
      return { js: (t, xs) => t.gather(dim, xs[k]!), py: `t = t.gather(${dim}, x${k})`, rank };
    }
    case 2: return { js: (t) => t.at(-1), py: 't = t[-1]', rank: rank - 1 };
    case 3: {
      if (!shape.includes(1)) return null;
      const to = shape.map((d) => (d === 1 ? 2 : d));
      return { js: (t) => t.expand(to), py: `t = t.expand(${to.join(', ')})`, rank };
    }
    case 4: {
      const times = shape.map((_, i) => (i === dim ? 2 : 1));
      return { js: (t) => t.repeat(times), py: `t = t.repeat(${times.join(', ')})`, rank };
    }
    case 5: {
      if (rank !== 2) return null;
      const d = pick(3) - 1;
      return pick(2) === 0 ? { js: (t) => t.tril(d), py: `t = t.tril(${d})`, rank } : { js: (t) => t.triu(d), py: `t = t.triu(${d})`, rank };
    }
    case 6: return { js: (t) => t.topk(1, dim).values, py: `t = t.topk(1, ${dim}).values`, rank };
    case 7: return pick(2) === 0
      ? { js: (t) => t.any(dim), py: `t = t.any(${dim})`, rank: rank - 1 }
      : { js: (t) => t.all(dim), py: `t = t.all(${dim})`, rank: rank - 1 };
    default: return { js: (t) => t.isnan(), py: 't = t.isnan()', rank };
  }
}

/** The shape of `t` after a step, from running it on zeros (the runtime's shape rules, which the tier checks), or null if it throws. */
function shapeAfter(s: Step, shape: number[], operands: InputSpec[]): number[] | null {
  try {
    const xs = [tpu.zeros(shape), ...operands.slice(1).map((o) => tpu.zeros([...o.shape], { dtype: o.dtype }))];
    return [...s.js(xs[0]!, xs).shape];
  } catch {
    return null;
  }
}

/**
 * Steps whose result has no gradient (bools, integers, indices) or whose PyTorch backward is
 * undefined, and topk: PyTorch leaves the order among tied values unspecified, so which of
 * them gets the gradient is too.
 */
const NO_GRADIENT = /^t = t [<>]=? |^t = t == |logical_not|isnan|\.any\(|\.all\(|argm(ax|in)|\.indices|\.to\(torch\.(int|bool)|rounding_mode|topk/;

/**
 * A random program over its first input, x0. With `gradient`, every input is float32, every
 * step has a gradient, and the case's answer is the gradient of the result's sum with respect
 * to x0 (tpu.grad here, backward() in PyTorch).
 */
export function randomProgram(seed: number, { gradient = false } = {}): TorchCase {
  const pick = rng(seed);
  const dtypeOf = () => (gradient ? 'float32' : DTYPES[pick(DTYPES.length)]!);
  const dtype = dtypeOf();
  // mostly small tensors; now and then a 0-d one or one with an empty dim
  let shape = [[3], [2, 3], [3, 1], [2, 2], [4], [3], [2, 3], [], [0, 3], [2, 0]][pick(10)]!;
  const inputs: InputSpec[] = [{ values: values(pick, shape.reduce((a, b) => a * b, 1), dtype), shape, dtype }];
  const addInput = (s: number[]) => {
    const d = dtypeOf();
    inputs.push({ values: values(pick, s.reduce((a, b) => a * b, 1), d), shape: s, dtype: d });
    return inputs.length - 1;
  };
  /** An int64 index input of `s`'s shape, each index below `below`. */
  const addIds = (s: number[], below: number) => {
    inputs.push({ values: Array.from({ length: s.reduce((a, b) => a * b, 1) }, () => pick(below)), shape: s, dtype: 'int64' });
    return inputs.length - 1;
  };
  const steps: Step[] = [];
  let rank = shape.length;
  const want = 2 + pick(4);
  for (let tries = 0; steps.length < want && tries < 30; tries++) {
    const before = inputs.length;
    const s = step(pick, rank, shape, addInput, addIds);
    const next = s && shapeAfter(s, shape, inputs);
    if (!s || !next || next.length > 3 || next.some((d) => d > 8) || (gradient && NO_GRADIENT.test(s.py))) {
      inputs.length = before; // the step's operands go with it
      continue;
    }
    steps.push(s);
    shape = next;
    rank = s.rank;
  }
  const run = (xs: Tensor[], x = xs[0]!) => steps.reduce((t, s) => s.js(t, xs), x);
  const pySteps = steps.flatMap((s) => (gradient ? [s.py, NOTE_NONFINITE, NOTE_NONFINITE_GRADIENT] : [s.py, NOTE_NONFINITE]));
  return {
    name: `random ${gradient ? 'gradient' : 'program'} ${seed}`,
    inputs,
    js: gradient ? (...xs: Tensor[]) => tpu.grad((x: Tensor) => run(xs, x).sum())(xs[0]!) : (...xs: Tensor[]) => run(xs),
    // Debug mode raises at a step that makes a NaN or Inf, even when a later step hides it.
    py: (gradient
      ? ['x0.requires_grad_(True)', 't = x0', 'nonfinite_on_the_way = False', ...NOTE_GRADIENT_HOOK, ...pySteps, 't.sum().backward()', 'result = x0.grad if x0.grad is not None else torch.zeros_like(x0)']
      : ['t = x0', 'nonfinite_on_the_way = False', ...pySteps, 'result = t']).join('\n'),
    // A bfloat16 step may round one ulp apart (0.4%) where float32 work lands on a tie, and carry it on.
    rtol: inputs.some((x) => x.dtype === 'bfloat16') ? 2e-2 : 1e-4,
    atol: 1e-5,
    signedZeros: !gradient && !steps.some((s) => s.zeroSignUnspecified),
  };
}

const NOTE_NONFINITE = 'nonfinite_on_the_way = nonfinite_on_the_way or (t.is_floating_point() and not bool(torch.isfinite(t).all()))';
/** Backward's intermediate gradients count too: debug mode checks every op of the backward pass. */
const NOTE_GRADIENT_HOOK = [
  'def note_gradient(g):',
  '    global nonfinite_on_the_way',
  '    nonfinite_on_the_way = nonfinite_on_the_way or not bool(torch.isfinite(g).all())',
];
const NOTE_NONFINITE_GRADIENT = 't.register_hook(note_gradient) if t.requires_grad else None';
