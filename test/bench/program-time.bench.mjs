// Where a runtime-bench workload's step spends its device time: each program's device ms per
// step (tpu.profiler over the timed steps), the wall time per step with the profiler on, and
// the buffer pool's recycled and fresh outputs (a fresh large output costs a page fault per
// 4 KiB). `node test/bench/program-time.bench.mjs W6 strict` (mode: debug, strict, fused or
// compiled: tpu.compile of the workload's prepareCompiled); BENCH_STEPS sets the steps (200).
// cpu: the process's user + system time per step over all its threads (device thread, loop
// workers, GC), which other processes on a shared machine do not inflate as they do wall time.
import { loadavg } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { prepareVariant } from './runtime/workload-list.mjs';

const [id = 'W6', variant = 'strict'] = process.argv.slice(2);
const steps = Number(process.env.BENCH_STEPS ?? 200);
const { run, mode } = await prepareVariant(tpu, id, variant);
for (let i = 0; i < 20; i++) await tpu.withMode(mode, () => run.step());
const pool0 = (await tpu.deviceStats()).pool;
const rec = tpu.profiler.record({ title: `${id} ${variant}` });
const t0 = performance.now();
const cpu0 = process.cpuUsage();
for (let i = 0; i < steps; i++) await tpu.withMode(mode, () => run.step());
const wall = (performance.now() - t0) / steps;
const { user, system } = process.cpuUsage(cpu0);
const cpu = (user + system) / 1000 / steps;
const profile = rec.stop().data;
const pool = (await tpu.deviceStats()).pool;
const perStep = (ms) => (ms / steps).toFixed(3);
console.log(`${id} ${variant}, ${steps} steps, load average ${loadavg()[0].toFixed(1)}: wall ${wall.toFixed(3)} ms/step (profiler on), cpu ${cpu.toFixed(3)} ms/step, ` +
  `device ${perStep(profile.deviceBusyMs)} ms/step; outputs recycled ${pool.reused - pool0.reused}, fresh ${pool.fresh - pool0.fresh}`);
for (const p of profile.programs) console.log(`  ${perStep(p.deviceMs)} ms  ${p.runs / steps}x  ${p.label}`);
process.exit(0); // at once: no wait for the device thread to wind down
