// tpu.manualSeed inside a compiled function seeds again on every replay, at its place among
// the body's random draws (rand, randn, dropout, bernoulli, multinomial), so each call gives
// the numbers an eager call gives, and the generator is left where an eager call leaves it (a
// rand() after the call draws the same numbers). Before, the seed ran at the trace only: the
// second call drew on from the first's state. The reference is eager execution, whose numbers
// the seed fixes (test/torch/bernoulli-multinomial.test.ts checks their distributions).
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { nn } = tpu;
type Nested = number | Nested[];

interface Case {
  readonly name: string;
  /** The body, called with `x` ([4] of 0.25, 0.5, 0.75, 1) and the call's number `k`. */
  readonly body: (x: Tensor, k: number) => Tensor;
  /** The numbers k of the calls (a number argument: the body may seed with it). */
  readonly ks?: readonly number[];
  /** Whether every call gives the same numbers (a fixed seed at the top of the body). */
  readonly repeats: boolean;
}

const dropout = new nn.Dropout(0.5);

const CASES: readonly Case[] = [
  { name: 'manualSeed(0) then rand', body: () => { tpu.manualSeed(0); return tpu.rand([3]); }, repeats: true },
  { name: 'manualSeed(3) then randn, plus an argument', body: (x) => { tpu.manualSeed(3); return tpu.randn([4]).add(x); }, repeats: true },
  { name: 'manualSeed(0) then nn.Dropout in training', body: (x) => { tpu.manualSeed(0); return dropout.forward(x.repeat([4]).add(1)); }, repeats: true },
  { name: 'manualSeed(1) then bernoulli of a tensor', body: (x) => { tpu.manualSeed(1); return tpu.bernoulli(x.mul(0.8)); }, repeats: true },
  { name: 'manualSeed(2) then multinomial', body: (x) => { tpu.manualSeed(2); return x.multinomial(3).float(); }, repeats: true },
  { name: 'rand, then manualSeed(0), then rand (the seed between draws)', body: () => { const a = tpu.rand([2]); tpu.manualSeed(0); return a.sum().add(tpu.rand([3])); }, repeats: false },
  { name: 'manualSeed(0), a draw the body drops, then rand', body: (x) => { tpu.manualSeed(0); tpu.rand([5]); return tpu.rand([2]).add(x.sum()); }, repeats: true },
  { name: 'manualSeed(k) with a number argument k', body: (x, k) => { tpu.manualSeed(k); return tpu.rand([2]).add(x.sum()); }, ks: [0, 1, 0, 1], repeats: false },
  { name: 'dropout with no seed in the body', body: (x) => dropout.forward(x.repeat([4])), repeats: false },
];

/** Each call's result and the rand([2]) drawn after it, from seed 42. */
function run(f: (x: Tensor, k: number) => Tensor, ks: readonly number[]): { calls: Nested[]; after: Nested[] } {
  const x = tpu.tensor([0.25, 0.5, 0.75, 1]);
  tpu.manualSeed(42);
  const calls: Nested[] = [];
  const after: Nested[] = [];
  for (const k of ks) {
    calls.push(f(x, k).tolist() as Nested);
    after.push(tpu.rand([2]).tolist() as Nested);
  }
  return { calls, after };
}

describe.each(['debug', 'strict', 'fused'] as const)('tpu.manualSeed inside a compiled function (%s mode)', (mode) => {
  it.each(CASES)('$name: each call and the generator after it as eager', (c) => tpu.withMode(mode, () => {
    dropout.train();
    const ks = c.ks ?? [0, 0, 0];
    const eager = run(c.body, ks);
    const compiled = run(tpu.compile(c.body), ks);
    expect(compiled).toEqual(eager);
    // the numbers are random (not all equal) and, seeded at the top, the same at every call
    expect(new Set(eager.calls.flat(2)).size).toBeGreaterThan(1);
    if (c.repeats) for (const call of compiled.calls) expect(call).toEqual(compiled.calls[0]);
    else expect(compiled.calls[1]).not.toEqual(compiled.calls[0]);
  }));
});

it('the body seeded with a number argument traces once per seed, and replays each', () => {
  const f = tpu.compile((k: number) => { tpu.manualSeed(k); return tpu.rand([2]); });
  const draws = [0, 1, 0, 1].map((k) => f(k).tolist());
  expect(f.stats().traces).toBe(2);
  tpu.manualSeed(0);
  const zero = tpu.rand([2]).tolist();
  tpu.manualSeed(1);
  const one = tpu.rand([2]).tolist();
  expect(draws).toEqual([zero, one, zero, one]);
});
