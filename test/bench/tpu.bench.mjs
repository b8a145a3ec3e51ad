// npm run bench:tpu — XLA:TPU in the loop (needs libtpu: pip install libtpu, or TPU_LIBRARY_PATH):
// 1. compile latency of XLA:TPU per program (the programs W1–W6 compile, each compiled once);
// 2. cell latency with the compiler in the loop on vs off, interleaved in the same run (the
//    background compile must not slow a cell): every cell has new shapes, so new programs;
// 3. W1–W6 per mode: one step's host time here beside XLA:TPU's estimated device time of
//    that step on one v5e chip (the sum over the programs the mode runs, runs × estimate).
// Its own empty cache folder: every program is compiled, none read from disk.
// Writes test/output/bench/tpu.json. `node test/bench/tpu.bench.mjs W2 W3` runs only those.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { join } from 'node:path';

const cacheDir = mkdtempSync(join(tmpdir(), 'tpu-bench-xla-'));
process.env.TPU_KERNEL_CACHE_DIR = cacheDir;
process.env.TPU_KERNEL_TPU_COMPILE = 'on';
const { tpu } = await import('tpu-kernel/runtime');
const { tpuInLoop } = await import('../../dist/runtime/device/tpu-loop/tpu-in-loop.js');
const { tpuCompilerInfo } = await import('../../dist/runtime/device/pjrt/index.js');
const { loadWorkloads } = await import('./runtime/workload-list.mjs');

const compiler = await tpuCompilerInfo();
if (!compiler.available) {
  console.error(`bench:tpu skipped: ${compiler.reason}`);
  process.exit(0);
}
const CELL_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MODES = ['debug', 'strict', 'fused'];
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);
const fmt = (v) => (v === undefined || Number.isNaN(v) ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const compileMs = [];
tpuInLoop.onResult((_, r) => {
  if (r.source === 'compiled') compileMs.push(r.compileMs);
});

// 2. A cell as users type it: build, a small MLP layer, a reduction, read the result.
async function cell(n) {
  const t0 = performance.now();
  const x = tpu.rand([n, 256]);
  const w = tpu.rand([256, n]);
  const y = x.matmul(w).relu().add(1).mean();
  await y.data();
  return performance.now() - t0;
}
const cellMs = { on: [], off: [] };
for (let round = 0; round < CELL_ROUNDS; round++) {
  for (const sw of round % 2 ? ['off', 'on'] : ['on', 'off']) {
    process.env.TPU_KERNEL_TPU_COMPILE = sw;
    // new shapes every cell: its programs are all compiled now (and by XLA:TPU when on)
    cellMs[sw].push(await tpu.withMode('fused', () => cell(64 + 8 * (2 * round + (sw === 'on' ? 0 : 1)))));
  }
}
process.env.TPU_KERNEL_TPU_COMPILE = 'on';
console.error('cells done');

// 3. One recorded step per workload and mode, after a warm-up step that compiled its programs.
const rows = [];
for (const w of await loadWorkloads(process.argv.slice(2))) {
  const row = { id: w.id, title: w.title };
  for (const mode of MODES) {
    const run = await tpu.withMode(mode, () => w.prepare(tpu));
    await tpu.withMode(mode, () => run.step());
    await tpu.sync();
    const recording = tpu.profiler.record({ title: `${w.id} ${mode}` });
    const t0 = performance.now();
    await tpu.withMode(mode, () => run.step());
    await tpu.sync();
    const hostMs = performance.now() - t0;
    const profile = await recording.stop();
    const programs = profile.data.programs;
    const missing = programs.filter((p) => !p.xla).length;
    const xlaMs = programs.reduce((s, p) => s + (p.xla ? p.runs * p.xla.optimalSeconds * 1000 : 0), 0);
    row[mode] = { hostMs, cpuDeviceMs: profile.data.deviceBusyMs, xlaV5eMs: xlaMs, programsRun: profile.data.programsRun, programs: programs.length, withoutXla: missing };
    tpu.withMode(mode, () => run.dispose?.());
  }
  rows.push(row);
  console.error(`${w.id} done`);
}

const info = tpu.device().tpuCompiler;
const table = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(8) : c.padStart(12))).join(' ');
const lines = [
  `TPU compiler bench (${info.compiler}, libtpu ${info.libtpuVersion ?? '?'}, PJRT C API ${info.pjrtApiVersion ?? '?'}, ` +
    `${info.topology}; ${cpus().length} cores; load average ${loadavg()[0].toFixed(1)})`,
  '',
  `XLA:TPU compile latency per program: median ${fmt(median(compileMs))} ms, max ${fmt(Math.max(...compileMs))} ms over ${compileMs.length} programs`,
  `cell latency (fused cell, new shapes each time; median of ${CELL_ROUNDS}, interleaved): ` +
    `compiler in the loop ${fmt(median(cellMs.on))} ms, off ${fmt(median(cellMs.off))} ms`,
  '',
  'per step: host time here (CPU executor) | XLA:TPU estimated device time on one v5e chip (sum over the programs run)',
  table(['', ...MODES.flatMap((m) => [`${m} host`, `${m} v5e`])]),
  ...rows.map((r) => table([r.id, ...MODES.flatMap((m) => [`${fmt(r[m].hostMs)} ms`, `${fmt(r[m].xlaV5eMs)} ms${r[m].withoutXla ? '*' : ''}`])])),
  '',
  'programs run per step (debug/strict/fused): ' + rows.map((r) => `${r.id} ${MODES.map((m) => r[m].programsRun).join('/')}`).join(', '),
];
if (rows.some((r) => MODES.some((m) => r[m].withoutXla))) lines.push('* some programs have no XLA:TPU figures (failed to compile: see tpuInLoop.failures)');
for (const f of tpuInLoop.failures.slice(0, 5)) lines.push(`  ${f.label}: ${f.reason.split('\n')[0]}`);
console.log(lines.join('\n'));
mkdirSync(new URL('../output/bench/', import.meta.url), { recursive: true });
writeFileSync(new URL('../output/bench/tpu.json', import.meta.url), JSON.stringify({ compiler: info, compileMs, cellMs, rows }, null, 2));
rmSync(cacheDir, { recursive: true, force: true });
process.exit(0);
