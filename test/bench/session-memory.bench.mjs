// Memory the session keeps per cell: 1,000 mixed small cells (the e2e soak's
// mix: tensor work in each mode, displays, errors, prints) run in-process with
// the language service warm; V8 heap used (and reserved) after a full GC, and RSS, every 200 cells.
// Run: npm run build && node test/bench/session-memory.bench.mjs
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import vm from 'node:vm';
import { createSession } from '../../dist/kernel/session/index.js';

// Not `node --expose-gc`: the device thread (a Worker) rejects that flag in its execArgv.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const CELLS = Number(process.env.CELLS ?? 1000);
const STEP = 200;

const sumTo = (n) => (n * (n - 1)) / 2;
function cell(i) {
  const n = 1 + (i % 50);
  switch (i % 6) {
    case 0: return [`tpu.mode('debug'); console.log(await tpu.arange(${n}).sum().item());`, `${sumTo(n)}\n`];
    case 1: return [`tpu.mode('strict'); console.log(await tpu.ones([4, ${n}]).mul(2).sum().item());`, `${8 * n}\n`];
    case 2: return [`tpu.mode('fused'); const k${i} = tpu.arange(${n}); console.log(await k${i}.add(1).mul(k${i}).sum().item());`, `${((n - 1) * n * (n + 1)) / 3}\n`];
    case 3: return [`display.html('<i>${i}</i>')`, ''];
    case 4: return [`throw new Error('soak ${i}')`, ''];
    default: return [`console.log('line ${i}')`, `line ${i}\n`];
  }
}

// Every 25th cell spins until interrupted, as the kernel does it: SIGINT from another thread.
const INTERRUPT_EVERY = 25;
const interrupter = new Worker("const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => process.kill(process.pid, 'SIGINT'));", { eval: true });
process.on('SIGINT', () => {}); // a SIGINT landing between cells is not a kill
const publisher = {
  stdout: '',
  stream(name, text) {
    if (name === 'stdout') this.stdout += text;
    if (text === 'spinning\n') interrupter.postMessage('interrupt');
  },
  display() {}, updateDisplay() {}, clearOutput() {}, input: () => new Promise(() => {}),
};
const session = createSession({ cwd: mkdtempSync(path.join(tmpdir(), 'session-memory-')), comms: { registerTarget() {}, open() { throw new Error('no comms'); } } });
await session.complete('tpu.', 4); // the language service is warm from the start, as after the first quiet second

const measure = (cells) => {
  gc(); gc();
  const { heapUsed, heapTotal, rss } = process.memoryUsage();
  return { cells, heapUsedMiB: heapUsed / 2 ** 20, heapTotalMiB: heapTotal / 2 ** 20, rssMiB: rss / 2 ** 20 };
};
const rows = [measure(0)];
const started = performance.now();
for (let i = 0; i < CELLS; i++) {
  const spin = i % INTERRUPT_EVERY === INTERRUPT_EVERY - 1;
  const [code, expected] = spin ? ["console.log('spinning'); while (true) {}", ''] : cell(i);
  publisher.stdout = '';
  const outcome = await session.execute(code, { executionCount: i + 1, silent: false, storeHistory: true, allowStdin: false, publisher });
  const ok = spin ? outcome.status === 'error' : i % 6 === 4 ? outcome.status === 'error' && outcome.evalue === `soak ${i}` : outcome.status === 'ok' && publisher.stdout === expected;
  if (!ok) throw new Error(`cell ${i} (${code}): ${JSON.stringify(outcome)} stdout ${JSON.stringify(publisher.stdout)}`);
  if ((i + 1) % STEP === 0) rows.push(measure(i + 1));
}
const seconds = (performance.now() - started) / 1000;
await session.shutdown(false);
await interrupter.terminate();
for (const row of rows) for (const key of ['heapUsedMiB', 'heapTotalMiB', 'rssMiB']) row[key] = Number(row[key].toFixed(1));
console.table(rows);
const perCellKiB = ((rows.at(-1).heapUsedMiB - rows[1].heapUsedMiB) * 1024) / (CELLS - STEP);
console.log(`heap growth after the first ${STEP} cells: ${perCellKiB.toFixed(1)} KiB per cell; ${seconds.toFixed(1)} s for ${CELLS} cells`);
mkdirSync('test/output/bench', { recursive: true });
writeFileSync('test/output/bench/session-memory.json', JSON.stringify({ cells: CELLS, rows, perCellKiB, seconds }, null, 2));
process.exit(0);
