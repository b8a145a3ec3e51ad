// What one tensor object costs to make and read (an op makes one per result): 1e6 times
// `new Tensor(...)` then `t.shape[0]` and `t.dtype`, no device work. Rounds, median ns per tensor.
// `node test/bench/tensor-creation.bench.mjs [dist dir]` (after `npm run build`). Compare builds
// one per process: one loop over two builds' classes goes polymorphic and slows both.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const N = 1e6;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const dist = process.argv[2] ?? 'dist';
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const { Tensor } = await import(pathToFileURL(resolve(dist, 'runtime/tensor.js')).href);

function round() {
  let sum = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const t = new Tensor(null, [i & 7, 3], 'float32');
    sum += t.shape[0] + (t.dtype === 'float32' ? 1 : 0);
  }
  const ns = Number(process.hrtime.bigint() - t0) / N;
  if (sum !== N * 4.5) throw new Error(`wrong sum ${sum}`);
  return ns;
}

const ns = [];
for (let r = 0; r < ROUNDS; r++) ns.push(round());
console.log(`${dist}: ${median(ns).toFixed(1)} ns per tensor (creation + shape and dtype read), median of ${ROUNDS}`);
