// Our GEMM (runtime/device/loopgen/gemm-c.ts) against raw ONNX Runtime on the matmul shapes
// it takes: a strict-mode matmul and the same MatMul graph in an onnxruntime-node session
// (pre-allocated output, its default 2-thread split, no spinning), in interleaved rounds.
// The shapes: W6's first-layer weight gradient (PyTorch's g^T x, and (x^T g)) and its second layer's.
// `node test/bench/gemm.bench.mjs` (after npm run build); BENCH_ROUNDS sets the rounds.
import { loadavg } from 'node:os';
import { tpu } from 'tpu-kernel/runtime';
import { rawSession } from './runtime/raw-ort.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const SHAPES = [[784, 64, 256], [256, 64, 784], [10, 64, 256]];
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const threads = tpu.device().threads;
const lines = [`GEMM bench (${threads} threads; load average ${loadavg()[0].toFixed(1)}; median of ${ROUNDS} interleaved rounds, µs per matmul)`];

for (const [m, k, n] of SHAPES) {
  const reps = Math.max(1, Math.round(2e8 / (2 * m * k * n)));
  const a = tpu.randn([m, k]);
  const b = tpu.randn([k, n]);
  await tpu.sync();
  const raw = await rawSession(threads, (g) => ({ inputs: [['a', [m, k]], ['b', [k, n]]], output: [g.node('MatMul', ['a', 'b']), [m, n]] }));
  const ours = async () => {
    for (let r = 0; r < reps; r++) tpu.withMode('strict', () => a.matmul(b));
    await tpu.sync();
  };
  const theirs = async () => {
    for (let r = 0; r < reps; r++) await raw.run();
  };
  const times = { ours: [], raw: [] };
  for (let round = -2; round < ROUNDS; round++) {
    for (const [name, fn] of [['ours', ours], ['raw', theirs]]) {
      const t0 = performance.now();
      await fn();
      if (round >= 0) times[name].push(((performance.now() - t0) * 1000) / reps);
    }
  }
  const [o, r] = [median(times.ours), median(times.raw)];
  lines.push(`  ${m}x${k}x${n}: strict matmul ${o.toFixed(0)} µs (${((2 * m * k * n) / o / 1e3).toFixed(0)} GFLOP/s), raw ORT ${r.toFixed(0)} µs; ratio ${(o / r).toFixed(2)}`);
}
lines.push(`our GEMM ran ${(await tpu.deviceStats()).gemmPrograms ?? 0} of these programs (0: TPU_KERNEL_GEMM=0 or no compiler)`);
console.log(lines.join('\n'));
