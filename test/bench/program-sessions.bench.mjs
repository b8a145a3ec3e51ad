// The ONNX Runtime side of a runtime-bench workload alone: each program its steps compile
// (more than one op), lowered as the backend lowers it and run as a session through the ortc
// addon on made-up inputs (the same shapes; labels 0..9), µs per run as the median and 10th
// percentile of interleaved blocks. With BENCH_BASE=<another build's dist/> each program is
// lowered by that build's lowerToOnnx too and the two sessions run in turn (an A/B of a
// lowering change in one process; both on this build's addon, so its custom nodes must be
// the other's or more). No host work, no buffer pool, no device thread.
// `node test/bench/program-sessions.bench.mjs W6 compiled` (mode: strict, fused or compiled);
// BENCH_ROUNDS sets the blocks per session (41), each of 50 runs.
import { loadavg } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { prepareVariant } from './runtime/workload-list.mjs';
import { programCache } from '../../dist/runtime/program/program-cache.js';
import { lowerToOnnx } from '../../dist/runtime/device/onnx/lower-program.js';
import { loadOrtc } from '../../dist/runtime/device/onnx/ortc-addon.js';
import { valueOf } from '../../dist/runtime/program/program.js';
import { COMPUTE_TYPE } from '../../dist/runtime/dtype.js';

const [id = 'W6', variant = 'compiled'] = process.argv.slice(2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 41);
const REPS = 50;
const base = process.env.BENCH_BASE && (await import(new URL('runtime/device/onnx/lower-program.js', `file://${process.env.BENCH_BASE.replace(/\/?$/, '/')}`).href));
const ortc = loadOrtc(2);
if ('reason' in ortc) {
  console.log(`no ortc addon: ${ortc.reason}`);
  process.exit(0);
}
const { run, mode } = await prepareVariant(tpu, id, variant);
for (let i = 0; i < 3; i++) await tpu.withMode(mode, () => run.step());

const numel = (shape) => shape.reduce((a, b) => a * b, 1);
const ARRAY = { float32: Float32Array, int32: Int32Array, int64: BigInt64Array, bool: Uint8Array };
const OPTIONS = { sgemm: ortc.sgemm, axpy: true, softmax: true, select: true };
const madeUp = ({ dtype, shape }) =>
  dtype === 'int64' ? BigInt64Array.from({ length: numel(shape) }, (_, i) => BigInt(i % 10))
    : new ARRAY[dtype](numel(shape)).map(() => (shape.length ? Math.random() - 0.5 : 0.01));

/** A run of the program's session as `lower` lowers it (pooled as the backend pools large programs). */
function sessionRun(lower, p) {
  const l = lower(p, OPTIONS);
  const inputs = [
    ...p.inputs.map((v, i) => ({ name: l.inputNames[i], dtype: COMPUTE_TYPE[v.dtype], shape: v.shape })),
    ...p.scalars.map((d, i) => ({ name: l.scalarNames[i], dtype: COMPUTE_TYPE[d], shape: [] })),
  ];
  const outputs = p.outputs.map((v, i) => ({ name: l.outputNames[i], dtype: COMPUTE_TYPE[valueOf(p, v).dtype], shape: valueOf(p, v).shape }));
  const pooled = p.nodes.some((n) => numel(n.shape) >= 1 << 15);
  const session = ortc.addon.createSession(l.model, pooled, inputs, outputs);
  const feeds = inputs.map(madeUp);
  const results = outputs.map(({ dtype, shape }) => new ARRAY[dtype](numel(shape)));
  return () => ortc.addon.run(session, feeds, results);
}

const quantile = (v, q) => [...v].sort((a, b) => a - b)[Math.floor(v.length * q)];
console.log(`${id} ${variant}: programs as ONNX Runtime sessions, µs per run (median / 10th percentile of ${rounds} blocks of ${REPS}), load average ${loadavg()[0].toFixed(1)}`);
for (let pid = 1; programCache().get(pid); pid++) {
  const { program, label } = programCache().get(pid);
  if (program.nodes.length < 2) continue;
  const runs = base ? [sessionRun(base.lowerToOnnx, program), sessionRun(lowerToOnnx, program)] : [sessionRun(lowerToOnnx, program)];
  const times = runs.map(() => []);
  for (let r = 0; r < rounds; r++) {
    runs.forEach((f, k) => {
      f();
      const t0 = performance.now();
      for (let j = 0; j < REPS; j++) f();
      times[k].push(((performance.now() - t0) / REPS) * 1000);
    });
  }
  const cell = (t) => `${quantile(t, 0.5).toFixed(1)} / ${quantile(t, 0.1).toFixed(1)}`;
  console.log(`  ${base ? `base ${cell(times[0])}, this ${cell(times[1])}` : cell(times[0])}  ${label.slice(0, 70)}`);
}
process.exit(0);
