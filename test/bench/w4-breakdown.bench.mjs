// Where W4's time goes (x[256,1024] -> matmul -> relu -> matmul -> softmax, fused mode):
// 1. ONNX Runtime's own profile of the same graph (raw onnxruntime-node session, 2 threads,
//    spinning off as the runtime sets it): each node's kernel time and the whole run;
// 2. the fused step as the runtime bench times it, in parts (the profiler's execute events):
//    recording the ops, the batch's way to the device thread, the program's run there (its
//    output allocation included), the reply's way back; and the outputs that were fresh memory
//    rather than pooled, with the output dropped (natural code) or disposed.
// Variants run in turn, in one process; medians. `node test/bench/w4-breakdown.bench.mjs`
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { tpu } from 'tpu-kernel/runtime';
import { OnnxGraph } from '../../dist/runtime/device/onnx/onnx-graph.js';
import { subscribe } from '../../dist/runtime/profiler/events.js';

const STEPS = 40;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const lines = [`load average ${loadavg()[0].toFixed(1)}`];

// 1. ONNX Runtime's per-node profile
const g = new OnnxGraph();
g.input('x', 'float32', [256, 1024]);
g.input('w1', 'float32', [1024, 1024]);
g.input('w2', 'float32', [1024, 1024]);
const out = g.node('Softmax', [g.node('MatMul', [g.node('Relu', [g.node('MatMul', ['x', 'w1'])]), 'w2'])], { axis: -1 });
g.output(out, 'float32', [256, 1024]);
const dir = mkdtempSync(join(tmpdir(), 'w4-profile-'));
const session = await ort.InferenceSession.create(g.encode(), {
  intraOpNumThreads: tpu.device().threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
  enableProfiling: true, profileFilePrefix: join(dir, 'w4'), extra: { session: { intra_op: { allow_spinning: '0' } } },
});
const rand = (dims) => new ort.Tensor('float32', Float32Array.from({ length: dims[0] * dims[1] }, () => Math.random()), dims);
const feeds = { x: rand([256, 1024]), w1: rand([1024, 1024]), w2: rand([1024, 1024]) };
for (let i = 0; i < STEPS; i++) await session.run(feeds);
session.endProfiling();
const file = join(dir, readdirSync(dir)[0]);
const byName = new Map();
for (const e of JSON.parse(readFileSync(file, 'utf8'))) {
  const key = e.cat === 'Node' && e.name.endsWith('_kernel_time') ? e.name.replace('_kernel_time', '') : e.name === 'model_run' ? 'whole run' : undefined;
  if (key) byName.set(key, [...(byName.get(key) ?? []), e.dur / 1000]);
}
rmSync(dir, { recursive: true });
lines.push(`ONNX Runtime profile (raw session, median of ${STEPS} runs): ` + [...byName].map(([k, v]) => `${k} ${median(v).toFixed(2)} ms`).join(', '));

// 2. the fused step, output dropped or disposed: each step's parts from the profiler's events
tpu.mode('fused');
const [x, w1, w2] = [tpu.rand([256, 1024]), tpu.rand([1024, 1024]), tpu.rand([1024, 1024])];
const step = () => x.matmul(w1).relu().matmul(w2).softmax(-1);
const events = [];
subscribe((e) => e.kind === 'execute' && events.push({ start: e.start, end: e.end }));
for (const dispose of [false, true, false, true]) {
  for (let i = 0; i < 5; i++) {
    const y = step();
    await tpu.sync();
    if (dispose) y.dispose();
  }
  const pool0 = (await tpu.deviceStats()).pool;
  events.length = 0;
  const parts = [];
  for (let i = 0; i < STEPS; i++) {
    const t0 = performance.now();
    const y = step();
    const t1 = performance.now();
    await tpu.sync();
    const t2 = performance.now();
    if (dispose) y.dispose();
    const run = events.find((e) => e.start >= t1 && e.end <= t2);
    if (run) parts.push({ wall: t2 - t0, record: t1 - t0, toDevice: run.start - t1, run: run.end - run.start, back: t2 - run.end });
  }
  const pool = (await tpu.deviceStats()).pool;
  const m = (k) => median(parts.map((p) => p[k])).toFixed(2);
  lines.push(`fused step, output ${dispose ? 'disposed' : 'dropped '} (${parts.length} steps): wall ${m('wall')} ms; medians of its parts: record ${m('record')}, to the device thread ${m('toDevice')}, ` +
    `program run ${m('run')}, back to the host ${m('back')}; fresh outputs ${pool.fresh - pool0.fresh} of ${STEPS}`);
}
console.log(lines.join('\n'));
process.exit(0);
