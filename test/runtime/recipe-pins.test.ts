// A fused region's values left as recipes keep the buffers they read pinned (modes/recipes.ts).
// The pins go when the last live value that needs them is materialized, disposed or
// collected. These tests dispose values and make same-sized ones that would take freed
// buffers, then check what stays readable against float64 loops, and that a training step's
// gradients, disposed by zeroGrad, let the activation their recipes read go at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

/** 128 KiB of float32: a pooled size (freed buffers are handed out again). */
const N = 1 << 15;
const f32 = Math.fround;
const host = Float32Array.from({ length: N }, (_, i) => Math.cos(i) * 2);

async function expectValues(t: Tensor, want: (v: number) => number, what: string): Promise<void> {
  const got = (await t.data()) as Float32Array;
  expect(got.length, what).toBe(N);
  for (let i = 0; i < N; i++) if (got[i] !== want(host[i]!)) expect(`${what}[${i}] = ${got[i]}`).toBe(`${what}[${i}] = ${want(host[i]!)}`);
}

/** Values computed in strict mode (each takes a pooled buffer, perhaps one just freed). */
function churn(source: Tensor, count: number): Tensor[] {
  return tpu.withMode('strict', () => Array.from({ length: count }, (_, k) => source.mul(0).add(k)));
}

let seed: Tensor;
beforeAll(async () => {
  seed = tpu.tensor(host);
  await tpu.sync();
});

describe('pins of recipes left by a fused region', () => {
  it('a recipe read by a value that needs it stays computable when the recipe itself is disposed', async () => {
    const src = tpu.withMode('strict', () => seed.add(3));
    const [r, t] = tpu.withMode('fused', () => {
      const r = src.mul(2); // read once here: a recipe
      const t = r.add(1); // read once here: a recipe reaching src through r
      t.mul(3);
      return [r, t];
    });
    await tpu.sync();
    src.dispose();
    r.dispose();
    const others = churn(seed, 6);
    await expectValues(t, (v) => f32(f32(f32(v + 3) * 2) + 1), 't');
    for (const [k, o] of others.entries()) await expectValues(o, () => k, `churn ${k}`);
  });

  it('a recipe read by a later region stays computable for that region\'s recipes when disposed', async () => {
    const src = tpu.withMode('strict', () => seed.add(3));
    const r = tpu.withMode('fused', () => {
      const r = src.mul(2);
      r.add(1);
      return r;
    });
    await tpu.sync();
    src.dispose();
    const u = tpu.withMode('fused', () => {
      const u = r.sub(5); // recomputes r from src's buffer; read once here: a recipe needing r's
      u.mul(4);
      r.dispose(); // before this region runs: its program recomputes r, but writes only u.mul(4)
      return u;
    });
    await tpu.sync();
    const others = churn(seed, 6);
    await expectValues(u, (v) => f32(f32(f32(v + 3) * 2) - 5), 'u');
    for (const [k, o] of others.entries()) await expectValues(o, () => k, `churn ${k}`);
  });

  it("a training step's gradients, disposed by zeroGrad, let go of the activation their recipes read", async () => {
    await tpu.withMode('fused', async () => {
      tpu.manualSeed(3);
      const lin1 = new tpu.nn.Linear(32, 256);
      const lin2 = new tpu.nn.Linear(256, 4);
      const opt = new tpu.optim.SGD([...lin1.parameters(), ...lin2.parameters()], { lr: 0.1 });
      const x = tpu.randn([64, 32]);
      const a = lin1.forward(x);
      const h = a.relu(); // [64, 256] float32: 64 KiB, read by the step and the gradients
      const o = lin2.forward(h);
      const sq = o.square();
      sq.mean().backward();
      opt.step();
      for (const t of [a, o, sq]) t.dispose(); // left: h, the loss and the gradients
      await tpu.sync();
      const live = tpu.memory().liveBytes;
      h.dispose(); // the weights' gradients are recipes reading h: its buffer stays
      expect(tpu.memory().liveBytes).toBe(live);
      opt.zeroGrad(); // disposes the gradients: nothing can read h now
      expect(live - tpu.memory().liveBytes).toBeGreaterThanOrEqual(64 * 256 * 4);
      for (const t of [x, ...lin1.parameters(), ...lin2.parameters()]) t.dispose();
    });
  });
});
