// Softmax over the last axis of [256, 1024] float32 as a one-node ONNX Runtime session through
// the ortc addon: ONNX's Softmax against tpu_kernel.Softmax (float32 exp; rows that can
// underflow: exact differences, denormal results made from their bits), interleaved A/B in one
// process on the shared intra-op pool, on W4's own logits (relu(x @ w1) @ w2 with uniform
// [0, 1) inputs: a row spans thousands, and ONNX's exp makes float32 denormals, each a
// microcode assist), on unit-range logits and on logits in [-8, 8) (the node's narrow rows).
// `node test/bench/softmax.bench.mjs` (BENCH_THREADS=1: the pool at one thread); prints a table and
// writes test/output/bench/softmax.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { onnxRuntimeLibrary } from '../../dist/runtime/device/onnx/ortc-addon.js';
import { OnnxGraph } from '../../dist/runtime/device/onnx/onnx-graph.js';

const addon = createRequire(import.meta.url)('../../runtime/device/onnx/native/build/Release/ortc.node');
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
addon.init(onnxRuntimeLibrary(), THREADS, 'libdnnl.so.2');
const [M, N] = [256, 1024];
const ROUNDS = 31;
const RUNS = 20;
const spec = (name, shape) => ({ name, dtype: 'float32', shape });
const uniform = (n) => new Float32Array(n).map(() => Math.random());

function w4Logits() {
  const g = new OnnxGraph();
  const [x, w1, w2] = [g.input('x', 'float32', [M, N]), g.input('w1', 'float32', [N, N]), g.input('w2', 'float32', [N, N])];
  const y = g.node('MatMul', [g.node('Relu', [g.node('MatMul', [x, w1])]), w2]);
  g.output(y, 'float32', [M, N]);
  const s = addon.createSession(g.encode(), true, [spec('x', [M, N]), spec('w1', [N, N]), spec('w2', [N, N])], [spec(y, [M, N])]);
  const out = new Float32Array(M * N);
  addon.run(s, [uniform(M * N), uniform(N * N), uniform(N * N)], [out]);
  return out;
}

function session(custom) {
  const g = new OnnxGraph();
  const x = g.input('x', 'float32', [M, N]);
  const y = custom ? g.customNode('tpu_kernel', 'Softmax', [x]) : g.node('Softmax', [x], { axis: -1 });
  g.output(y, 'float32', [M, N]);
  return addon.createSession(g.encode(), true, [spec('x', [M, N])], [spec(y, [M, N])]);
}

const inputs = { 'W4 logits': w4Logits(), 'unit-range logits': uniform(M * N), 'logits in [-8, 8)': uniform(M * N).map((v) => 16 * v - 8) };
const nodes = { 'ONNX Softmax': session(false), 'tpu_kernel.Softmax': session(true) };
const out = new Float32Array(M * N);
const times = new Map();
for (let r = 0; r < ROUNDS; r++) {
  for (const [input, x] of Object.entries(inputs)) {
    for (const [node, s] of Object.entries(nodes)) {
      addon.run(s, [x], [out]);
      const t0 = performance.now();
      for (let j = 0; j < RUNS; j++) addon.run(s, [x], [out]);
      const key = `${input}|${node}`;
      times.set(key, [...(times.get(key) ?? []), ((performance.now() - t0) / RUNS) * 1000]);
    }
  }
}
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
// exps below float32's normal range, x - (row max) < ln 2^-126: ONNX's Softmax makes a denormal
// on the way to each, whether or not the result rounds to 0
const underflows = (x) => {
  let n = 0;
  for (let o = 0; o < x.length; o += N) {
    const row = x.subarray(o, o + N);
    const m = row.reduce((a, b) => Math.max(a, b), -Infinity);
    for (const v of row) n += v - m < -126 * Math.LN2 ? 1 : 0;
  }
  return n;
};
const rows = Object.entries(inputs).map(([input, x]) => {
  const [onnx, ours] = Object.keys(nodes).map((node) => times.get(`${input}|${node}`));
  // the ratio within each round (the two timed back to back), then its median: steadier than
  // a ratio of medians when the load changes during the run
  const ratio = median(ours.map((t, r) => t / onnx[r]));
  return { input, onnxUs: median(onnx), tpuUs: median(ours), ratio, underflows: underflows(x) };
});
const pad = (s, w) => String(s).padStart(w);
console.log(`softmax bench [${M}, ${N}] (${THREADS} threads; load average ${loadavg()[0].toFixed(1)}; medians of ${ROUNDS} interleaved rounds of ${RUNS} runs; ratio: median of the rounds' ratios)`);
console.log(`${'logits'.padEnd(20)}${pad('ONNX µs', 10)}${pad('tpu µs', 10)}${pad('ratio', 8)}${pad('exps < 2^-126', 15)}`);
for (const r of rows) {
  console.log(`${r.input.padEnd(20)}${pad(r.onnxUs.toFixed(1), 10)}${pad(r.tpuUs.toFixed(1), 10)}${pad(r.ratio.toFixed(2), 8)}${pad(r.underflows, 15)}`);
}
mkdirSync(new URL('../output/bench/', import.meta.url), { recursive: true });
writeFileSync(new URL('../output/bench/softmax.json', import.meta.url), JSON.stringify({ load: loadavg()[0], rows }, null, 2));
process.exit(0);
