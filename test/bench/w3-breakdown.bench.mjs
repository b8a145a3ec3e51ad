// Where strict W3's time goes (a 1024³ float32 matmul, then tpu.sync(), output dropped): the
// step as the runtime bench times it, in parts from the profiler's execute events (recording,
// the batch's way to the device thread, the program's run there, the reply's way back), beside
// the same tpu_kernel.Sgemm node run by the ortc addon on this thread (no device thread, no
// crossings), interleaved round by round; medians. `node test/bench/w3-breakdown.bench.mjs`
import { loadavg } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { loadOrtc } from '../../dist/runtime/device/onnx/ortc-addon.js';
import { OnnxGraph } from '../../dist/runtime/device/onnx/onnx-graph.js';
import { subscribe } from '../../dist/runtime/profiler/events.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const STEPS = 10;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const load0 = loadavg()[0];

const ortc = loadOrtc(tpu.device().threads); // the process's first load decides, as the device thread's would
if ('reason' in ortc) {
  console.log(`no ortc addon: ${ortc.reason}`);
  process.exit(0);
}
const { addon, gemm } = ortc;
const g = new OnnxGraph();
const spec = (name) => ({ name, dtype: 'float32', shape: [1024, 1024] });
const y = g.customNode('tpu_kernel', 'Sgemm', [g.input('a', 'float32', [1024, 1024]), g.input('b', 'float32', [1024, 1024])], { transA: 0 });
g.output(y, 'float32', [1024, 1024]);
const node = addon.createSession(g.encode(), true, [spec('a'), spec('b')], [spec(y)]);
const host = [0, 1].map(() => Float32Array.from({ length: 1 << 20 }, () => Math.random()));
const out = new Float32Array(1 << 20);

tpu.mode('strict');
const [a, b] = [tpu.rand([1024, 1024]), tpu.rand([1024, 1024])];
const events = [];
subscribe((e) => e.kind === 'execute' && events.push({ start: e.start, end: e.end }));
const parts = { dropped: [], disposed: [] };
const direct = [];
for (let r = 0; r < ROUNDS + 1; r++) {
  for (const kind of ['dropped', 'disposed']) {
    for (let i = 0; i < STEPS; i++) {
      const t0 = performance.now();
      const y = a.matmul(b);
      const t1 = performance.now();
      await tpu.sync();
      const t2 = performance.now();
      if (kind === 'disposed') y.dispose();
      const run = events.find((e) => e.start >= t1 && e.end <= t2);
      if (r > 0 && run) parts[kind].push({ wall: t2 - t0, record: t1 - t0, toDevice: run.start - t1, run: run.end - run.start, back: t2 - run.end });
    }
    events.length = 0;
  }
  for (let i = 0; i < STEPS; i++) {
    const t0 = performance.now();
    addon.run(node, host, [out]);
    if (r > 0) direct.push(performance.now() - t0);
  }
}
console.log(`load average ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)}; matmul GEMM: ${gemm}`);
for (const [kind, ps] of Object.entries(parts)) {
  const m = (k) => median(ps.map((p) => p[k])).toFixed(3);
  console.log(`strict step, output ${kind} (${ps.length} steps): wall ${m('wall')} ms; parts: record ${m('record')}, to the device thread ${m('toDevice')}, program run ${m('run')}, back to the host ${m('back')}`);
}
console.log(`Sgemm node on this thread (${direct.length} runs): ${median(direct).toFixed(3)} ms`);
process.exit(0);
