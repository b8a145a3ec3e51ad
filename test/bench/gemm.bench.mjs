// One float32 matmul as a one-node ONNX Runtime session through the ortc addon: oneDNN's GEMM
// (the tpu_kernel.Sgemm node, split over the pool's threads, or on oneDNN's OpenMP team with
// OMP_WAIT_POLICY=passive: the table's title says which) against ORT's own MatMul (MLAS,
// with a transposed operand as ORT fuses it), interleaved A/B in one process, on the shared
// intra-op pool as the backend runs large programs. The shapes: the runtime bench's W3 and W4
// products, the smallest product the lowering gives oneDNN (2^26 multiply-adds, K 512, N 512),
// and those it leaves to MLAS (a short K, a narrow B). A transposed B (x @ W.T) is MLAS's
// alone: the node reads B as stored (with B transposed in place it took 1.04-1.15x MLAS's time).
// `node test/bench/gemm.bench.mjs`; prints a table and writes test/output/bench/gemm.json.
// The team against the split: run it with and without `OMP_WAIT_POLICY=passive` in turn.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadOrtc } from '../../dist/runtime/device/onnx/ortc-addon.js';
import { OnnxGraph } from '../../dist/runtime/device/onnx/onnx-graph.js';

const ortc = loadOrtc(2); // as the runtime loads it (oneDNN's OpenMP team when the user has its threads sleep)
if ('reason' in ortc) {
  console.log(`no ortc addon: ${ortc.reason}`);
  process.exit(0);
}
const { addon, gemm, sgemm } = ortc;
if (!sgemm) {
  console.log(`no oneDNN GEMM to measure: ${gemm}`);
  process.exit(0);
}

// [name (M x K x N), A's shape, B's shape, transA]
const CASES = [
  ['W3 1024x1024x1024', [1024, 1024], [1024, 1024], 0, 0],
  ['W4 256x1024x1024', [256, 1024], [1024, 1024], 0, 0],
  ['A.T @ B 1024x1024x1024', [1024, 1024], [1024, 1024], 1, 0],
  ['256x2048x256', [256, 2048], [2048, 256], 0, 0],
  ['threshold 256x512x512', [256, 512], [512, 512], 0, 0],
  ['MLAS: K < 512, 8192x128x128', [8192, 128], [128, 128], 0, 0],
  ['MLAS: N < 256, 4096x512x64', [4096, 512], [512, 64], 0, 0],
];
const ROUNDS = 9;
const spec = (name, shape) => ({ name, dtype: 'float32', shape });

function session(custom, sa, sb, ta) {
  const g = new OnnxGraph();
  const a = g.input('a', 'float32', sa);
  const b = g.input('b', 'float32', sb);
  const t = (v) => g.node('Transpose', [v], { perm: [1, 0] });
  const y = custom ? g.customNode('tpu_kernel', 'Sgemm', [a, b], { transA: ta }) : g.node('MatMul', [ta ? t(a) : a, b]);
  const [m, n] = [ta ? sa[1] : sa[0], sb[1]];
  g.output(y, 'float32', [m, n]);
  return { s: addon.createSession(g.encode(), true, [spec('a', sa), spec('b', sb)], [spec(y, [m, n])]), out: new Float32Array(m * n) };
}

const rows = [];
for (const [name, sa, sb, ta] of CASES) {
  const [m, k, n] = [ta ? sa[1] : sa[0], ta ? sa[0] : sa[1], sb[1]];
  const a = new Float32Array(sa[0] * sa[1]).map(() => Math.random() - 0.5);
  const b = new Float32Array(sb[0] * sb[1]).map(() => Math.random() - 0.5);
  const runs = Math.max(3, Math.round(3e8 / (m * n * k)));
  const both = [session(true, sa, sb, ta), session(false, sa, sb, ta)];
  const times = [[], []];
  for (let r = 0; r < ROUNDS; r++) {
    both.forEach(({ s, out }, i) => {
      addon.run(s, [a, b], [out]);
      const t0 = performance.now();
      for (let j = 0; j < runs; j++) addon.run(s, [a, b], [out]);
      times[i].push(((performance.now() - t0) / runs) * 1000);
    });
  }
  const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
  const [dnnl, mlas] = times.map(median);
  rows.push({ name, m, k, n, oneDnnUs: dnnl, mlasUs: mlas, ratio: dnnl / mlas, oneDnnGflops: (2 * m * n * k) / dnnl / 1e3 });
}

const pad = (s, w) => String(s).padStart(w);
console.log(`GEMM bench (${gemm} against ONNX Runtime's MLAS; 2 threads; load average ${loadavg()[0].toFixed(1)}; median of ${ROUNDS} interleaved rounds)`);
console.log(`${'product'.padEnd(34)}${pad('oneDNN µs', 11)}${pad('MLAS µs', 11)}${pad('ratio', 8)}${pad('GFLOP/s', 9)}`);
for (const r of rows) {
  console.log(`${r.name.padEnd(34)}${pad(r.oneDnnUs.toFixed(1), 11)}${pad(r.mlasUs.toFixed(1), 11)}${pad(r.ratio.toFixed(2), 8)}${pad(r.oneDnnGflops.toFixed(0), 9)}`);
}
mkdirSync(new URL('../output/bench/', import.meta.url), { recursive: true });
writeFileSync(new URL('../output/bench/gemm.json', import.meta.url), JSON.stringify({ gemm, load: loadavg()[0], rows }, null, 2));
process.exit(0);
