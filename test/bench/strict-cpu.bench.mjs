// CPU time per step (every thread of the process: host, device thread, ONNX Runtime and loop
// workers) of runtime-bench workloads in strict mode, natural code, with the pool's fresh and
// reused outputs and the full collections (their count and summed main-thread pauses) during
// the timed steps. On a machine loaded by other jobs wall times swing by 2-5x; CPU time per
// step moves far less, so an A/B of two builds run in turn can still be read.
// On Linux the CPU is also split by thread: host, device thread (the busiest other) and the
// rest (ONNX Runtime's pool, V8's compiler and collector threads).
// `node test/bench/strict-cpu.bench.mjs W6 W2` (workloads run in the order given, in one
// process, as the runtime bench runs them).
import { PerformanceObserver } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { loadWorkloads } from './runtime/workload-list.mjs';
import { threadCpu, threadSplit } from './thread-cpu.mjs';

const STEPS = { W2: 40, W6: 300 };
let collections = [];
new PerformanceObserver((l) => collections.push(...l.getEntries().filter((e) => e.detail?.kind === 4))).observe({ entryTypes: ['gc'] });
const workloads = await loadWorkloads();
const lines = [`load average ${loadavg()[0].toFixed(1)}`];
for (const id of process.argv.slice(2)) {
  const w = workloads.find((x) => x.id === id);
  if (!w) throw new Error(`unknown workload ${id}; known: ${workloads.map((x) => x.id).join(', ')}`);
  const run = await tpu.withMode('strict', () => w.prepare(tpu));
  for (let i = 0; i < 5; i++) await tpu.withMode('strict', () => run.step());
  const n = STEPS[id] ?? 50;
  const pool0 = (await tpu.deviceStats()).pool;
  collections = [];
  const cpu0 = process.cpuUsage();
  const threads0 = threadCpu();
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await tpu.withMode('strict', () => run.step());
    ms.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  const split = threadSplit(threads0);
  const pool = (await tpu.deviceStats()).pool;
  ms.sort((a, b) => a - b);
  const perStep = (v) => (v / n).toFixed(2);
  const byThread = split ? ` (host ${perStep(split.host)}, device thread ${perStep(split.device)}, others ${perStep(split.rest)})` : '';
  lines.push(`${id}: CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms/step${byThread}, wall median ${ms[n >> 1].toFixed(2)} min ${ms[0].toFixed(2)} ms; ` +
    `outputs pooled ${pool.reused - pool0.reused}, fresh ${pool.fresh - pool0.fresh}; full collections ${collections.length} ` +
    `(pauses ${collections.reduce((t, e) => t + e.duration, 0).toFixed(0)} ms in all)`);
  tpu.withMode('strict', () => run.dispose?.());
}
console.log(lines.join('\n'));
process.exit(0); // at once: no wait for the device thread to wind down
