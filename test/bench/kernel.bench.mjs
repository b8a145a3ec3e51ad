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

const out = fileURLToPath(new URL('../output/bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(
  `${out}kernel.json`,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, executeRatio: ratio, results }, null, 2) + '\n',
);
console.log(`wrote ${out}kernel.json`);
