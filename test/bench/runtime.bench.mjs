// npm run bench:runtime — every workload file in test/bench/runtime/ (default export: a
// list of workloads) in debug, strict and fused mode beside raw ONNX Runtime. Prints a
// table; writes test/output/bench/runtime.json. `node test/bench/runtime.bench.mjs W2 W3`
// runs only the named workloads.
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadavg, cpus } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';

const dir = new URL('./runtime/', import.meta.url);
const only = process.argv.slice(2);
const workloads = [];
for (const f of readdirSync(dir).sort()) {
  if (!f.endsWith('.mjs') || f === 'raw-ort.mjs') continue;
  const mod = await import(new URL(f, dir).href);
  if (Array.isArray(mod.default)) workloads.push(...mod.default);
}

const threads = tpu.device().threads;
const rows = [];
for (const w of workloads) {
  if (only.length && !only.includes(w.id)) continue;
  const row = { id: w.id, title: w.title, unit: w.unit, higherIsBetter: !!w.higherIsBetter };
  for (const mode of ['debug', 'strict', 'fused']) {
    tpu.mode(mode);
    const compiledBefore = tpu.stats().programsCompiled;
    row[mode] = await w.run(tpu, mode);
    row[mode].compiles = tpu.stats().programsCompiled - compiledBefore;
    await tpu.sync();
  }
  row.raw = await w.raw(threads);
  rows.push(row);
  console.error(`${w.id} done`);
}

const fmt = (v) => (v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const ratio = (row, a, b) => (row.higherIsBetter ? row[a].value / row[b].value : row[b].value / row[a].value);
const lines = [
  `runtime bench (${tpu.device().backend}, ${threads} threads; ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the end: timings are only meaningful on an idle machine)`,
  'id  unit      debug    strict   fused    raw ORT  strict host µs/op  fused/strict speedup  fused vs raw',
];
for (const r of rows) {
  lines.push(
    [
      r.id.padEnd(3), r.unit.padEnd(8), fmt(r.debug.value).padStart(7), fmt(r.strict.value).padStart(8),
      fmt(r.fused.value).padStart(8), fmt(r.raw.value).padStart(8),
      (r.strict.hostUsPerOp === undefined ? '-' : fmt(r.strict.hostUsPerOp)).padStart(18),
      `${ratio(r, 'fused', 'strict').toFixed(2)}x`.padStart(21),
      `${(r.higherIsBetter ? r.fused.value / r.raw.value : r.raw.value / r.fused.value).toFixed(2)}x`.padStart(13),
    ].join(' '),
  );
}
console.log(lines.join('\n'));
console.log('(fused vs raw: raw time / fused time, or fused rate / raw rate: 1.00x = at the floor)');
const out = fileURLToPath(new URL('../output/bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}runtime.json`, JSON.stringify({ date: new Date().toISOString(), threads, cores: cpus().length, loadAverage: loadavg(), rows }, null, 2));
