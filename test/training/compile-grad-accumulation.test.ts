// A compiled function that calls backward() without emptying the gradients first accumulates
// on every replay, as its eager body does (gradient accumulation over micro-batches); one
// that empties them first (zeroGrad(), `p.grad = null`) replaces them. Replays used to write
// each call's gradient over the last one. Float64 references; every mode.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectClose } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const X = [3, 4, -1];
const W0 = [1, 2, 0.5];
/** d/dw of sum((w·x)²) = 2·w·x². */
const gradOf = (w: readonly number[], scale: number) => w.map((v, i) => 2 * v * (X[i]! * scale) ** 2);

async function expectValues(t: Tensor, want: readonly number[]): Promise<void> {
  expectClose(await t.data() as Float32Array, want);
}

describe.each(['debug', 'strict', 'fused'] as const)('compiled backward() and .grad (%s)', (mode) => {
  it('without zeroGrad in the body, each call adds its gradient (micro-batches, then an SGD step)', async () => {
    tpu.mode(mode);
    const w = tpu.tensor(W0, { requiresGrad: true });
    const opt = new tpu.optim.SGD([w], { lr: 0.01 });
    const micro = tpu.compile((x: Tensor) => { const loss = w.mul(x).pow(2).sum(); loss.backward(); return loss; });
    const x = tpu.tensor(X);
    let ref = [...W0];
    for (let step = 0; step < 3; step++) {
      micro(x);
      micro(x.mul(2));
      const g = gradOf(ref, 1).map((v, i) => v + gradOf(ref, 2)[i]!);
      await expectValues(w.grad!, g);
      opt.step();
      opt.zeroGrad();
      ref = ref.map((v, i) => v - 0.01 * g[i]!);
    }
    await expectValues(w, ref);
    expect(micro.stats().traces).toBe(1);
  });

  it('a gradient that exists before the first call is added to, and so on every replay', async () => {
    tpu.mode(mode);
    const w = tpu.tensor(W0, { requiresGrad: true });
    const x = tpu.tensor(X);
    w.mul(x).pow(2).sum().backward();
    const held = w.grad!;
    const f = tpu.compile((xb: Tensor) => { w.mul(xb).pow(2).sum().backward(); });
    for (let k = 0; k < 3; k++) f(x);
    await expectValues(held, gradOf(W0, 1).map((v) => 4 * v));
    expect(w.grad).toBe(held);
  });

  it('zeroGrad() or p.grad = null in the body: each call leaves its own gradient', async () => {
    tpu.mode(mode);
    const w = tpu.tensor(W0, { requiresGrad: true });
    const v = tpu.tensor(W0, { requiresGrad: true });
    const opt = new tpu.optim.SGD([w], { lr: 0.01 });
    const f = tpu.compile((xb: Tensor) => {
      opt.zeroGrad();
      v.grad = null;
      w.mul(xb).pow(2).sum().add(v.mul(xb).pow(2).sum()).backward();
    });
    const x = tpu.tensor(X);
    for (let k = 0; k < 3; k++) f(x.mul(k + 1));
    await expectValues(w.grad!, gradOf(W0, 3));
    await expectValues(v.grad!, gradOf(W0, 3));
  });
});
