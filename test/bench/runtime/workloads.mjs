// W1–W4 of the runtime bench (issue 3). Each workload: run(tpu, mode) -> measurement,
// raw(threads) -> the same work through raw ONNX Runtime. Other workloads (W5 op catalog,
// W6 training) live in their own files in this folder and export the same shape.
import { rawSession } from './raw-ort.mjs';

const time = async (fn) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function repeat(n, fn) {
  await fn(); // warm-up: compiles, first allocations
  await fn();
  const ms = [];
  for (let i = 0; i < n; i++) ms.push(await time(fn));
  return median(ms);
}

const N1 = 10_000;
export const w1 = {
  id: 'W1',
  title: '10,000 tiny adds',
  unit: 'µs/op',
  async run(tpu, mode) {
    const x = tpu.ones([8]);
    let hostMs = 0;
    const total = await repeat(3, async () => {
      const t0 = performance.now();
      let y = x;
      for (let i = 0; i < N1; i++) {
        const next = y.add(x);
        if (y !== x) y.dispose();
        y = next;
      }
      hostMs = performance.now() - t0;
      await y.data();
      y.dispose();
    });
    return { value: (total * 1000) / N1, hostUsPerOp: (hostMs * 1000) / N1 };
  },
  async raw(threads) {
    const s = await rawSession(threads, (g) => ({ inputs: [['a', [8]], ['b', [8]]], output: [g.node('Add', ['a', 'b']), [8]] }));
    const total = await repeat(3, async () => {
      for (let i = 0; i < N1; i++) await s.run();
    });
    return { value: (total * 1000) / N1 };
  },
};

const N2 = 4_194_304;
export const w2 = {
  id: 'W2',
  title: 'sqrt(abs(tanh(x*1.5+0.5)*x-0.25)) on 4M floats',
  unit: 'ms',
  async run(tpu) {
    const x = tpu.rand([N2]);
    const value = await repeat(5, async () => {
      const y = x.mul(1.5).add(0.5).tanh().mul(x).sub(0.25).abs().sqrt();
      await tpu.sync();
      y.dispose();
    });
    x.dispose();
    return { value };
  },
  async raw(threads) {
    const s = await rawSession(threads, (g) => {
      const c = (v) => g.constant('float32', [], [v]);
      const t = g.node('Tanh', [g.node('Add', [g.node('Mul', ['x', c(1.5)]), c(0.5)])]);
      const out = g.node('Sqrt', [g.node('Abs', [g.node('Sub', [g.node('Mul', [t, 'x']), c(0.25)])])]);
      return { inputs: [['x', [N2]]], output: [out, [N2]] };
    });
    return { value: await repeat(5, () => s.run()) };
  },
};

export const w3 = {
  id: 'W3',
  title: 'matmul 1024³',
  unit: 'GFLOP/s',
  higherIsBetter: true,
  async run(tpu) {
    const a = tpu.rand([1024, 1024]);
    const b = tpu.rand([1024, 1024]);
    const ms = await repeat(5, async () => {
      const c = a.matmul(b);
      await tpu.sync();
      c.dispose();
    });
    a.dispose();
    b.dispose();
    return { value: (2 * 1024 ** 3) / (ms * 1e6) };
  },
  async raw(threads) {
    const s = await rawSession(threads, (g) => ({ inputs: [['a', [1024, 1024]], ['b', [1024, 1024]]], output: [g.node('MatMul', ['a', 'b']), [1024, 1024]] }));
    const ms = await repeat(5, () => s.run());
    return { value: (2 * 1024 ** 3) / (ms * 1e6) };
  },
};

export const w4 = {
  id: 'W4',
  title: 'x[256,1024] → matmul → relu → matmul → softmax',
  unit: 'ms',
  async run(tpu) {
    const x = tpu.rand([256, 1024]);
    const w1 = tpu.rand([1024, 1024]);
    const w2 = tpu.rand([1024, 1024]);
    const value = await repeat(5, async () => {
      const y = x.matmul(w1).relu().matmul(w2).softmax(-1);
      await tpu.sync();
      y.dispose();
    });
    for (const t of [x, w1, w2]) t.dispose();
    return { value };
  },
  async raw(threads) {
    const s = await rawSession(threads, (g) => {
      const h = g.node('Relu', [g.node('MatMul', ['x', 'w1'])]);
      const out = g.node('Softmax', [g.node('MatMul', [h, 'w2'])], { axis: -1 });
      return { inputs: [['x', [256, 1024]], ['w1', [1024, 1024]], ['w2', [1024, 1024]]], output: [out, [256, 1024]] };
    });
    return { value: await repeat(5, () => s.run()) };
  },
};

export default [w1, w2, w3, w4];
