// Where a runtime-bench workload's programs spend their time inside ONNX Runtime, node by node:
// ORT's own session profiling (TPU_KERNEL_ORT_PROFILE, through the ortc addon; each session
// writes its JSON when released, here at tpu.reset()), as each node's median and minimum over
// the timed steps, by node and by op type. The profiler adds a few µs to every node (a tiny
// node's minimum is ~5 µs here against ~0.3 µs unprofiled): compare nodes and builds, not
// these sums with unprofiled step times.
// `node test/bench/program-nodes.bench.mjs W6 compiled` (mode: strict, fused or compiled);
// BENCH_STEPS sets the timed steps (300), BENCH_TOP the nodes listed (25).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const [id = 'W6', variant = 'compiled'] = process.argv.slice(2);
const steps = Number(process.env.BENCH_STEPS ?? 300);
const top = Number(process.env.BENCH_TOP ?? 25);
const dir = mkdtempSync(join(tmpdir(), 'ort-profile-'));
process.env.TPU_KERNEL_ORT_PROFILE = join(dir, 'ort'); // read by the addon as each session opens
const { tpu } = await import('tpu-kernel/runtime');
const { prepareVariant } = await import('./runtime/workload-list.mjs');

const { run, mode } = await prepareVariant(tpu, id, variant);
for (let i = 0; i < steps; i++) await tpu.withMode(mode, () => run.step());
await tpu.reset(); // releases the sessions: each writes its profile
await new Promise((resolve) => setTimeout(resolve, 1000));

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const parsed = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return []; // a session still writing its profile as the process ends (one of the warm-up's)
  }
};
const files = readdirSync(dir).map((f) => parsed(readFileSync(join(dir, f), 'utf8')));
rmSync(dir, { recursive: true });
console.log(`${id} ${variant}: ORT's session profile, ${steps} steps, load average ${loadavg()[0].toFixed(1)} (µs, profiler on)`);
for (const events of files) {
  const runs = events.filter((e) => e.name === 'model_run').map((e) => e.dur);
  if (runs.length < steps / 2) continue; // a session of warm-up or setup work
  const nodes = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const name = e.name.slice(0, -'_kernel_time'.length);
    const n = nodes.get(name) ?? { op: e.args.op_name, durs: [] };
    n.durs.push(e.dur);
    nodes.set(name, n);
  }
  const rows = [...nodes].map(([name, n]) => ({ name, op: n.op, median: median(n.durs), min: Math.min(...n.durs) }));
  const sum = (key) => rows.reduce((s, r) => s + r[key], 0);
  console.log(`\nsession of ${rows.length} nodes, ${runs.length} runs: run median ${median(runs)}, nodes' medians sum ${sum('median')}, minima sum ${sum('min')}`);
  for (const r of rows.sort((a, b) => b.median - a.median).slice(0, top)) {
    console.log(`  ${String(r.median).padStart(6)} ${String(r.min).padStart(6)}  ${r.op.padEnd(16)} ${r.name}`);
  }
  const byOp = new Map();
  for (const r of rows) byOp.set(r.op, [(byOp.get(r.op)?.[0] ?? 0) + 1, (byOp.get(r.op)?.[1] ?? 0) + r.median]);
  console.log(`  by op (nodes, medians' sum): ${[...byOp].sort((a, b) => b[1][1] - a[1][1]).map(([op, [n, t]]) => `${op} ${n} ${t}`).join(', ')}`);
}
process.exit(0);
