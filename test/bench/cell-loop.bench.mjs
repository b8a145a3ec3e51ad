// A loop of numbers in a cell's function: `%typecheck off` cells (operators dispatched at run
// time, operators/in-context-dispatch.ts) and type-checked cells (operators left alone where
// the types are numbers), beside the same function as plain JavaScript in this process.
// Three loop bodies (arithmetic; `&&` and `||` used as values). Each variant runs ROUNDS times
// in turn; the table gives the median ms of a call.
// Run: npm run build && node test/bench/cell-loop.bench.mjs
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSession } from '../../dist/kernel/session/index.js';

const N = Number(process.env.BENCH_LOOP_N ?? 2e7);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** Loop bodies: arithmetic and subscripts; `&&` and `||` whose values are used (Python's and/or on a tensor). */
const BODIES = {
  arithmetic: 'let s = 0; const xs = [1, 2, 3, 4]; for (let i = 0; i < n; i++) s += (i * 2) % 7 + xs[i & 3]; return s;',
  and_or: 'let s = 0; const xs = [1, 0, 3, 0]; for (let i = 0; i < n; i++) s += (xs[i & 3] && i % 5) || 2; return s;',
  and: 'let s = 0; const xs = [1, 0, 3, 0]; for (let i = 0; i < n; i++) s += xs[i & 3] && i % 5; return s;',
};

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
const timeCell = async (name, expected) => {
  outputs.length = 0;
  await run(`{ const t0 = performance.now(); const v = ${name}(${N}); console.log(v, performance.now() - t0); }`);
  const [value, ms] = outputs.join('').trim().split(' ').map(Number);
  if (value !== expected) throw new Error(`${name}: ${value}, expected ${expected}`);
  return ms;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rows = [];
for (const [body, code] of Object.entries(BODIES)) {
  await run(`%typecheck off\nfunction dispatched_${body}(n: number) { ${code} }`);
  await run(`%typecheck warn\nfunction typed_${body}(n: number) { ${code} }`);
  const plain = new Function('n', code);
  const expected = plain(N);
  const variants = {
    'plain JavaScript (this process)': async () => {
      const t0 = performance.now();
      if (plain(N) !== expected) throw new Error('plain: wrong sum');
      return performance.now() - t0;
    },
    'cell, %typecheck off (dispatched)': () => timeCell(`dispatched_${body}`, expected),
    'cell, type-checked': () => timeCell(`typed_${body}`, expected),
  };
  const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) for (const [name, time] of Object.entries(variants)) samples[name].push(await time());
  const base = median(samples['plain JavaScript (this process)']);
  console.log(`${body}: loop of ${N} iterations in a cell's function, median of ${ROUNDS} calls`);
  console.log(`${'variant'.padEnd(36)} ${'ms'.padStart(8)} ${'vs plain'.padStart(9)}`);
  for (const [name, xs] of Object.entries(samples)) {
    const row = { body, name, ms: median(xs), ratio: median(xs) / base };
    rows.push(row);
    console.log(`${row.name.padEnd(36)} ${row.ms.toFixed(1).padStart(8)} ${row.ratio.toFixed(2).padStart(9)}`);
  }
}
const out = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'output', 'bench');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'cell-loop.json'), JSON.stringify({ n: N, rounds: ROUNDS, rows }, null, 2));
console.log(`wrote ${path.join(out, 'cell-loop.json')}`);
process.exit(0);
