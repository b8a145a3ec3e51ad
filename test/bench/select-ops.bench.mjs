// What float where, maskedFill, maximum and clamp cost beside ONE raw ONNX Runtime op doing the
// same selection (which is not exact to the sign of zero: the lowerings add a few ops for
// that, device/onnx/lowerings/signed-zeros.ts). Strict mode, natural code, [1024, 1024]
// float32, the runtime's thread count for both; rounds interleaved, medians.
// `node test/bench/select-ops.bench.mjs` (after `npm run build`).
import { loadavg } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { rawSession } from './runtime/raw-ort.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const SHAPE = [1024, 1024];
const N = SHAPE[0] * SHAPE[1];
const threads = tpu.device().threads;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

tpu.manualSeed(0);
const xs = tpu.randn(SHAPE);
const ys = tpu.randn(SHAPE);
const cs = xs.gt(ys);
const [xData, yData, cData] = [await xs.data(), await ys.data(), await cs.data()];
const c = ['c', SHAPE, Uint8Array.from(cData), 'bool'];
const x = ['x', SHAPE, Float32Array.from(xData)];
const y = ['y', SHAPE, Float32Array.from(yData)];
const k = (g, v) => g.constant('float32', [], [v]);

const CASES = [
  ['where(c, x, y)', () => tpu.where(cs, xs, ys), (g) => ({ inputs: [c, x, y], output: [g.node('Where', ['c', 'x', 'y']), SHAPE] })],
  ['where(c, x, -inf)', () => tpu.where(cs, xs, -Infinity), (g) => ({ inputs: [c, x], output: [g.node('Where', ['c', 'x', k(g, -Infinity)]), SHAPE] })],
  ['maskedFill(c, 0)', () => xs.maskedFill(cs, 0), (g) => ({ inputs: [c, x], output: [g.node('Where', ['c', k(g, 0), 'x']), SHAPE] })],
  ['maximum(x, y)', () => xs.maximum(ys), (g) => ({ inputs: [x, y], output: [g.node('Max', ['x', 'y']), SHAPE] })],
  ['clamp(x, -0.5, 0.5)', () => xs.clamp(-0.5, 0.5), (g) => ({ inputs: [x], output: [g.node('Clip', ['x', k(g, -0.5), k(g, 0.5)]), SHAPE] })],
];

const rows = [];
for (const [name, ours, raw] of CASES) {
  const session = await rawSession(threads, raw);
  const ms = { ours: [], raw: [] };
  for (let round = 0; round < ROUNDS + 2; round++) {
    let t0 = performance.now();
    await tpu.withMode('strict', async () => { ours(); await tpu.sync(); });
    const a = performance.now() - t0;
    t0 = performance.now();
    await session.run();
    const b = performance.now() - t0;
    if (round >= 2) (ms.ours.push(a), ms.raw.push(b));
  }
  rows.push(`${name.padEnd(22)} ${median(ms.ours).toFixed(2).padStart(8)} ms ${median(ms.raw).toFixed(2).padStart(8)} ms ${(median(ms.ours) / median(ms.raw)).toFixed(2).padStart(7)}`);
}
console.log(`select ops on ${N} float32 (strict mode, ${threads} threads, load average ${loadavg()[0].toFixed(1)}, median of ${ROUNDS} interleaved rounds)`);
console.log(`${'op'.padEnd(22)} ${'runtime'.padStart(11)} ${'raw ORT op'.padStart(11)} ${'ratio'.padStart(7)}`);
console.log(rows.join('\n'));
process.exit(0);
