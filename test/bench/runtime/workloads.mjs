// W1–W4 of the runtime bench. A workload: `prepare(tpu)` -> { step, dispose } run in the
// current mode, written as users write it (no dispose, no sync inside loops),
// `prepareRaw(threads)` -> { step } through raw ONNX Runtime, and `value(ms)` turning a
// step's median time into the reported figure. The same workloads in numpy and PyTorch are
// in peers.py (keep the sizes alike). Other workloads (W5 op catalog, W6 training) live in
// their own files in this folder, exporting the same shape.
import { rawSession } from './raw-ort.mjs';

const N1 = 10_000;
export const w1 = {
  id: 'W1',
  title: '10,000 tiny adds',
  unit: 'µs/op',
  value: (ms) => (ms * 1000) / N1,
  callSites: true,
  async prepare(tpu) {
    const x = tpu.ones([8]);
    return {
      // host: the dispatch loop alone (µs/op), reported separately
      async step() {
        const t0 = performance.now();
        let y = x;
        for (let i = 0; i < N1; i++) y = y.add(x);
        const hostMs = performance.now() - t0;
        await y.data();
        return { hostUsPerOp: (hostMs * 1000) / N1 };
      },
      dispose: () => x.dispose(),
    };
  },
  async prepareRaw() {
    // one thread, as the runtime uses for programs this small
    const s = await rawSession(1, (g) => ({ inputs: [['a', [8]], ['b', [8]]], output: [g.node('Add', ['a', 'b']), [8]] }));
    return {
      async step() {
        for (let i = 0; i < N1; i++) await s.run();
      },
    };
  },
};

/** A step computing one tensor from fixed inputs, then waiting for it (left to the GC). */
function computeAndSync(makeInputs, compute) {
  return async (tpu) => {
    const inputs = makeInputs(tpu);
    return {
      async step() {
        compute(...inputs);
        await tpu.sync();
      },
      dispose: () => inputs.forEach((t) => t.dispose()),
    };
  };
}

const N2 = 4_194_304;
export const w2 = {
  id: 'W2',
  title: 'sqrt(abs(tanh(x*1.5+0.5)*x-0.25)) on 4M floats',
  unit: 'ms',
  value: (ms) => ms,
  prepare: computeAndSync(
    (tpu) => [tpu.rand([N2])],
    (x) => x.mul(1.5).add(0.5).tanh().mul(x).sub(0.25).abs().sqrt(),
  ),
  async prepareRaw(threads) {
    return rawSession(threads, (g) => {
      const c = (v) => g.constant('float32', [], [v]);
      const t = g.node('Tanh', [g.node('Add', [g.node('Mul', ['x', c(1.5)]), c(0.5)])]);
      const out = g.node('Sqrt', [g.node('Abs', [g.node('Sub', [g.node('Mul', [t, 'x']), c(0.25)])])]);
      return { inputs: [['x', [N2]]], output: [out, [N2]] };
    }).then((s) => ({ step: () => s.run() }));
  },
};

export const w3 = {
  id: 'W3',
  title: 'matmul 1024³',
  unit: 'GFLOP/s',
  higherIsBetter: true,
  value: (ms) => (2 * 1024 ** 3) / (ms * 1e6),
  prepare: computeAndSync((tpu) => [tpu.rand([1024, 1024]), tpu.rand([1024, 1024])], (a, b) => a.matmul(b)),
  async prepareRaw(threads) {
    const s = await rawSession(threads, (g) => ({ inputs: [['a', [1024, 1024]], ['b', [1024, 1024]]], output: [g.node('MatMul', ['a', 'b']), [1024, 1024]] }));
    return { step: () => s.run() };
  },
};

export const w4 = {
  id: 'W4',
  title: 'x[256,1024] → matmul → relu → matmul → softmax',
  unit: 'ms',
  value: (ms) => ms,
  prepare: computeAndSync(
    (tpu) => [tpu.rand([256, 1024]), tpu.rand([1024, 1024]), tpu.rand([1024, 1024])],
    (x, w1, w2) => x.matmul(w1).relu().matmul(w2).softmax(-1),
  ),
  async prepareRaw(threads) {
    const s = await rawSession(threads, (g) => {
      const h = g.node('Relu', [g.node('MatMul', ['x', 'w1'])]);
      const out = g.node('Softmax', [g.node('MatMul', [h, 'w2'])], { axis: -1 });
      return { inputs: [['x', [256, 1024]], ['w1', [1024, 1024]], ['w2', [1024, 1024]]], output: [out, [256, 1024]] };
    });
    return { step: () => s.run() };
  },
};

export default [w1, w2, w3, w4];
