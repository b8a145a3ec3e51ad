// tpu.bernoulli / x.bernoulli_ and tpu.multinomial: what is certain (probabilities 0 and 1, a
// one-hot row, dtypes, shapes, errors) against PyTorch 2.13 in every mode; the distributions by
// their statistics, with bounds derived here from the sample size; determinism under tpu.manualSeed.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i64, seq, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  // bernoulli
  { name: 'bernoulli of probabilities 0 and 1 is certain, in the input\'s dtype', inputs: [f32([[0, 1, 1], [0, 0, 1]]), bf16([1, 0])], js: (p, h) => [tpu.bernoulli(p), h.bernoulli()], py: '[torch.bernoulli(x0), x1.bernoulli()]' },
  { name: 'bernoulli with a number p: the input\'s shape and dtype', inputs: [seq('float32', [2, 3]), seq('int64', [4])], js: (x, l) => [tpu.bernoulli(x, 1), tpu.bernoulli(x, 0), l.bernoulli(1)], py: '[torch.bernoulli(x0, 1.0), torch.bernoulli(x0, 0.0), x1.bernoulli(1.0)]' },
  { name: 'bernoulli_ with a number, a tensor broadcast to x, and the default', inputs: [seq('float32', [2, 3]), f32([0, 1, 0]), seq('int64', [3]), bool([false, true])], js: (x, p, l, b) => [x.clone().bernoulli_(1), x.clone().bernoulli_(p), l.clone().bernoulli_(0), b.clone().bernoulli_(1), x.clone().bernoulli_().mul(0)], py: '[x0.clone().bernoulli_(1.0), x0.clone().bernoulli_(x1), x2.clone().bernoulli_(0.0), x3.clone().bernoulli_(1.0), x0.clone().bernoulli_() * 0]' },
  { name: 'bernoulli_ through a view writes its base', inputs: [seq('float32', [2, 3])], js: (x) => { const y = x.clone(); y.narrow(1, 1, 2).bernoulli_(1); return y; }, py: 'y = x0.clone()\ny.narrow(1, 1, 2).bernoulli_(1.0)\nresult = y' },
  { name: 'bernoulli of a probability above 1 is an error', inputs: [f32([0.5, 1.5])], js: (p) => tpu.bernoulli(p), py: 'torch.bernoulli(x0)' },
  { name: 'bernoulli of a negative probability is an error', inputs: [f32([-0.1])], js: (p) => tpu.bernoulli(p), py: 'torch.bernoulli(x0)' },
  { name: 'bernoulli of a NaN probability is an error', inputs: [f32([NaN])], js: (p) => tpu.bernoulli(p), py: 'torch.bernoulli(x0)' },
  { name: 'bernoulli of integer probabilities is an error', inputs: [i64([1, 0])], js: (p) => tpu.bernoulli(p), py: 'torch.bernoulli(x0)' },
  { name: 'bernoulli with a number p above 1 is an error', inputs: [f32([0.5])], js: (x) => tpu.bernoulli(x, 1.5), py: 'torch.bernoulli(x0, 1.5)' },
  { name: 'bernoulli_ with a number p above 1 is an error', inputs: [f32([0, 0])], js: (x) => x.clone().bernoulli_(1.2), py: 'x0.clone().bernoulli_(1.2)' },
  { name: 'bernoulli_ with a tensor holding a probability above 1 is an error', inputs: [f32([0, 0]), f32([0.1, 2])], js: (x, p) => x.clone().bernoulli_(p), py: 'x0.clone().bernoulli_(x1)' },
  { name: 'bernoulli_ with an integer tensor p is an error', inputs: [f32([0, 0]), i64([1, 0])], js: (x, p) => x.clone().bernoulli_(p), py: 'x0.clone().bernoulli_(x1)' },
  { name: 'bernoulli_ of a leaf that requires grad is an error', inputs: [f32([0, 0])], js: (x) => x.clone().requiresGrad_().bernoulli_(0.5), py: 'x0.clone().requires_grad_().bernoulli_(0.5)' },
  // multinomial
  { name: 'multinomial of one-hot rows, with and without replacement', inputs: [f32([0, 0, 3]), f32([[0, 1, 0], [2, 0, 0]])], js: (a, b) => [tpu.multinomial(a, 1), a.multinomial(4, { replacement: true }), tpu.multinomial(b, 1), b.multinomial(3, { replacement: true })], py: '[torch.multinomial(x0, 1), x0.multinomial(4, replacement=True), torch.multinomial(x1, 1), x1.multinomial(3, replacement=True)]' },
  { name: 'multinomial without replacement draws the weighted categories before the weight-0 ones', inputs: [f32([0, 0, 1])], js: (a) => [tpu.multinomial(a, 1), tpu.multinomial(a, 3).narrow(0, 0, 1), tpu.multinomial(a, 3).sort().values], py: '[torch.multinomial(x0, 1), torch.multinomial(x0, 3)[:1], torch.multinomial(x0, 3).sort().values]' },
  { name: 'multinomial shapes and dtype: int64, [n] or [rows, n], of bf16 weights and zero rows', inputs: [bf16([1, 1]), seq('float32', [0, 3])], js: (h, e) => [tpu.multinomial(h, 2).mul(0), tpu.multinomial(e, 2)], py: '[torch.multinomial(x0, 2) * 0, torch.multinomial(x1, 2)]' },
  { name: 'multinomial of more samples than categories without replacement is an error', inputs: [f32([0.1, 0, 0.9])], js: (p) => tpu.multinomial(p, 4), py: 'torch.multinomial(x0, 4)' },
  { name: 'multinomial of a negative weight is an error', inputs: [f32([-1, 2])], js: (p) => tpu.multinomial(p, 1), py: 'torch.multinomial(x0, 1)' },
  { name: 'multinomial of an infinite weight is an error', inputs: [f32([Infinity, 1])], js: (p) => tpu.multinomial(p, 1, { replacement: true }), py: 'torch.multinomial(x0, 1, replacement=True)' },
  { name: 'multinomial of weights summing to 0 is an error', inputs: [f32([[1, 1], [0, 0]])], js: (p) => tpu.multinomial(p, 1), py: 'torch.multinomial(x0, 1)' },
  { name: 'multinomial of a 0-d tensor is an error', inputs: [f32(1)], js: (p) => tpu.multinomial(p, 1), py: 'torch.multinomial(x0, 1)' },
  { name: 'multinomial of a 3-d tensor is an error', inputs: [seq('float32', [2, 2, 2], 1, 1)], js: (p) => tpu.multinomial(p, 1), py: 'torch.multinomial(x0, 1)' },
  { name: 'multinomial of 0 samples is an error', inputs: [f32([1, 2])], js: (p) => tpu.multinomial(p, 0), py: 'torch.multinomial(x0, 0)' },
  { name: 'multinomial of integer weights is an error', inputs: [i64([1, 2])], js: (p) => tpu.multinomial(p, 1), py: 'torch.multinomial(x0, 1)' },
  { name: 'multinomial with a misspelt option is an error', inputs: [f32([1, 2])], js: (p) => tpu.multinomial(p, 1, { replacemnt: true } as never), py: 'torch.multinomial(x0, 1, replacemnt=True)' },
];

torchTier('bernoulli and multinomial follow PyTorch where the answer is certain', cases);

/** |count - n·p| within 5 standard deviations of Binomial(n, p): a false failure about once in 1.7 million runs. */
function expectBinomial(count: number, n: number, p: number, what: string): void {
  const bound = 5 * Math.sqrt(n * p * (1 - p));
  expect(Math.abs(count - n * p), `${what}: ${count} of ${n} with p = ${p} (bound ${bound.toFixed(1)})`).toBeLessThanOrEqual(bound);
}

/**
 * Pearson's chi-square of observed counts against probabilities, and its p-value for 2 or 3
 * degrees of freedom (the closed forms: exp(-x/2), and erfc(√(x/2)) + √(2x/π)·exp(-x/2)); the
 * test fails below 1e-6, a false failure once in a million runs.
 */
function expectChiSquare(counts: readonly number[], probs: readonly number[], what: string): void {
  const n = counts.reduce((a, b) => a + b, 0);
  const x = counts.reduce((s, c, i) => s + (c - n * probs[i]!) ** 2 / (n * probs[i]!), 0);
  const df = counts.length - 1;
  if (df !== 2 && df !== 3) throw new Error('expectChiSquare: 3 or 4 categories');
  const erfc = (z: number) => { // Abramowitz–Stegun 7.1.26, |error| < 1.5e-7
    const t = 1 / (1 + 0.3275911 * z);
    return t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-z * z);
  };
  const pValue = df === 2 ? Math.exp(-x / 2) : erfc(Math.sqrt(x / 2)) + Math.sqrt((2 * x) / Math.PI) * Math.exp(-x / 2);
  expect(pValue, `${what}: counts ${counts} for probabilities ${probs} (chi-square ${x.toFixed(2)}, ${df} dof)`).toBeGreaterThan(1e-6);
}

const countsOf = (values: readonly number[], k: number) => values.reduce((c, v) => { c[v]!++; return c; }, new Array<number>(k).fill(0));

describe.each(['debug', 'strict', 'fused'] as const)('random draws in %s mode', (mode) => {
  const inMode = <T>(fn: () => T): T => tpu.withMode(mode, fn);

  it('bernoulli: each probability\'s count of ones is binomial', () => {
    const n = 20000;
    const probs = [0.1, 0.5, 0.9, 0.01];
    const p = tpu.tensor(probs).reshape([4, 1]).expand(4, n);
    const rows = inMode(() => tpu.bernoulli(p).sum(1)).tolist() as number[];
    rows.forEach((count, i) => expectBinomial(count, n, probs[i]!, `bernoulli row ${i}`));
    const scalar = inMode(() => tpu.bernoulli(tpu.zeros([n]), 0.3).sum()).item() as number;
    expectBinomial(scalar, n, 0.3, 'bernoulli(x, 0.3)');
    const inPlace = inMode(() => tpu.zeros([n]).bernoulli_(0.7).sum()).item() as number;
    expectBinomial(inPlace, n, 0.7, 'bernoulli_(0.7)');
    const byTensor = inMode(() => tpu.zeros([2, n]).bernoulli_(tpu.tensor([[0.2], [0.6]])).sum(1)).tolist() as number[];
    expectBinomial(byTensor[0]!, n, 0.2, 'bernoulli_(tensor) row 0');
    expectBinomial(byTensor[1]!, n, 0.6, 'bernoulli_(tensor) row 1');
  });

  it('multinomial with replacement: category counts fit the weights (chi-square)', () => {
    const weights = [1, 2, 3, 4];
    const draws = inMode(() => tpu.multinomial(tpu.tensor(weights), 20000, { replacement: true })).tolist() as number[];
    expectChiSquare(countsOf(draws, 4), weights.map((w) => w / 10), 'with replacement');
    // weights of 0 are never drawn
    const sparse = inMode(() => tpu.multinomial(tpu.tensor([0, 1, 0, 1, 0]), 2000, { replacement: true })).tolist() as number[];
    expect(new Set(sparse)).toEqual(new Set([1, 3]));
  });

  it('multinomial without replacement: first and second draws fit sequential drawing; rows hold no repeats', () => {
    const probs = [0.5, 0.3, 0.2];
    const rows = 20000;
    const draws = inMode(() => tpu.multinomial(tpu.tensor(probs).expand(rows, 3), 3)).tolist() as number[][];
    for (const row of draws) expect(new Set(row).size).toBe(3);
    expectChiSquare(countsOf(draws.map((r) => r[0]!), 3), probs, 'first draw');
    // P(second = j) = Σ_{i≠j} p_i · p_j / (1 - p_i)
    const second = probs.map((pj, j) => probs.reduce((s, pi, i) => (i === j ? s : s + (pi * pj) / (1 - pi)), 0));
    expectChiSquare(countsOf(draws.map((r) => r[1]!), 3), second, 'second draw');
  });
});

it('the same tpu.manualSeed gives the same draws; another seed others', () => {
  const draw = (seed: number): number[][] => {
    tpu.manualSeed(seed);
    const w = tpu.tensor([0.1, 0.2, 0.3, 0.4]);
    return [tpu.bernoulli(tpu.full([64], 0.5)), tpu.zeros([64]).bernoulli_(0.5), tpu.multinomial(w, 64, { replacement: true }), tpu.multinomial(w, 4)]
      .map((t: Tensor) => t.tolist() as number[]);
  };
  expect(draw(3)).toEqual(draw(3));
  expect(draw(4)).not.toEqual(draw(3));
});

it('a generator option is refused, naming tpu.manualSeed', () => {
  expect(() => tpu.multinomial(tpu.tensor([1, 1]), 1, { generator: {} as never })).toThrow(/tpu\.multinomial: the generator option is not supported: .*tpu\.manualSeed/);
  expect(() => tpu.bernoulli(tpu.tensor([0.5]), { generator: {} as never })).toThrow(/tpu\.bernoulli: the generator option is not supported/);
  expect(() => tpu.zeros([2]).bernoulli_(0.5, { generator: {} as never })).toThrow(/bernoulli_: the generator option is not supported/);
});

describe('bernoulli of a probability tensor draws on the device', () => {
  it('takes no read: tpu.compile traces it, and the draws follow the probabilities', () => {
    const masks = tpu.compile((p: Tensor, x: Tensor) => [tpu.bernoulli(p), x.clone().bernoulli_(p)]);
    const p = tpu.tensor([[0, 1, 1], [1, 0, 0]]);
    const [a, b] = masks(p, tpu.zeros([2, 3], { dtype: 'bfloat16' }));
    expect([a!.tolist(), b!.tolist(), b!.dtype]).toEqual([[[0, 1, 1], [1, 0, 0]], [[0, 1, 1], [1, 0, 0]], 'bfloat16']);
    const n = 20000;
    const count = masks(tpu.full([n], 0.25), tpu.zeros([n]))[1]!.sum().item() as number;
    expectBinomial(count, n, 0.25, 'compiled bernoulli');
  });

  it('fails at the next read on a probability outside [0, 1], naming its position; the session goes on', () => {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.withMode(mode, () => {
        const kept = tpu.tensor([3, 4]);
        expect(() => tpu.bernoulli(tpu.tensor([0.5, 1, 1.5])).tolist(), mode)
          .toThrow(/tpu\.bernoulli: every probability must be in \[0, 1\]; the one at flat position 3 \(1-based\) is not/);
        expect(() => tpu.zeros([2, 2]).bernoulli_(tpu.tensor([0.5, NaN])).tolist(), mode).toThrow(/bernoulli_: every probability must be in \[0, 1\]; the one at flat position 2/);
        expect([kept.tolist(), tpu.bernoulli(tpu.tensor([1, 0])).tolist()], mode).toEqual([[3, 4], [1, 0]]);
      });
    }
  });
});

describe('multinomial draws on the device', () => {
  it('takes no read: tpu.compile traces a sampling step, and certain draws are exact', () => {
    const step = tpu.compile((logits: Tensor, tokens: Tensor) => tpu.cat([tokens, logits.softmax(-1).multinomial(1)], -1));
    // one category far ahead of the others in each row: probability 1 - 1e-30 or so
    const tokens = step(tpu.tensor([[0, 80, 0], [80, 0, 0]]), tpu.zeros([2, 1], { dtype: 'int64' }));
    expect(tokens.tolist()).toEqual([[0, 1], [0, 0]]);
    const sample = tpu.compile((w: Tensor) => [w.multinomial(3), w.multinomial(4, { replacement: true })]);
    const [without, withR] = sample(tpu.tensor([[0, 5, 0], [0, 0, 2]]));
    expect(without!.narrow(1, 0, 1).tolist()).toEqual([[1], [2]]);
    expect(withR!.tolist()).toEqual([[1, 1, 1, 1], [2, 2, 2, 2]]);
  });

  it('fails at the next read on a bad row, naming it; the session goes on', () => {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.withMode(mode, () => {
        const kept = tpu.tensor([3, 4]);
        expect(() => tpu.multinomial(tpu.tensor([[1, 1], [1, -2]]), 1).tolist(), mode)
          .toThrow(/tpu\.multinomial: \(Batch element 1\): weights must be finite and non-negative; the one at index 2 \(1-based\) is not/);
        expect(() => tpu.multinomial(tpu.tensor([0, 0]), 1, { replacement: true }).tolist(), mode).toThrow(/tpu\.multinomial: the weights sum to 0/);
        expect([kept.tolist(), tpu.multinomial(tpu.tensor([0, 1]), 1).tolist()], mode).toEqual([[3, 4], [1]]);
      });
    }
  });
});
