// How a float32 GEMM's work grows with the way it is split over two threads, measured on one
// thread as thread CPU time (gemm-split.cc, built here with g++ against Debian's libdnnl2):
// the split tpu_kernel.Sgemm uses (half the rows per thread, or half the columns), 2x2 tiles,
// half of the whole product (the floor for a split that shares its packed operands, as
// oneDNN's and MKL's own thread teams do), B pre-packed in column panels through oneDNN's
// internal packed GEMM and shared, and the whole product into a warm or a cold output. Medians
// of interleaved rounds. `node test/bench/gemm-split.bench.mjs` (BENCH_ROUNDS, default 25).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const SHAPES = [[1024, 1024, 1024], [256, 1024, 1024]]; // W3's product, W4's two
const dir = mkdtempSync(join(tmpdir(), 'gemm-split-'));
const exe = join(dir, 'gemm-split');
try {
  execFileSync('g++', ['-O2', '-std=c++17', fileURLToPath(new URL('gemm-split.cc', import.meta.url)), '-o', exe, '-ldl']);
} catch (e) {
  console.log(`gemm-split not built (g++ missing?): ${e.message.split('\n')[0]}`);
  process.exit(0);
}
console.log(`work per thread of a 2-thread split, thread CPU ms on one thread (oneDNN via libdnnl.so.2; load average ${loadavg()[0].toFixed(1)}; median of ${ROUNDS} interleaved rounds)`);
for (const [m, k, n] of SHAPES) {
  let out;
  try {
    out = execFileSync(exe, [m, k, n, ROUNDS].map(String), { encoding: 'utf8' });
  } catch {
    console.log('libdnnl.so.2 did not load: nothing to measure');
    break;
  }
  const rows = out.trim().split('\n').map((l) => JSON.parse(l));
  const base = rows[0].ms;
  console.log(`${m}x${k}x${n}`);
  for (const r of rows) console.log(`  ${r.name.padEnd(50)}${r.ms.toFixed(3).padStart(9)} ms${(r.ms / base).toFixed(3).padStart(8)}x rows`);
}
rmSync(dir, { recursive: true });
console.log(`load average ${loadavg()[0].toFixed(1)}`);
