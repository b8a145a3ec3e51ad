// Random chains of view ops (seeded) against PyTorch 2.13, with computed steps (mul, clone,
// exp: results in their input's layout) among them: after each chain, the strides of the
// result, whether view() was refused, and whether a fill_ through the result reached the
// base (aliasing) must all be PyTorch's.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { seq, torchTier, type TorchCase } from './torch-tier.js';
import { mulberry32 } from '../support/seeded-random.js';

interface Step {
  readonly js: (t: Tensor) => Tensor;
  readonly py: string;
  readonly shape: number[];
}

/** A new shape of the same size: adjacent dims merged, or one dim split into two factors. */
function regroup(shape: number[], r: () => number): number[] | null {
  if (shape.length >= 2 && r() < 0.5) {
    const d = Math.floor(r() * (shape.length - 1));
    return [...shape.slice(0, d), shape[d]! * shape[d + 1]!, ...shape.slice(d + 2)];
  }
  const splittable = shape.map((n, d) => [n, d] as const).filter(([n]) => n >= 4 && n % 2 === 0);
  if (!splittable.length) return null;
  const [n, d] = splittable[Math.floor(r() * splittable.length)]!;
  return [...shape.slice(0, d), 2, n / 2, ...shape.slice(d + 1)];
}

/** One random view step valid for `shape` (view() may still be refused, as in PyTorch). */
function step(shape: number[], r: () => number): Step {
  const pick = (n: number) => Math.floor(r() * n);
  const kind = pick(9);
  const nd = shape.length;
  if (kind === 0 && nd >= 2) {
    const perm = shape.map((_, i) => i).sort(() => r() - 0.5);
    return { js: (t) => t.permute(...perm), py: `.permute(${perm.join(', ')})`, shape: perm.map((p) => shape[p]!) };
  }
  if (kind === 1 && nd >= 2) {
    return { js: (t) => t.T, py: '.permute(*reversed(range(t.dim())))', shape: [...shape].reverse() };
  }
  if (kind === 2 && nd >= 1) {
    const d = pick(nd);
    const len = 1 + pick(shape[d]!);
    const start = pick(shape[d]! - len + 1);
    return { js: (t) => t.narrow(d, start, len), py: `.narrow(${d}, ${start}, ${len})`, shape: shape.map((n, i) => (i === d ? len : n)) };
  }
  if (kind === 3 && nd >= 1) {
    const d = pick(nd);
    const stepBy = 1 + pick(2);
    const count = Math.ceil(shape[d]! / stepBy);
    const index = shape.map((_, i) => (i === d ? `::${stepBy}` : ':'));
    return { js: (t) => t.at(...index), py: `[${index.join(', ')}]`, shape: shape.map((n, i) => (i === d ? count : n)) };
  }
  if (kind === 4 && nd < 4) {
    const d = pick(nd + 1);
    return { js: (t) => t.unsqueeze(d), py: `.unsqueeze(${d})`, shape: [...shape.slice(0, d), 1, ...shape.slice(d)] };
  }
  if (kind === 5 && shape.includes(1)) {
    const d = shape.indexOf(1);
    if (r() < 0.5) return { js: (t) => t.squeeze(d), py: `.squeeze(${d})`, shape: shape.filter((_, i) => i !== d) };
    const to = shape.map((n, i) => (i === d ? 3 : n));
    return { js: (t) => t.expand(to), py: `.expand(${to.join(', ')})`, shape: to };
  }
  if (kind === 6 && nd >= 1 && shape[0]! > 1) {
    const i = pick(shape[0]!);
    return { js: (t) => t.at(i), py: `[${i}]`, shape: shape.slice(1) };
  }
  if (kind === 8) {
    // a computed result in its input's layout (PyTorch's strides of results): later views alias it, not x0
    const computed: [(t: Tensor) => Tensor, string][] = [[(t) => t.mul(2), ' * 2'], [(t) => t.clone(), '.clone()'], [(t) => t.exp(), '.exp()']];
    const [js, py] = computed[pick(3)]!;
    return { js, py, shape };
  }
  const to = regroup(shape, r);
  if (to === null) return { js: (t) => t.flatten(), py: '.flatten()', shape: [shape.reduce((a, b) => a * b, 1)] };
  const method = r() < 0.5 ? 'view' : 'reshape';
  return { js: (t) => t[method](to), py: `.${method}(${to.join(', ')})`, shape: to };
}

function chainCase(seed: number): TorchCase {
  const r = mulberry32(seed);
  const start = [[4, 6], [2, 3, 4], [6, 4, 2], [8, 3]][seed % 4]!;
  const steps: Step[] = [];
  let shape = start;
  for (let k = 0; k < 2 + Math.floor(r() * 4); k++) {
    const s = step(shape, r);
    steps.push(s);
    shape = s.shape;
  }
  // T in Python needs the current tensor's rank: each step applies to `t`.
  const py = ['t = x0', ...steps.map((s) => `t = t${s.py}`), 'strides = torch.tensor(t.stride(), dtype=torch.int32)', 't.fill_(7)', 'result = (strides, x0)'].join('\n');
  return {
    name: `chain ${seed}: ${steps.map((s) => s.py).join('')}`,
    inputs: [seq('float32', start)],
    js: (x) => {
      const t = steps.reduce((v, s) => s.js(v), x);
      const strides = tpu.tensor(t.stride(), { dtype: 'int32' });
      t.fill_(7);
      return [strides, x];
    },
    py,
  };
}

torchTier('random view chains follow PyTorch', Array.from({ length: 60 }, (_, i) => chainCase(i + 1)));
