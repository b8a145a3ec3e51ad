// Kernel benchmark: tpu-kernel vs Debian's ipykernel in the same run.
// Start until the first kernel_info_reply; trivial execute round trip (request
// -> reply and idle); complete round trip. Prints a table, writes JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnKernel } from '../support/kernel-client.mjs';

const STARTS = 3;
const EXECUTES = 500;
const COMPLETES = 200;
const WARMUP = 20;

const kernels = [
  { name: 'tpu-kernel', options: {}, trivial: '1+1', complete: 'Mat' },
  {
    name: 'ipykernel',
    options: { argv: (file) => ['/usr/bin/python3', '-m', 'ipykernel_launcher', '-f', file], env: { PYDEVD_DISABLE_FILE_VALIDATION: '1' } },
    trivial: '1+1',
    complete: 'pri',
  },
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p99: percentile(sorted, 99), n: samples.length };
}

async function timeRequests(kernel, count, send) {
  for (let i = 0; i < WARMUP; i++) await send();
  const samples = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await send();
    samples.push(performance.now() - start);
  }
  return summary(samples);
}

async function measure({ name, options, trivial, complete }) {
  const starts = [];
  let kernel;
  for (let i = 0; i < STARTS; i++) {
    kernel = await spawnKernel(options);
    starts.push(kernel.readyAt - kernel.startedAt);
    if (i < STARTS - 1) await kernel.close();
  }
  try {
    const execute = await timeRequests(kernel, EXECUTES, async () => {
      const msgId = kernel.send('shell', 'execute_request', { code: trivial, silent: false, store_history: false, user_expressions: {}, allow_stdin: false });
      await kernel.reply(msgId);
      await kernel.outputs(msgId);
      kernel.iopub.length = 0; // keep the message log short
    });
    const completion = await timeRequests(kernel, COMPLETES, async () => {
      const msgId = kernel.send('shell', 'complete_request', { code: complete, cursor_pos: complete.length });
      await kernel.reply(msgId);
      await kernel.outputs(msgId);
      kernel.iopub.length = 0;
    });
    return { name, startToKernelInfoMs: summary(starts), executeRoundTripMs: execute, completeRoundTripMs: completion };
  } finally {
    await kernel.close();
  }
}

const results = [];
for (const kernel of kernels) results.push(await measure(kernel));

const ms = (x) => x.toFixed(2).padStart(8);
console.log(`\n${'kernel'.padEnd(12)} ${'start ms'.padStart(9)} ${'exec med'.padStart(9)} ${'exec p99'.padStart(9)} ${'compl med'.padStart(9)} ${'compl p99'.padStart(9)}`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(12)} ${ms(r.startToKernelInfoMs.median)}  ${ms(r.executeRoundTripMs.median)}  ${ms(r.executeRoundTripMs.p99)}  ${ms(r.completeRoundTripMs.median)}  ${ms(r.completeRoundTripMs.p99)}`,
  );
}
const [tpu, ipy] = results;
const ratio = tpu.executeRoundTripMs.median / ipy.executeRoundTripMs.median;
console.log(`\nexecute round trip, tpu-kernel / ipykernel (median): ${ratio.toFixed(2)} (target <= 0.5)`);
console.log(`start until kernel_info_reply, tpu-kernel (median of ${STARTS}): ${tpu.startToKernelInfoMs.median.toFixed(0)} ms (target <= 1000)`);

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
  JSON.stringify({ date: new Date().toISOString(), node: process.version, executeRatio: ratio, results, launchToFirstReplyMs: launch, notebookComplete }, null, 2) + '\n',
);
console.log(`wrote ${out}kernel.json`);
