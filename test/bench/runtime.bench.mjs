// npm run bench:runtime — every workload file in test/bench/runtime/ (default export: a
// list of workloads, see workloads.mjs) in debug, strict and fused mode beside raw ONNX
// Runtime (`prepareRaw`, optional) and under tpu.compile (`prepareCompiled`, optional, W6);
// a workload with `callSites: true` (W1) also runs in strict mode with every call site
// recorded (tpu.setCallSites(true)) and with none, beside the default ('auto').
// Steps of all variants are interleaved round by round, so a busy machine
// slows them alike; each figure is a median. Prints a table; writes
// test/output/bench/runtime.json. `node test/bench/runtime.bench.mjs W2 W3` runs only those.
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadavg, cpus } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';

const WARMUP = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const MODES = ['debug', 'strict', 'fused'];

const dir = new URL('./runtime/', import.meta.url);
const only = process.argv.slice(2);
const workloads = [];
for (const f of readdirSync(dir).sort()) {
  if (!f.endsWith('.mjs') || f === 'raw-ort.mjs') continue;
  const mod = await import(new URL(f, dir).href);
  if (Array.isArray(mod.default)) workloads.push(...mod.default);
}
// W1 first: the tiny-op dispatch figures are taken on a fresh session, not after training state.
workloads.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const threads = tpu.device().threads;
const rows = [];
for (const w of workloads) {
  if (only.length && !only.includes(w.id)) continue;
  const variants = {};
  for (const mode of MODES) variants[mode] = { run: await tpu.withMode(mode, () => w.prepare(tpu)), mode };
  if (w.prepareCompiled) variants.compiled = { run: await w.prepareCompiled(tpu), mode: 'strict' };
  if (w.callSites) {
    variants.everySite = { run: await tpu.withMode('strict', () => w.prepare(tpu)), mode: 'strict', sites: true };
    variants.noSites = { run: await tpu.withMode('strict', () => w.prepare(tpu)), mode: 'strict', sites: false };
  }
  if (w.prepareRaw) variants.raw = { run: await w.prepareRaw(threads) };
  const timed = Object.fromEntries(Object.keys(variants).map((k) => [k, { ms: [], host: [] }]));
  const compilesAfterWarmup = {};
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [name, v] of Object.entries(variants)) {
      if (round === WARMUP && v.mode) compilesAfterWarmup[name] = -tpu.stats().programsCompiled;
      const sitesBefore = v.sites === undefined ? undefined : tpu.setCallSites(v.sites);
      const t0 = performance.now();
      const extra = v.mode ? await tpu.withMode(v.mode, () => v.run.step()) : await v.run.step();
      const ms = performance.now() - t0;
      if (sitesBefore !== undefined) tpu.setCallSites(sitesBefore);
      if (v.mode) await tpu.sync();
      if (round >= WARMUP) {
        timed[name].ms.push(ms);
        if (extra?.hostUsPerOp !== undefined) timed[name].host.push(extra.hostUsPerOp);
      }
      if (round === WARMUP + ROUNDS - 1 && v.mode) compilesAfterWarmup[name] += tpu.stats().programsCompiled;
    }
  }
  for (const v of Object.values(variants)) if (v.mode) tpu.withMode(v.mode, () => v.run.dispose?.());
  const row = { id: w.id, title: w.title, unit: w.unit, higherIsBetter: !!w.higherIsBetter };
  for (const [name, t] of Object.entries(timed)) {
    row[name] = { value: w.value(median(t.ms)), medianMs: median(t.ms) };
    if (t.host.length) row[name].hostUsPerOp = median(t.host);
    if (name in compilesAfterWarmup) row[name].compilesAfterWarmup = compilesAfterWarmup[name];
  }
  rows.push(row);
  console.error(`${w.id} done`);
}

const fmt = (v) => (v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const speed = (row, a, b) => (row.higherIsBetter ? row[a].value / row[b].value : row[b].value / row[a].value);
const lines = [
  `runtime bench (${tpu.device().backend}, ${threads} threads; ${cpus().length} cores; load average ${loadavg()[0].toFixed(1)}; median of ${ROUNDS} interleaved rounds)`,
  'id  unit      debug    strict   fused    raw ORT  strict host µs/op  fused vs strict  fused vs raw  compiles after warm-up',
];
for (const r of rows) {
  lines.push(
    [
      r.id.padEnd(3), r.unit.padEnd(8), fmt(r.debug.value).padStart(7), fmt(r.strict.value).padStart(8),
      fmt(r.fused.value).padStart(8), fmt(r.raw?.value).padStart(8), fmt(r.strict.hostUsPerOp).padStart(18),
      `${speed(r, 'fused', 'strict').toFixed(2)}x`.padStart(16), (r.raw ? `${speed(r, 'fused', 'raw').toFixed(2)}x` : '-').padStart(13),
      MODES.map((m) => r[m].compilesAfterWarmup).join('/').padStart(23),
    ].join(' '),
  );
}
for (const r of rows.filter((r) => r.compiled)) {
  lines.push(`${r.id} compiled (tpu.compile): ${fmt(r.compiled.value)} ${r.unit}, ${speed(r, 'compiled', 'strict').toFixed(2)}x strict, ${r.compiled.compilesAfterWarmup} compiles after warm-up`);
}
for (const r of rows.filter((r) => r.everySite)) {
  lines.push(`${r.id} strict host µs/op by call sites: ${fmt(r.strict.hostUsPerOp)} default ('auto'), ${fmt(r.everySite.hostUsPerOp)} every call (tpu.setCallSites(true)), ${fmt(r.noSites.hostUsPerOp)} none`);
}
console.log(lines.join('\n'));
console.log('(speed ratios: >1 means fused is faster; compiles after warm-up: debug/strict/fused)');
const out = fileURLToPath(new URL('../output/bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}runtime.json`, JSON.stringify({ date: new Date().toISOString(), threads, cores: cpus().length, loadAverage: loadavg(), rounds: ROUNDS, rows }, null, 2));
