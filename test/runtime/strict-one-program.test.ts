// strict mode runs what is one op to the user as one program: an optimizer step over all
// parameters (PyTorch's foreach update), each op's gradient rule in a backward pass, and the
// gradient rules of all the ops one composed op (linear, crossEntropy, ...) recorded.
import { afterEach, describe, expect, it } from 'vitest';
import { composite, DeviceError, tpu } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));
const launches = () => tpu.stats().cacheHits + tpu.stats().cacheMisses;

describe('strict mode: one program per user-visible op', () => {
  it('an SGD step with momentum over three parameters is one program, with torch.optim.SGD values', () => {
    tpu.mode('strict');
    const shapes = [[3, 4], [4], [2]];
    const init = shapes.map((s, i) => seededValues(s.reduce((a, b) => a * b, 1), 10 + i).map(Math.fround));
    const grads = shapes.map((s, i) => seededValues(s.reduce((a, b) => a * b, 1), 20 + i).map(Math.fround));
    const params = shapes.map((s, i) => tpu.tensor(init[i]!, { requiresGrad: true }).reshape(s).detach().requiresGrad_());
    const opt = new tpu.optim.SGD(params, { lr: 0.1, momentum: 0.9 });
    // Two steps with the same gradient: buf1 = g, p1 = p0 - lr g; buf2 = 0.9 g + g, p2 = p1 - lr buf2.
    for (let step = 0; step < 2; step++) {
      params.forEach((p, i) => (p.grad = tpu.tensor(grads[i]!).reshape(shapes[i]!)));
      const before = launches();
      opt.step();
      expect(launches() - before).toBe(1);
    }
    params.forEach((p, i) => {
      const want = init[i]!.map((v, k) => v - 0.1 * grads[i]![k]! - 0.1 * (1.9 * grads[i]![k]!));
      expectClose(p.dataSync(), want, 1e-5, 1e-6);
    });
  });

  it("a backward pass runs one program per user op's gradient: d sum(relu(x W^T + b)) matches float64", () => {
    tpu.mode('strict');
    const xs = seededValues(6, 31).map(Math.fround); // x [2, 3]
    const ws = seededValues(12, 32).map(Math.fround); // W [4, 3]
    const bs = seededValues(4, 33).map(Math.fround);
    const x = tpu.tensor(xs).reshape([2, 3]);
    const w = tpu.tensor(ws).reshape([4, 3]).detach().requiresGrad_();
    const b = tpu.tensor(bs, { requiresGrad: true });
    const loss = tpu.nn.functional.linear(x, w, b).relu().sum();
    const before = launches();
    loss.backward();
    // sum (with the seed of ones), relu, linear (its add, matmul and permute together): one program each.
    expect(launches() - before).toBeLessThanOrEqual(3);
    const active = [0, 1].map((r) => [0, 1, 2, 3].map((o) => xs.slice(r * 3, r * 3 + 3).reduce((s, v, k) => s + v * ws[o * 3 + k]!, bs[o]!) > 0));
    const gw = [0, 1, 2, 3].flatMap((o) => [0, 1, 2].map((k) => (active[0]![o] ? xs[k]! : 0) + (active[1]![o] ? xs[3 + k]! : 0)));
    const gb = [0, 1, 2, 3].map((o) => Number(active[0]![o]) + Number(active[1]![o]));
    expectClose(w.grad!.dataSync(), gw, 1e-6, 1e-6);
    expectClose(b.grad!.dataSync(), gb, 1e-6, 1e-6);
  });

  it('crossEntropy(linear(x, W, b), y) backward: one program per composed op, gradients of x, W, b match float64', () => {
    tpu.mode('strict');
    const [N, C, K] = [3, 5, 4];
    const xs = seededValues(N * K, 41).map(Math.fround);
    const ws = seededValues(C * K, 42).map(Math.fround);
    const bs = seededValues(C, 43).map(Math.fround);
    const ys = [4, 0, 2];
    const x = tpu.tensor(xs).reshape([N, K]).detach().requiresGrad_();
    const w = tpu.tensor(ws).reshape([C, K]).detach().requiresGrad_();
    const b = tpu.tensor(bs, { requiresGrad: true });
    const loss = tpu.nn.crossEntropy(tpu.nn.functional.linear(x, w, b), tpu.tensor(Int32Array.from(ys)));
    const before = launches();
    loss.backward();
    // crossEntropy's rules (the seed of ones made in their program), linear's rules
    expect(launches() - before).toBe(2);
    // float64: d loss / d logits = (softmax(logits) - onehot(y)) / N
    const dl = [...Array(N).keys()].flatMap((r) => {
      const z = [...Array(C).keys()].map((c) => xs.slice(r * K, r * K + K).reduce((s, v, k) => s + v * ws[c * K + k]!, bs[c]!));
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const sum = e.reduce((s, v) => s + v, 0);
      return e.map((v, c) => (v / sum - (c === ys[r] ? 1 : 0)) / N);
    });
    const gx = [...Array(N * K).keys()].map((i) => [...Array(C).keys()].reduce((s, c) => s + dl[Math.floor(i / K) * C + c]! * ws[c * K + (i % K)]!, 0));
    const gw = [...Array(C * K).keys()].map((i) => [...Array(N).keys()].reduce((s, r) => s + dl[r * C + Math.floor(i / K)]! * xs[r * K + (i % K)]!, 0));
    const gb = [...Array(C).keys()].map((c) => [...Array(N).keys()].reduce((s, r) => s + dl[r * C + c]!, 0));
    expectClose(x.grad!.dataSync(), gx, 1e-5, 1e-6);
    expectClose(w.grad!.dataSync(), gw, 1e-5, 1e-6);
    expectClose(b.grad!.dataSync(), gb, 1e-5, 1e-6);
  });

  it("linear's program writes no transposed copy of its weight; two SGD steps through it match float64", () => {
    tpu.mode('strict');
    const [N, C, K] = [3, 5, 7]; // shapes of no other test: the forward program is compiled here
    const xs = seededValues(N * K, 51).map(Math.fround);
    const w0 = seededValues(C * K, 52).map(Math.fround);
    const ys = [1, 4, 0];
    const x = tpu.tensor(xs).reshape([N, K]);
    const w = tpu.tensor(w0).reshape([C, K]).detach().requiresGrad_();
    const y = tpu.tensor(Int32Array.from(ys));
    const opt = new tpu.optim.SGD([w], { lr: 0.5 });
    // float64: one step of W -= lr * dW, dW[c][k] = sum_r (softmax(x W^T)[r][c] - onehot(y)[r][c]) / N * x[r][k]
    const stepRef = (wv: number[]) => {
      const dl = [...Array(N).keys()].flatMap((r) => {
        const z = [...Array(C).keys()].map((c) => xs.slice(r * K, r * K + K).reduce((s, v, k) => s + v * wv[c * K + k]!, 0));
        const m = Math.max(...z);
        const e = z.map((v) => Math.exp(v - m));
        const sum = e.reduce((s, v) => s + v, 0);
        return e.map((v, c) => (v / sum - (c === ys[r] ? 1 : 0)) / N);
      });
      return wv.map((v, i) => v - 0.5 * [...Array(N).keys()].reduce((s, r) => s + dl[r * C + Math.floor(i / K)]! * xs[r * K + (i % K)]!, 0));
    };
    for (let step = 0; step < 2; step++) {
      opt.zeroGrad();
      const logits = tpu.nn.functional.linear(x, w);
      if (step === 0) {
        // The forward program's outputs: none of them is the [K, C] transpose of the weight.
        const ops = tpu.profiler.lastProgram()!.ops.split('\n');
        const outputs = /outputs: (.*)/.exec(ops.find((l) => l.includes('outputs:'))!)![1]!.split(', ');
        const types = outputs.map((id) => ops.find((l) => l.trim().startsWith(`${id} =`))!.split(' : ')[1]);
        expect(types).not.toContain(`float32[${K}, ${C}]`);
        expect(types).toContain(`float32[${N}, ${C}]`);
      }
      tpu.nn.crossEntropy(logits, y).backward();
      opt.step();
    }
    expectClose(w.dataSync(), stepRef(stepRef(w0)), 1e-5, 1e-6);
  });

  it('crossEntropy of logits that require grad is one program with float64 values; a bad label fails it, the session goes on', () => {
    tpu.mode('strict');
    const [N, C] = [2, 3];
    const zs = seededValues(N * C, 71).map(Math.fround);
    const logits = tpu.tensor(zs).reshape([N, C]).detach().requiresGrad_();
    const before = launches();
    const loss = tpu.nn.crossEntropy(logits, tpu.tensor(Int32Array.from([2, 0])));
    // Its values kept for backward read no label: they used to run as a program of their own.
    expect(launches() - before).toBe(1);
    const want = [0, 1].reduce((s, r) => {
      const z = zs.slice(r * C, r * C + C);
      const m = Math.max(...z);
      return s + m + Math.log(z.reduce((a, v) => a + Math.exp(v - m), 0)) - z[[2, 0][r]!]!;
    }, 0) / N;
    expect(loss.item()).toBeCloseTo(want, 5);
    // label 7 of 3, computed on the device: only the device sees the value
    const bad = tpu.nn.crossEntropy(logits, tpu.tensor(Int32Array.from([0, 1])).mul(7));
    expect(() => bad.item()).toThrow(DeviceError);
    expect(tpu.ones([2]).mul(3).array()).toEqual([3, 3]);
  });

  it('a training loop launches as many programs at its 10th step as at its 2nd (nothing accumulates to recompute)', () => {
    tpu.mode('strict');
    tpu.manualSeed(3);
    const model = new tpu.nn.Sequential(new tpu.nn.Linear(5, 4), new tpu.nn.ReLU(), new tpu.nn.Linear(4, 3));
    const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.01 });
    const x = tpu.randn([6, 5]);
    const y = tpu.randint(0, 3, [6]);
    const perStep: number[] = [];
    for (let step = 0; step < 10; step++) {
      const before = launches();
      opt.zeroGrad();
      tpu.nn.crossEntropy(model.forward(x), y).backward();
      opt.step();
      perStep.push(launches() - before);
    }
    expect(perStep[9]).toBe(perStep[1]);
  });

  it("a composed op's program writes only the values its ops' rules read (exp its result, log its operand, where its condition, gather its index, mul the other operand): gradients match float64", () => {
    tpu.mode('strict');
    // shapes no other test here uses: the composed op compiles now, so it is stats().lastProgram
    const [N, C] = [3, 7];
    const zs = seededValues(N * C, 81).map(Math.fround);
    const ms = [1, 0, 1];
    const idx = [6, 2, 4];
    const z = tpu.tensor(zs).reshape([N, C]).detach().requiresGrad_();
    const mask = tpu.tensor(ms).reshape([N, 1]); // needs no gradient: mul reads it, not z's side
    const index = tpu.tensor(Int32Array.from(idx)).reshape([N, 1]);
    // f(z) = Σ_r where(m_r > 0, log(Σ_c exp(z_rc)) · m_r − z[r, idx_r], 0) / 2
    const f = composite('testLoss', () => {
      const lse = z.exp().sum({ dim: 1, keepdim: true }).log();
      const term = lse.mul(mask).sub(z.gather(1, index));
      return tpu.where(mask.gt(0), term, 0).sum().div(2);
    });
    const program = tpu.stats().lastProgram!.program;
    // the result, exp's result, sum's (log's operand), the where's condition (the index and the
    // mask mul reads are inputs); every value made inside was written before (10 outputs)
    expect(program.outputs).toHaveLength(4);
    const want = [0, 1, 2].reduce((s, r) => {
      const row = zs.slice(r * C, r * C + C);
      return s + (ms[r]! > 0 ? Math.log(row.reduce((a, v) => a + Math.exp(v), 0)) * ms[r]! - row[idx[r]!]! : 0);
    }, 0) / 2;
    expect(f.item()).toBeCloseTo(want, 5);
    f.backward();
    const grad = [0, 1, 2].flatMap((r) => {
      const row = zs.slice(r * C, r * C + C);
      const total = row.reduce((a, v) => a + Math.exp(v), 0);
      return row.map((v, c) => (ms[r]! > 0 ? (Math.exp(v) / total) * ms[r]! - (c === idx[r] ? 1 : 0) : 0) / 2);
    });
    expectClose(z.grad!.dataSync(), grad, 1e-5, 1e-6);
  });

  it("linear's program writes its result alone: its matmul result, read by no gradient rule, is no second output", () => {
    tpu.mode('strict');
    // shapes no other test here uses: the linear compiles now, so it is stats().lastProgram
    const xs = seededValues(6, 51).map(Math.fround); // x [2, 3]
    const ws = seededValues(15, 52).map(Math.fround); // W [5, 3]
    const bs = seededValues(5, 53).map(Math.fround);
    const w = tpu.tensor(ws).reshape([5, 3]).detach().requiresGrad_();
    const b = tpu.tensor(bs, { requiresGrad: true });
    const y = tpu.nn.functional.linear(tpu.tensor(xs).reshape([2, 3]), w, b);
    expect(tpu.stats().lastProgram!.program.nodes.map((n) => n.op)).toEqual(['permute', 'matmul', 'add']);
    expect(tpu.stats().lastProgram!.program.outputs).toHaveLength(1);
    const outs = [0, 1, 2, 3, 4];
    const want = [0, 1].flatMap((r) => outs.map((o) => xs.slice(r * 3, r * 3 + 3).reduce((a, v, k) => a + v * ws[o * 3 + k]!, bs[o]!)));
    expectClose(y.dataSync(), want, 1e-6, 1e-6);
    y.sum().backward(); // d sum(y) / dW[o][k] = x[0][k] + x[1][k]; d sum(y) / db[o] = 2 rows
    expectClose(w.grad!.dataSync(), outs.flatMap(() => [0, 1, 2].map((k) => xs[k]! + xs[3 + k]!)), 1e-6, 1e-6);
    expectClose(b.grad!.dataSync(), [2, 2, 2, 2, 2], 1e-6, 1e-6);
  });

  it('a composed op whose program fails on the device names the line calling it; the session goes on', async () => {
    tpu.mode('strict');
    // row 5 of 3, computed on the device: only the device sees the value
    const rows = tpu.tensor([0, 1], { dtype: 'int32' }).mul(5);
    const table = tpu.arange(6).reshape([3, 2]);
    const line = Number(/:(\d+):\d+\)?$/.exec(new Error().stack!.split('\n')[1]!)![1]) + 1;
    const picked = composite('test', () => table.indexSelect(0, rows).mul(2));
    const err = await picked.data().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    expect((err as Error).message).toMatch(new RegExp(`^fused program of 2 ops \\(indexSelect, mul\\) failed on the device \\(called at \\S*strict-one-program\\.test\\.ts:${line}:\\d+`));
    expect(tpu.ones([2]).mul(3).array()).toEqual([3, 3]);
  });
});
