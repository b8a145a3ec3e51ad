// W4's forward (x[256,1024] -> matmul -> relu -> matmul -> softmax) as one ONNX Runtime session
// through the ortc addon, on this thread, as the lowering gives it: a relu and a softmax folded
// into the tpu_kernel.Sgemm nodes that make their inputs (the epilogue attribute: each thread's
// block of the product goes through them while in cache) against the same graph with separate
// Relu and tpu_kernel.Softmax nodes (each another pass over memory and another wait on the
// pool). Interleaved run by run; medians of wall time and of the process's CPU time per run.
// Results compared bit for bit. `node test/bench/sgemm-epilogue.bench.mjs` (BENCH_ROUNDS, 60).
import { loadavg } from 'node:os';
import { loadOrtc } from '../../dist/runtime/device/onnx/ortc-addon.js';
import { OnnxGraph } from '../../dist/runtime/device/onnx/onnx-graph.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const ortc = loadOrtc(2); // the runtime's pool of 2 threads
if ('reason' in ortc || !ortc.sgemm) {
  console.log(`no oneDNN GEMM to measure: ${'reason' in ortc ? ortc.reason : ortc.gemm}`);
  process.exit(0);
}
const { addon } = ortc;
const spec = (name, shape) => ({ name, dtype: 'float32', shape });

function session(foldRelu, foldSoftmax) {
  const g = new OnnxGraph();
  const x = g.input('x', 'float32', [256, 1024]);
  const w1 = g.input('w1', 'float32', [1024, 1024]);
  const w2 = g.input('w2', 'float32', [1024, 1024]);
  const gemm = (a, b, epilogue) => g.customNode('tpu_kernel', 'Sgemm', [a, b], epilogue ? { transA: 0, epilogue } : { transA: 0 });
  const h = foldRelu ? gemm(x, w1, 1) : g.node('Relu', [gemm(x, w1)]);
  const y = foldSoftmax ? gemm(h, w2, 2) : g.customNode('tpu_kernel', 'Softmax', [gemm(h, w2)]);
  g.output(y, 'float32', [256, 1024]);
  return addon.createSession(g.encode(), true, [spec('x', [256, 1024]), spec('w1', [1024, 1024]), spec('w2', [1024, 1024])], [spec(y, [256, 1024])]);
}

const random = (n, scale) => Float32Array.from({ length: n }, () => (Math.random() * 2 - 1) * scale);
const inputs = [random(256 * 1024, 1), random(1024 * 1024, 0.1), random(1024 * 1024, 0.1)];
const variants = {
  'separate Relu and Softmax nodes': session(false, false),
  'relu folded': session(true, false),
  'softmax folded': session(false, true),
  'both folded (the lowering)': session(true, true),
};
const outs = Object.fromEntries(Object.keys(variants).map((k) => [k, new Float32Array(256 * 1024)]));
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, { wall: [], cpu: [] }]));
const load0 = loadavg()[0];
for (let r = 0; r < ROUNDS + 2; r++) {
  for (const [name, s] of Object.entries(variants)) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    addon.run(s, inputs, [outs[name]]);
    const wall = performance.now() - t0;
    const { user, system } = process.cpuUsage(c0);
    if (r >= 2) times[name].wall.push(wall), times[name].cpu.push((user + system) / 1000);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const [a, ...others] = Object.values(outs).map((o) => new Uint32Array(o.buffer));
const differing = Math.max(...others.map((b) => a.filter((v, i) => v !== b[i]).length));
console.log(`W4's forward as one session, 2 threads (load average ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)}; medians of ${ROUNDS} interleaved runs; outputs differing in ${differing} of ${a.length} bits patterns)`);
for (const [name, t] of Object.entries(times)) console.log(`  ${name.padEnd(32)} wall ${median(t.wall).toFixed(3)} ms, cpu ${median(t.cpu).toFixed(3)} ms`);
process.exit(0);
