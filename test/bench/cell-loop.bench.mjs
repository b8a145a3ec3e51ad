// A loop of numbers in a cell's function: `%typecheck off` cells (operators dispatched at run
// time, operators/in-context-dispatch.ts) and type-checked cells (operators left alone where
// the types are numbers), beside the same function as plain JavaScript in this process.
// Each variant runs ROUNDS times in turn; the table gives the median ms of a call.
// Run: npm run build && node test/bench/cell-loop.bench.mjs
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSession } from '../../dist/kernel/session/index.js';

const N = Number(process.env.BENCH_LOOP_N ?? 2e7);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const BODY = 'let s = 0; const xs = [1, 2, 3, 4]; for (let i = 0; i < n; i++) s += (i * 2) % 7 + xs[i & 3]; return s;';

const outputs = [];
const publisher = { stream: (_name, text) => outputs.push(text), display() {}, updateDisplay() {}, clearOutput() {}, input: async () => '' };
const session = await createSession({ cwd: mkdtempSync(path.join(tmpdir(), 'cell-loop-')), comms: { registerTarget() {}, open() { throw new Error('no comms'); } } });
let count = 0;
async function run(code) {
  const outcome = await session.execute(code, { executionCount: ++count, silent: false, storeHistory: true, allowStdin: false, publisher });
  if (outcome.status !== 'ok') throw new Error(`${code}: ${outcome.evalue}`);
  return outcome;
}
await session.complete('Mat', 3); // builds the language service: typed cells get the typed rewrite
await run('tpu.tensor([1]).item()'); // tensors exist: a %typecheck off cell dispatches its operators
await run(`%typecheck off\nfunction dispatched(n: number) { ${BODY} }`);
await run(`%typecheck warn\nfunction typed(n: number) { ${BODY} }`);
const plain = new Function('n', BODY);

const expected = plain(N);
const timeCell = async (name) => {
  outputs.length = 0;
  await run(`{ const t0 = performance.now(); const v = ${name}(${N}); console.log(v, performance.now() - t0); }`);
  const [value, ms] = outputs.join('').trim().split(' ').map(Number);
  if (value !== expected) throw new Error(`${name}: ${value}, expected ${expected}`);
  return ms;
};
const variants = {
  'plain JavaScript (this process)': async () => {
    const t0 = performance.now();
    if (plain(N) !== expected) throw new Error('plain: wrong sum');
    return performance.now() - t0;
  },
  'cell, %typecheck off (dispatched)': () => timeCell('dispatched'),
  'cell, type-checked': () => timeCell('typed'),
};
const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) for (const [name, time] of Object.entries(variants)) samples[name].push(await time());
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const base = median(samples['plain JavaScript (this process)']);
console.log(`loop of ${N} iterations in a cell's function, median of ${ROUNDS} calls`);
console.log(`${'variant'.padEnd(36)} ${'ms'.padStart(8)} ${'vs plain'.padStart(9)}`);
const rows = Object.entries(samples).map(([name, xs]) => ({ name, ms: median(xs), ratio: median(xs) / base }));
for (const r of rows) console.log(`${r.name.padEnd(36)} ${r.ms.toFixed(1).padStart(8)} ${r.ratio.toFixed(2).padStart(9)}`);
const out = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'output', 'bench');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'cell-loop.json'), JSON.stringify({ n: N, rounds: ROUNDS, rows }, null, 2));
console.log(`wrote ${path.join(out, 'cell-loop.json')}`);
process.exit(0);
