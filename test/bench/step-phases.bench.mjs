// Where a runtime-bench workload's step goes between host and device, from the profiler's
// events, as medians over the steps: record (step start to the region's cut: the user's code
// recording its ops, autograd included), cut (the cut to the program's start on the device:
// binding, program-cache lookup, launch, the device thread's wake-up), program (on the device),
// wake (the program's end to the step's return: the reply and the host's wake-up).
// `node test/bench/step-phases.bench.mjs W6 fused` (mode: strict, fused or compiled);
// BENCH_STEPS sets the timed steps (2000), after 500 untimed. Phases of steps that ran one program.
import { loadavg } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { subscribe } from '../../dist/runtime/profiler/events.js';
import { prepareVariant } from './runtime/workload-list.mjs';

const [id = 'W6', variant = 'fused'] = process.argv.slice(2);
const steps = Number(process.env.BENCH_STEPS ?? 2000);
const { run, mode } = await prepareVariant(tpu, id, variant);
tpu.mode(mode);
for (let i = 0; i < 500; i++) await run.step();

let cut = 0;
const programs = [];
subscribe((e) => {
  if (e.kind === 'region') cut = e.time;
  if (e.kind === 'execute') programs.push(e);
}, { perOp: false });
const rows = [];
for (let i = 0; i < steps; i++) {
  cut = 0;
  programs.length = 0;
  const t0 = performance.now();
  await run.step();
  const t1 = performance.now();
  if (programs.length !== 1) continue;
  const [p] = programs;
  const recorded = cut || t0; // no region event: a replay (compiled) records nothing
  rows.push([recorded - t0, p.start - recorded, p.end - p.start, t1 - p.end, t1 - t0]);
}
const median = (k) => (rows.map((r) => r[k]).sort((a, b) => a - b)[rows.length >> 1] * 1000).toFixed(0);
console.log(`${id} ${variant}, load average ${loadavg()[0].toFixed(1)}: record ${median(0)} µs, cut ${median(1)} µs, ` +
  `program ${median(2)} µs, wake ${median(3)} µs; step ${median(4)} µs (medians of ${rows.length} steps of one program)`);
process.exit(0); // at once: no wait for the device thread to wind down
