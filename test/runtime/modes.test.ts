// The three modes agree: bit-identical float32 for elementwise chains, within 1e-5 relative
// for reductions and matmul, over seeded random shapes and op chains. Fused regions: loops
// settle into cached programs; intermediates are not materialized; switching with work queued.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, profiler, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

type Step = (t: Tensor, other: Tensor) => Tensor;
const ELEMENTWISE: Step[] = [
  (t, o) => t.add(o), (t, o) => t.sub(o), (t, o) => t.mul(o), (t, o) => t.div(o.abs().add(1)),
  (t) => t.neg(), (t) => t.tanh(), (t) => t.relu(), (t) => t.mul(0.75).add(0.125), (t) => t.tanh().exp(),
  (t) => t.abs().add(1).log(), (t) => t.abs().sqrt(),
];
const REDUCING: Step[] = [
  (t) => t.sum(-1, true), (t) => t.mean(0, true), (t, o) => t.add(o).matmul(o.T).matmul(o).mul(0.1),
];

/** One random chain, as a function of its inputs, so it can be replayed in each mode. */
function makeChain(seed: number, withReductions: boolean, dtype: 'float32' | 'bfloat16' = 'float32') {
  const pick = rng(seed);
  const rows = 1 + pick(6);
  const cols = 1 + pick(7);
  const steps = Array.from({ length: 3 + pick(6) }, () => {
    const pool = withReductions && pick(3) === 0 ? REDUCING : ELEMENTWISE;
    return pool[pick(pool.length)]!;
  });
  const broadcastRow = pick(2) === 0;
  const a = seededValues(rows * cols, seed + 1);
  const b = seededValues(broadcastRow ? cols : rows * cols, seed + 2);
  return {
    run() {
      const x = tpu.tensor(a, { dtype }).reshape([rows, cols]);
      const o = tpu.tensor(b, { dtype }).reshape(broadcastRow ? [1, cols] : [rows, cols]);
      let t = x;
      for (const s of steps) t = s(t, o);
      return Array.from(t.dataSync());
    },
  };
}

describe('mode equivalence (seeded property test)', () => {
  it('elementwise chains are bit-identical in debug, strict and fused', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const chain = makeChain(seed, false);
      const results = (['debug', 'strict', 'fused'] as const).map((m) => tpu.withMode(m, () => chain.run()));
      expect(results[1], `seed ${seed} strict`).toEqual(results[0]);
      expect(results[2], `seed ${seed} fused`).toEqual(results[0]);
    }
  });

  it('bfloat16 elementwise chains are bit-identical too (rounded after every op in every mode)', () => {
    for (let seed = 200; seed <= 230; seed++) {
      const chain = makeChain(seed, false, 'bfloat16');
      const results = (['debug', 'strict', 'fused'] as const).map((m) => tpu.withMode(m, () => chain.run()));
      expect(results[1], `seed ${seed} strict`).toEqual(results[0]);
      expect(results[2], `seed ${seed} fused`).toEqual(results[0]);
    }
  });

  it('chains with reductions and matmul agree within 1e-5 relative', () => {
    for (let seed = 100; seed < 130; seed++) {
      const chain = makeChain(seed, true);
      const [debug, strict, fused] = (['debug', 'strict', 'fused'] as const).map((m) => tpu.withMode(m, () => chain.run()));
      expectClose(strict!, debug!, 1e-5, 1e-6);
      expectClose(fused!, debug!, 1e-5, 1e-6);
    }
  });
});

/** Output counts of the programs run while fn runs (memory deltas would race the finalizer). */
async function programOutputs(fn: () => Promise<void>): Promise<number[]> {
  const events: profiler.ProfileEvent[] = [];
  const stop = profiler.subscribe((e) => events.push(e));
  try {
    await fn();
    await tpu.sync();
  } finally {
    stop();
  }
  return events.flatMap((e) => (e.kind === 'execute' ? [tpu.program(e.program)!.program.outputs.length] : []));
}

describe('fused regions', () => {
  it('a loop settles into one cached program per iteration: no compiles after warm-up', () => {
    tpu.mode('fused');
    let w = tpu.ones([16, 16]);
    const x = tpu.ones([4, 16]);
    const compilesAt: number[] = [];
    for (let step = 0; step < 8; step++) {
      const lr = 0.01 * (step + 1); // a scalar that changes every step: an input, not a constant
      const loss = x.matmul(w).relu().mean();
      const next = w.sub(w.mul(lr));
      w.dispose();
      w = next;
      loss.item();
      compilesAt.push(tpu.stats().programsCompiled);
    }
    const after = compilesAt.slice(2);
    expect(new Set(after).size).toBe(1);
    expect(w.sum().item()).toBeCloseTo(256 * [...Array(8)].reduce((p, _, i) => p * (1 - 0.01 * (i + 1)), 1), 3);
  });

  it('values used only inside a region are never materialized', async () => {
    tpu.mode('fused');
    const x = tpu.ones([1000]);
    await tpu.sync();
    const events: profiler.ProfileEvent[] = [];
    const stop = profiler.subscribe((e) => events.push(e));
    const y = x.mul(2).add(1).tanh().mul(3).sub(1); // 5 ops, 4 intermediates
    await y.data();
    stop();
    const region = events.find((e) => e.kind === 'region');
    expect(region).toMatchObject({ kind: 'region', nodes: 5, outputs: 1 });
    const runs = events.filter((e) => e.kind === 'execute') as { program: number }[];
    expect(runs).toHaveLength(1);
    expect(tpu.program(runs[0]!.program)!.program.outputs).toHaveLength(1); // y only
  });

  it('an intermediate read after its region is recomputed from its recipe', () => {
    tpu.mode('fused');
    const x = tpu.tensor([1, 2, 3], { dtype: 'float32' });
    const h = x.mul(2);
    const y = h.add(1);
    expect(y.array()).toEqual([3, 5, 7]);
    expect(h.array()).toEqual([2, 4, 6]);
  });

  it('a value of an earlier region used again is recomputed once and then kept', async () => {
    tpu.mode('fused');
    const x = tpu.tensor([1, 2, 3], { dtype: 'float32' });
    await tpu.sync();
    const h = x.mul(2);
    const y = h.add(1);
    expect(await programOutputs(async () => void (await y.data()))).toEqual([1]); // y only
    const z = h.mul(3);
    expect(await programOutputs(async () => void (await z.data()))).toEqual([2]); // z, and h kept
    expect(await programOutputs(async () => void h.array())).toEqual([]); // nothing to run
    expect(z.array()).toEqual([6, 12, 18]);
    expect(h.array()).toEqual([2, 4, 6]);
  });

  it('a recipe keeps the buffers it reads: its input can be disposed before it is read', async () => {
    tpu.mode('fused');
    const x = tpu.tensor([1, 2, 3], { dtype: 'float32' });
    await tpu.sync();
    const h = x.mul(2);
    const y = h.add(1);
    await y.data(); // h was not materialized
    x.dispose();
    expect(() => x.add(1)).toThrow(/disposed/);
    expect(h.sum().item()).toBe(12); // recomputed from x's buffer, kept for h's recipe
    expect(h.array()).toEqual([2, 4, 6]);
  });

  it('an input disposed while recipes read it is freed once the last of them is materialized', async () => {
    tpu.mode('fused');
    const x = tpu.tensor([1, 2, 3], { dtype: 'float32' });
    await tpu.sync();
    const h1 = x.mul(2);
    const h2 = x.add(5);
    const y = h1.add(h2);
    await y.data(); // h1 and h2 stay recipes reading x's buffer
    x.dispose();
    const live = tpu.memory().liveTensors; // x's buffer is still held for them
    expect(h1.array()).toEqual([2, 4, 6]);
    expect(tpu.memory().liveTensors).toBe(live + 1); // h1; x still held for h2
    expect(h2.array()).toEqual([6, 7, 8]);
    expect(tpu.memory().liveTensors).toBe(live + 1); // h2 in, x out
    expect(y.array()).toEqual([8, 11, 14]);
  });

  it('a value with several consumers that stays alive becomes a program output', async () => {
    tpu.mode('fused');
    const x = tpu.ones([10]);
    await tpu.sync();
    let a = x;
    let b = x;
    const outputs = await programOutputs(async () => {
      const h = x.mul(2);
      a = h.add(1);
      b = h.mul(3);
    });
    expect(outputs).toEqual([3]); // h, a, b
    expect(a.sum().item()).toBe(30);
    expect(b.sum().item()).toBe(60);
  });

  it('switching modes with work queued keeps every value', async () => {
    tpu.mode('fused');
    const x = tpu.tensor([1, 2, 3, 4], { dtype: 'float32' });
    const a = x.mul(2); // pending in the region
    tpu.mode('strict'); // cuts the region
    const b = a.add(1); // strict op on the fused result
    tpu.mode('fused');
    const c = b.mul(b); // pending again
    tpu.mode('debug');
    const d = c.sub(1); // debug forces everything before it
    expect(d.array()).toEqual([8, 24, 48, 80]);
    tpu.mode('strict');
    const e = d.add(x);
    tpu.mode('fused');
    expect(e.add(0).array()).toEqual([9, 26, 51, 84]);
  });

  it('the region is cut at the size cap', () => {
    tpu.mode('fused');
    const events: profiler.ProfileEvent[] = [];
    const stop = profiler.subscribe((e) => events.push(e));
    let y = tpu.zeros([2]);
    for (let i = 0; i < 1100; i++) y = y.add(1);
    expect(y.array()).toEqual([1100, 1100]);
    stop();
    const reasons = events.filter((e) => e.kind === 'region').map((e) => (e as { reason: string }).reason);
    expect(reasons.filter((r) => r === 'size cap')).toHaveLength(2);
  });
});

describe('cancelPending', () => {
  it('drops the pending region and queued work but keeps materialized tensors', async () => {
    tpu.mode('strict');
    const kept = tpu.tensor([1, 2, 3], { dtype: 'float32' });
    const done = kept.mul(2);
    await tpu.sync();
    tpu.mode('fused');
    const pending = kept.add(100);
    const result = tpu.cancelPending();
    expect(result.droppedOps).toBe(1);
    expect(kept.array()).toEqual([1, 2, 3]);
    expect(done.array()).toEqual([2, 4, 6]);
    // a dropped fused op keeps its recipe: reading it recomputes it
    expect(pending.array()).toEqual([101, 102, 103]);
    await tpu.sync();
  });

  it('rejects pending waits', async () => {
    tpu.mode('strict');
    const x = tpu.ones([256, 256]);
    let y = x;
    for (let i = 0; i < 50; i++) y = y.matmul(x);
    const waiting = y.data();
    tpu.cancelPending();
    await expect(waiting).rejects.toThrow(/cancelled/);
    expect(x.sum().item()).toBe(65536);
  });
});

describe('interrupting a blocking wait', () => {
  it('another thread holding tpu.interruptBuffer() makes dataSync throw; the session goes on', async () => {
    const { Worker } = await import('node:worker_threads');
    tpu.mode('strict');
    const x = tpu.full([384, 384], 1 / 512);
    let y = x;
    for (let i = 0; i < 400; i++) y = y.matmul(x);
    const helper = new Worker(
      `const { workerData } = require('node:worker_threads');
       const { interruptWaits } = { interruptWaits: (b) => { const w = new Int32Array(b); Atomics.store(w, 3, 1); Atomics.notify(w, 0); } };
       setTimeout(() => interruptWaits(workerData), 50);`,
      { eval: true, workerData: tpu.interruptBuffer() },
    );
    const t0 = Date.now();
    expect(() => y.dataSync()).toThrow(/the wait \(dataSync\) was interrupted/);
    expect(Date.now() - t0).toBeLessThan(5000);
    await helper.terminate();
    tpu.cancelPending();
    expect(x.sum().item()).toBe(288);
  });
});

describe('fused loops without sync points', () => {
  it('settle into cached programs: regions cut at iteration boundaries, no compiles after warm-up', () => {
    const run = (mode: 'strict' | 'fused') =>
      tpu.withMode(mode, () => {
        let w = tpu.full([8, 8], 0.5);
        const x = tpu.full([8, 8], 0.25);
        const compiled: number[] = [];
        for (let step = 0; step < 1200; step++) {
          // 5 ops per iteration; 1200 iterations = 6000 ops, over ten size-cap cuts
          const next = w.sub(x.matmul(w).tanh().mul(0.001 * (1 + (step % 7))));
          w.dispose();
          w = next.mul(1.0001);
          if (step % 100 === 99) compiled.push(tpu.stats().programsCompiled);
        }
        return { values: Array.from(w.dataSync()), compiled };
      });
    const strict = run('strict');
    const fused = run('fused');
    expect(fused.values).toEqual(strict.values);
    const late = fused.compiled.slice(4);
    expect(new Set(late).size).toBe(1);
  });
});

describe('hooks for whole-function capture', () => {
  it('setRegionCap and forbidSyncWhile', async () => {
    const { setRegionCap, forbidSyncWhile } = await import('tpu-kernel/runtime');
    tpu.mode('fused');
    const before = setRegionCap(Infinity);
    const events: profiler.ProfileEvent[] = [];
    const stop = profiler.subscribe((e) => events.push(e));
    const x = tpu.ones([2]);
    const y = forbidSyncWhile('a branch on a tensor value cannot be compiled; use tpu.where', () => {
      let t = x;
      for (let i = 0; i < 600; i++) t = t.add(1);
      expect(() => t.sum().item()).toThrow('dataSync: a branch on a tensor value cannot be compiled; use tpu.where');
      return t;
    });
    expect(y.array()).toEqual([601, 601]);
    stop();
    expect(setRegionCap(before)).toBe(Infinity);
    expect(events.filter((e) => e.kind === 'region')).toHaveLength(1);
    const exec = events.find((e) => e.kind === 'execute') as { program: number };
    expect(tpu.program(exec.program)?.program.nodes).toHaveLength(601); // 600 adds + the refused sum
  });
});
