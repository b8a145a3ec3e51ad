// Kernel benchmark: tpu-kernel beside Deno's kernel (`deno jupyter`; the binary comes from the
// npm package @deno/linux-x64-glibc, a devDependency, or DENO=path) and ipykernel in the same run; a kernel that is not installed is reported
// and left out. Start until the first kernel_info_reply; execute round trip (request ->
// reply and idle) on DISTINCT cells, so no transpile cache answers, with tpu-kernel's language
// service built first (a complete request), so every cell is type-checked and operator-rewritten
// as in a notebook past its first seconds (Deno's kernel does not type-check cells); complete
// round trip. TPU_KERNEL_BASELINE=path/to/other/dist/kernel/cli.js adds that build as a row of the
// same run (before/after figures of a change). Prints a table, writes JSON.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnKernel } from '../support/kernel-client.mjs';

// A start is ready at one of the client's ZeroMQ reconnects (every 100-200 ms), so starts spread
// in steps of that size: a median of 3 moved by a step from run to run.
const STARTS = Number(process.env.BENCH_STARTS ?? 9);
const EXECUTES = Number(process.env.BENCH_EXECUTES ?? 200);
const COMPLETES = Number(process.env.BENCH_EXECUTES ?? 200);
const WARMUP = 20;
// After the warm-ups, every kernel idles this long before the timed cells, as a notebook's kernel
// idles while its user reads and types: tpu-kernel practises its cells' compile in such a spell
// (docs/kernel.md, Speed: practice in quiet spells), and every row, the baseline's too, gets the
// same one. BENCH_QUIET_MS=0 times cells that follow the warm-ups at once.
const QUIET_MS = Number(process.env.BENCH_QUIET_MS ?? 8000);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 20);

/** Each call a new cell: a fresh name and value, typed where the language has types. */
const tsCell = (i) => `const v${i}: number = ${i} * 2;\nv${i} + 1`;
const pyCell = (i) => `v${i} = ${i} * 2\nv${i} + 1`;

const DENO = process.env.DENO ?? fileURLToPath(new URL('../../node_modules/@deno/linux-x64-glibc/deno', import.meta.url));
const IPYTHON = '/usr/bin/python3';
function installed(argv) {
  try {
    execFileSync(argv[0], argv.slice(1), { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** Builds tpu-kernel's language service, as a notebook's first seconds or first completion do. */
async function buildLanguageService(kernel) {
  const msgId = kernel.send('shell', 'complete_request', { code: 'Mat', cursor_pos: 3 });
  await kernel.reply(msgId, 60_000);
  await kernel.outputs(msgId);
  kernel.iopub.length = 0;
}

const BASELINE = process.env.TPU_KERNEL_BASELINE;
const candidates = [
  { name: 'tpu-kernel', found: true, options: {}, cell: tsCell, complete: 'Mat', warm: buildLanguageService },
  {
    name: 'tpu-kernel (baseline)',
    found: Boolean(BASELINE) && existsSync(BASELINE),
    missing: BASELINE ? `no ${BASELINE}` : 'TPU_KERNEL_BASELINE not set',
    quiet: !BASELINE,
    options: { argv: (file) => [process.execPath, BASELINE, '--connection-file', file] },
    cell: tsCell,
    complete: 'Mat',
    warm: buildLanguageService,
  },
  {
    // Deno's kernel does not type-check: this row runs the same cells without the check, in a
    // session that used `tpu` (so operators are dispatched for tensors, as in a tensor notebook).
    name: 'tpu-kernel (%typecheck off)',
    found: true,
    options: {},
    cell: tsCell,
    complete: 'Mat',
    warm: async (kernel) => {
      await buildLanguageService(kernel);
      const { reply } = await kernel.execute('%typecheck off\ntpu.tensor([1]).item()', {}, 60_000);
      if (reply.content.status !== 'ok') throw new Error(`tpu-kernel (%typecheck off): warm-up failed: ${reply.content.evalue}`);
      kernel.iopub.length = 0;
    },
  },
  {
    name: 'deno',
    found: existsSync(DENO) && installed([DENO, '--version']),
    missing: `no deno binary at ${DENO}`,
    options: { argv: (file) => [DENO, 'jupyter', '--kernel', '--conn', file], env: { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } },
    cell: tsCell,
    complete: 'Mat',
  },
  {
    name: 'ipykernel',
    found: installed([IPYTHON, '-c', 'import ipykernel']),
    missing: `${IPYTHON} has no ipykernel`,
    options: { argv: (file) => [IPYTHON, '-m', 'ipykernel_launcher', '-f', file], env: { PYDEVD_DISABLE_FILE_VALIDATION: '1' } },
    cell: pyCell,
    complete: 'pri',
  },
];
const kernels = candidates.filter((k) => k.found);
for (const k of candidates.filter((k) => !k.found && !k.quiet)) console.log(`${k.name}: not measured (${k.missing})`);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p99: percentile(sorted, 99), n: samples.length };
}

/** Each kernel started STARTS times, kernels in turn; the last start of each is kept running. */
async function start(kernels) {
  const starts = kernels.map(() => []);
  const running = [];
  for (let i = 0; i < STARTS; i++) {
    for (const [k, { options }] of kernels.entries()) {
      const kernel = await spawnKernel({ readyTimeoutMs: 60_000, ...options });
      starts[k].push(kernel.readyAt - kernel.startedAt);
      if (i < STARTS - 1) await kernel.close();
      else running[k] = kernel;
    }
  }
  return { starts, running };
}

/**
 * Times `send(kernel, spec, i)` count times per kernel, in blocks of BLOCK requests per kernel,
 * kernels in turn: a kernel's background work after a reply (collection, JIT) lands in its own
 * next request, not in another kernel's, while alternating blocks still spreads the machine's
 * changing load over all kernels. The turn's order rotates every round, so each kernel's block
 * follows every other kernel's equally often: what a block leaves running (a type-checking
 * kernel's collection and JIT) does not always land on the same neighbour.
 */
async function interleaved(kernels, running, count, send) {
  const samples = kernels.map(() => []);
  for (let first = 0, round = 0; first < WARMUP + count; first += BLOCK, round++) {
    for (let j = 0; j < kernels.length; j++) {
      const k = (j + round) % kernels.length;
      const spec = kernels[k];
      for (let i = first; i < Math.min(first + BLOCK, WARMUP + count); i++) {
        const t0 = performance.now();
        await send(running[k], spec, i);
        if (i >= WARMUP) samples[k].push(performance.now() - t0);
      }
    }
  }
  return samples.map(summary);
}

/** CPU time (user + system, all threads) a process has used, in ms; undefined off Linux. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

async function executeCell(kernel, { name, cell }, i) {
  const msgId = kernel.send('shell', 'execute_request', { code: cell(i), silent: false, store_history: true, user_expressions: {}, allow_stdin: false });
  const reply = await kernel.reply(msgId, 30_000);
  if (reply.content.status !== 'ok') throw new Error(`${name}: cell ${JSON.stringify(cell(i))} failed: ${reply.content.evalue}`);
  await kernel.outputs(msgId, 30_000);
  kernel.iopub.length = 0; // keep the message log short
}

async function completeRequest(kernel, { complete }) {
  const msgId = kernel.send('shell', 'complete_request', { code: complete, cursor_pos: complete.length });
  await kernel.reply(msgId);
  await kernel.outputs(msgId);
  kernel.iopub.length = 0;
}

const { starts, running } = await start(kernels);
let results;
try {
  for (const [k, { warm }] of kernels.entries()) await warm?.(running[k]);
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  // CPU per cell beside the round trip: on a busy machine it varies less than wall time.
  const cpuBefore = running.map((kernel) => cpuMs(kernel.child.pid));
  const executes = await interleaved(kernels, running, EXECUTES, executeCell);
  running.forEach((kernel, k) => (executes[k].cpuMsPerCell = (cpuMs(kernel.child.pid) - cpuBefore[k]) / (WARMUP + EXECUTES)));
  const completes = await interleaved(kernels, running, COMPLETES, completeRequest);
  results = kernels.map(({ name }, k) => ({ name, startToKernelInfoMs: summary(starts[k]), executeRoundTripMs: executes[k], completeRoundTripMs: completes[k] }));
} finally {
  for (const kernel of running) await kernel.close();
}

const ms = (x) => x.toFixed(2).padStart(8);
console.log(`\n${'kernel'.padEnd(28)} ${'start ms'.padStart(9)} ${'exec med'.padStart(9)} ${'exec p99'.padStart(9)} ${'compl med'.padStart(9)} ${'compl p99'.padStart(9)} ${'exec cpu'.padStart(9)}`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(28)} ${ms(r.startToKernelInfoMs.median)}  ${ms(r.executeRoundTripMs.median)}  ${ms(r.executeRoundTripMs.p99)}  ${ms(r.completeRoundTripMs.median)}  ${ms(r.completeRoundTripMs.p99)}  ${ms(r.executeRoundTripMs.cpuMsPerCell)}`,
  );
}
const ours = results.filter((r) => r.name.startsWith('tpu-kernel') && !r.name.includes('baseline'));
const ratios = {};
for (const tpu of ours) {
  for (const peer of results.filter((r) => !ours.includes(r))) {
    const key = tpu.name === 'tpu-kernel' ? peer.name : `${tpu.name} / ${peer.name}`;
    ratios[key] = {
      execute: tpu.executeRoundTripMs.median / peer.executeRoundTripMs.median,
      start: tpu.startToKernelInfoMs.median / peer.startToKernelInfoMs.median,
    };
    const goal = peer.name === 'deno' ? ' (goal <= 1)' : '';
    console.log(`${tpu.name} / ${peer.name} (medians): execute round trip ${ratios[key].execute.toFixed(2)}${goal}, start until kernel_info_reply ${ratios[key].start.toFixed(2)}${goal}`);
  }
}

// TypeScript session (kernel/session): launch until the first trivial cell's reply,
// and complete round trips on a notebook of 50 cells (the first request builds the
// language service; the target is the median of the requests after it).
const NOTEBOOK_CELLS = 50;
const LAUNCHES = 3;

async function launchToFirstReply() {
  const samples = [];
  for (let i = 0; i < LAUNCHES; i++) {
    const kernel = await spawnKernel();
    try {
      const msgId = kernel.send('shell', 'execute_request', { code: '1+1', silent: false, store_history: true, user_expressions: {}, allow_stdin: false });
      await kernel.reply(msgId);
      samples.push(performance.now() - kernel.startedAt);
    } finally {
      await kernel.close();
    }
  }
  return summary(samples);
}

async function completeOnNotebook() {
  const kernel = await spawnKernel();
  try {
    for (let i = 0; i < NOTEBOOK_CELLS; i++) {
      const cell = `/** Layer ${i}. */\nconst layer${i} = { index: ${i}, width: ${8 * (i + 1)}, name: 'l${i}' };\nfunction scale${i}(x: number): number { return x * layer${i}.width; }\nscale${i}(2)`;
      const { reply } = await kernel.execute(cell, {}, 30_000);
      if (reply.content.status !== 'ok') throw new Error(`notebook cell ${i} failed: ${reply.content.evalue}`);
    }
    const roundTrip = async (i) => {
      const code = `const y = scale${i % NOTEBOOK_CELLS}(3);\nlayer${(i * 7) % NOTEBOOK_CELLS}.wi`;
      const start = performance.now();
      const msgId = kernel.send('shell', 'complete_request', { code, cursor_pos: code.length });
      const reply = await kernel.reply(msgId, 30_000);
      const elapsed = performance.now() - start;
      if (!reply.content.matches.includes('width')) throw new Error(`complete on the notebook: ${JSON.stringify(reply.content.matches)}`);
      await kernel.outputs(msgId);
      kernel.iopub.length = 0;
      return elapsed;
    };
    const first = await roundTrip(0);
    const after = [];
    for (let i = 1; i <= COMPLETES; i++) after.push(await roundTrip(i));
    return { firstMs: first, afterFirstMs: summary(after) };
  } finally {
    await kernel.close();
  }
}

const launch = await launchToFirstReply();
const notebookComplete = await completeOnNotebook();
console.log(`\nlaunch until the first trivial cell's reply, tpu-kernel (median of ${LAUNCHES}): ${launch.median.toFixed(0)} ms (target <= 1500)`);
console.log(`complete on a ${NOTEBOOK_CELLS}-cell notebook: first ${notebookComplete.firstMs.toFixed(0)} ms, then median ${notebookComplete.afterFirstMs.median.toFixed(1)} ms, p99 ${notebookComplete.afterFirstMs.p99.toFixed(1)} ms (target median <= 100)`);

const out = fileURLToPath(new URL('../output/bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(
  `${out}kernel.json`,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, ratios, results, launchToFirstReplyMs: launch, notebookComplete }, null, 2) + '\n',
);
console.log(`wrote ${out}kernel.json`);
