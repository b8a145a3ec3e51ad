// npm run bench:runtime — every workload file in test/bench/runtime/ (default export: a
// list of workloads, see workloads.mjs), written as users write it (no dispose, no sync
// inside loops), in debug, strict and fused mode and under tpu.compile (`prepareCompiled`,
// W6), beside raw ONNX Runtime (`prepareRaw`) and the Python peers found (numpy, PyTorch
// eager, torch.compile: peers.py, one child process). Labelled apart: strict mode with each
// step inside tpu.scope (every tensor disposed at its end), and for W1 (`callSites: true`)
// strict mode with every call site recorded and with none.
// Variants are interleaved round by round (a block of steps each, below), so a busy machine
// slows them alike; each figure is a median. Prints the figures, the time ratios to PyTorch eager and
// the goals; writes test/output/bench/runtime.json. `node test/bench/runtime.bench.mjs W2 W3`
// runs only those; BENCH_ROUNDS sets the rounds, BENCH_BLOCK_MS a block's length, BENCH_WARMUP_MS each variant's warm-up,
// BENCH_PEERS=0 leaves the peers out,
// BENCH_VARIANTS=fused,torch.compile times only those columns (quick iteration on one mode),
// BENCH_PEER_MALLOC=default runs the peers with glibc's own allocation (peers.mjs: why not by default).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadavg, cpus } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { startPeers, noPeers, PEERS, PEER_MALLOC } from './runtime/peers.mjs';
import { goals } from './runtime/goals.mjs';
import { loadWorkloads } from './runtime/workload-list.mjs';

const WARMUP = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const MODES = ['debug', 'strict', 'fused'];

// Each round runs a block of steps per variant (at least BLOCK_MS, the first step untimed): the
// deferred work a variant leaves (its dead tensors, freed when the collector finds them) lands
// in its own next steps, not in the figure of the variant timed after it (measured with one
// step per variant: fused W1 0.38 µs/op alone, 0.62 after strict's steps, 1.38 after debug's).
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 60);
const BLOCK_MAX_STEPS = 50;
// Before its timed rounds each variant runs for WARMUP_MS in all, with no cap on steps: V8
// optimizes the runtime's JS as it runs, and a fused W6 step was still getting faster after
// 1,000 steps (docs/runtime.md); the peers' steps get the same. The figures are the steady
// state a training loop of thousands of steps sees, not its first hundred steps.
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1500);

/** One step of a variant, timed: { ms, extra, fresh } (extra: what the step returned; fresh: new device outputs). */
async function timeStep(v) {
  if (v.peer) return { ms: await peers.step(v.workload, v.peer, v.threads) };
  const sitesBefore = v.sites === undefined ? undefined : tpu.setCallSites(v.sites);
  const fresh0 = v.mode ? (await tpu.deviceStats()).pool?.fresh : undefined;
  const t0 = performance.now();
  let extra;
  if (!v.mode) extra = await v.run.step();
  else if (v.scoped) extra = await tpu.withMode(v.mode, () => tpu.scope(() => v.run.step()));
  else extra = await tpu.withMode(v.mode, () => v.run.step());
  const ms = performance.now() - t0;
  if (sitesBefore !== undefined) tpu.setCallSites(sitesBefore);
  if (v.mode) await tpu.sync();
  // outputs the device allocated afresh (a page fault per 4 KiB) instead of reusing freed memory
  const fresh = fresh0 === undefined ? undefined : (await tpu.deviceStats()).pool.fresh - fresh0;
  return { ms, extra, fresh };
}

const only = process.argv.slice(2);
const workloads = await loadWorkloads();

const peers = process.env.BENCH_PEERS === '0' ? noPeers() : await startPeers();
console.error(`peers found: ${Object.entries(peers.found).map(([p, v]) => `${p} ${v}`).join(', ') || 'none'}` +
  (peers.missing.length ? `; missing: ${peers.missing.join(', ')}` : ''));

const keep = process.env.BENCH_VARIANTS?.split(',');
const wanted = (name) => !keep || keep.includes(name);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const threads = tpu.device().threads;
const rows = [];
const skipped = [];
for (const w of workloads) {
  if (only.length && !only.includes(w.id)) continue;
  const variants = {};
  for (const mode of MODES) variants[mode] = { run: await tpu.withMode(mode, () => w.prepare(tpu)), mode };
  if (w.prepareCompiled) variants.compiled = { run: await w.prepareCompiled(tpu), mode: 'strict' };
  variants.strictScoped = { run: await tpu.withMode('strict', () => w.prepare(tpu)), mode: 'strict', scoped: true };
  if (w.callSites) {
    variants.everySite = { run: await tpu.withMode('strict', () => w.prepare(tpu)), mode: 'strict', sites: true };
    variants.noSites = { run: await tpu.withMode('strict', () => w.prepare(tpu)), mode: 'strict', sites: false };
  }
  if (w.prepareRaw) variants.raw = { run: await w.prepareRaw(threads) };
  for (const peer of PEERS) {
    if (!(peer in peers.found) || !wanted(peer)) continue;
    const r = await peers.prepare(w.id, peer);
    if (!r.ok && r.error) skipped.push(`${w.id} ${peer}: ${r.error}`);
    if (!r.ok) continue;
    variants[peer] = { peer, threads: peers.threads, workload: w.id };
    // PyTorch on one thread too: its OpenMP threads lose much more to a loaded machine.
    if (peer !== 'numpy' && peers.threads > 1) variants[`${peer}@1`] = { peer, threads: 1, workload: w.id };
  }
  for (const k of Object.keys(variants)) if (!wanted(k) && !(variants[k].peer && wanted(variants[k].peer))) delete variants[k];
  const timed = Object.fromEntries(Object.keys(variants).map((k) => [k, { ms: [], host: [], fresh: 0 }]));
  const compilesAfterWarmup = {};
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [name, v] of Object.entries(variants)) {
      if (round === WARMUP && v.mode) compilesAfterWarmup[name] = -tpu.stats().programsCompiled;
      const blockStart = performance.now();
      const warming = round < WARMUP;
      const blockMs = warming ? WARMUP_MS / WARMUP : BLOCK_MS;
      for (let i = 0; i < 2 || ((warming || i < BLOCK_MAX_STEPS) && performance.now() - blockStart < blockMs); i++) {
        const { ms, extra, fresh } = await timeStep(v);
        if (warming || i === 0) continue;
        timed[name].fresh += fresh ?? 0;
        timed[name].ms.push(ms);
        if (extra?.hostUsPerOp !== undefined) timed[name].host.push(extra.hostUsPerOp);
      }
      if (round === WARMUP + ROUNDS - 1 && v.mode) compilesAfterWarmup[name] += tpu.stats().programsCompiled;
    }
  }
  for (const v of Object.values(variants)) if (v.mode) tpu.withMode(v.mode, () => v.run.dispose?.());
  for (const v of Object.values(variants)) if (v.peer) await peers.drop(w.id, v.peer);

  const row = { id: w.id, title: w.title, unit: w.unit, higherIsBetter: !!w.higherIsBetter };
  for (const [name, t] of Object.entries(timed)) {
    row[name] = { value: w.value(median(t.ms)), medianMs: median(t.ms) };
    if (t.host.length) row[name].hostUsPerOp = median(t.host);
    if (variants[name].mode) row[name].freshPerStep = t.fresh / t.ms.length;
    if (name in compilesAfterWarmup) row[name].compilesAfterWarmup = compilesAfterWarmup[name];
    if (variants[name].threads) row[name].threads = variants[name].threads;
  }
  // PyTorch's faster thread setting in this run is the one compared against.
  for (const peer of ['torch', 'torch.compile']) {
    const one = row[`${peer}@1`];
    delete row[`${peer}@1`];
    if (one && one.medianMs < row[peer].medianMs) [row[peer], row[`${peer}@${row[peer].threads}`]] = [one, row[peer]];
    else if (one) row[`${peer}@1`] = one;
  }
  rows.push(row);
  console.error(`${w.id} done`);
}
peers.close();

const fmt = (v) => (v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const COLUMNS = [
  ['torch', 'PyTorch'], ['torch.compile', 'torch.compile'], ['numpy', 'numpy'], ['raw', 'raw ORT'],
  ['debug', 'debug'], ['strict', 'strict'], ['fused', 'fused'], ['compiled', 'compiled'],
];
const table = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(10) : c.padStart(13))).join(' ');
const lines = [
  `runtime bench (${tpu.device().backend}, ${threads} threads; PyTorch ${peers.threads ?? '-'} threads; ${cpus().length} cores; ` +
    `load average ${loadavg()[0].toFixed(1)}; each variant warmed for ${WARMUP_MS} ms, then the median of the timed steps of ${ROUNDS} interleaved rounds, each variant a block of ≥ ${BLOCK_MS} ms per round, its first step untimed; natural code: no dispose, no sync in loops)`,
  `peers: ${Object.entries(peers.found).map(([p, v]) => `${p} ${v}`).join(', ') || 'none found'}${peers.missing.length ? `; missing: ${peers.missing.join(', ')}` : ''}; ${PEER_MALLOC}`,
  `PyTorch columns: the faster of ${peers.threads} threads (its default) and 1 thread in this run; threads used: ` +
    rows.map((r) => `${r.id} ${['torch', 'torch.compile'].map((p) => r[p]?.threads ?? '-').join('/')}`).join(', '),
  '',
  table(['', ...COLUMNS.map(([, label]) => label)]),
  ...rows.map((r) => table([`${r.id} ${r.unit}`, ...COLUMNS.map(([k]) => fmt(r[k]?.value))])),
  '',
  'time ratio to PyTorch eager (lower is faster; 1.00 = as fast)',
  table(['', ...COLUMNS.slice(1).map(([, label]) => label)]),
  ...rows.map((r) => table([r.id, ...COLUMNS.slice(1).map(([k]) => (r[k] && r.torch ? (r[k].medianMs / r.torch.medianMs).toFixed(2) : '-'))])),
  '',
  'labelled apart:',
];
for (const r of rows.filter((r) => r.strict && r.strictScoped)) {
  const host = r.strict.hostUsPerOp === undefined ? '' : `; strict host dispatch ${fmt(r.strict.hostUsPerOp)} µs/op`;
  lines.push(`  ${r.id} strict with each step in tpu.scope (disposing): ${fmt(r.strictScoped.value)} ${r.unit} (natural: ${fmt(r.strict.value)})${host}`);
}
lines.push(`  fresh (not pooled) device outputs per step (${MODES.join('/')}/scoped): ${rows.map((r) => `${r.id} ${[...MODES, 'strictScoped'].map((m) => r[m]?.freshPerStep?.toFixed(1) ?? '-').join('/')}`).join(', ')}`);
for (const r of rows.filter((r) => r.everySite && r.noSites && r.strict)) {
  lines.push(`  ${r.id} strict host µs/op by call sites: ${fmt(r.strict.hostUsPerOp)} default ('auto'), ${fmt(r.everySite.hostUsPerOp)} every call (tpu.setCallSites(true)), ${fmt(r.noSites.hostUsPerOp)} none`);
}
lines.push(`  programs compiled after warm-up (debug/strict/fused/compiled): ${rows.map((r) => `${r.id} ${[...MODES, 'compiled'].map((m) => r[m]?.compilesAfterWarmup ?? '-').join('/')}`).join(', ')}`);
lines.push('', "goals (at most PyTorch's time on the CPU):", ...goals(rows).map((g) => `  ${g}`));
if (skipped.length) lines.push('', 'peers skipped:', ...skipped.map((s) => `  ${s}`));
console.log(lines.join('\n'));
const out = fileURLToPath(new URL('../output/bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(
  `${out}runtime.json`,
  JSON.stringify({ date: new Date().toISOString(), threads, torchThreads: peers.threads, peers: peers.found, peerMalloc: PEER_MALLOC, cores: cpus().length, loadAverage: loadavg(), rounds: ROUNDS, warmupMs: WARMUP_MS, rows, goals: goals(rows) }, null, 2),
);
