// The Python peers (numpy, PyTorch eager, torch.compile) of the runtime bench, run by
// peers.py in one child process and driven step by step, so their rounds interleave with
// the TypeScript variants. Without python3 or a package the peer is reported missing and
// left out; the bench never fails for it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const PEERS = ['numpy', 'torch', 'torch.compile'];
const PYTHON = process.env.BENCH_PYTHON ?? 'python3';

// glibc serves a block above its mmap threshold with a fresh mapping, and moves that threshold
// with the process's history: in one peer process running W6, W4, W5, W2 in turn, PyTorch's
// W5 took 340 to 8,160 page faults a step (two fresh 16 MiB results) run to run, and its W5
// time 1.8 to 7.3 ms. A fixed threshold above the workloads' sizes gives 0 faults a step in
// every workload (as PyTorch deployments get from jemalloc or tcmalloc): the peers' steady
// best, not a lucky or unlucky history. BENCH_PEER_MALLOC=default runs them with glibc's own.
const FIXED_MALLOC = process.env.BENCH_PEER_MALLOC === 'default'
  ? {}
  : { MALLOC_MMAP_THRESHOLD_: String(128 * 2 ** 20), MALLOC_TRIM_THRESHOLD_: String(256 * 2 ** 20) };
export const PEER_MALLOC = 'MALLOC_MMAP_THRESHOLD_' in FIXED_MALLOC
  ? "glibc's mmap threshold fixed at 128 MiB (no page fault per step)"
  : "glibc's default allocation";

/** No peers (python3 missing, or left out on purpose). */
export function noPeers() {
  return { found: {}, missing: PEERS, threads: undefined, prepare: async () => ({ skip: 'no peers' }), step: async () => NaN, drop: async () => {}, close() {} };
}

/** -> { found: { peer: version }, missing: [peer], prepare(id, peer), step(id, peer), close() } */
export async function startPeers() {
  const none = noPeers();
  let child;
  try {
    // numpy's OpenBLAS threads spin on a core for ~100 ms after each call (measured here: 52 ms
    // of CPU in the 50 ms after a 1024³ matmul), taking it from whatever variant runs next; a
    // timeout of 2^4 cycles puts them to sleep at once and costs its matmul nothing (326 vs
    // 332 GFLOP/s). PyTorch's OpenMP threads spin ~0.1 ms: left as they are.
    const env = {
      ...FIXED_MALLOC,
      ...process.env,
      OPENBLAS_THREAD_TIMEOUT: process.env.OPENBLAS_THREAD_TIMEOUT ?? '4',
    };
    child = spawn(PYTHON, [fileURLToPath(new URL('./peers.py', import.meta.url))], { stdio: ['pipe', 'pipe', 'pipe'], env });
  } catch {
    return none;
  }
  const stderr = [];
  child.stderr.on('data', (d) => stderr.push(String(d)));
  const waiting = [];
  let dead;
  child.on('error', (e) => (dead = e.message));
  child.on('exit', (code) => {
    dead ??= `exited with code ${code}`;
    for (const w of waiting.splice(0)) w({ error: `${PYTHON} ${dead}: ${stderr.join('').slice(-500)}` });
  });
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  const ask = (msg) =>
    new Promise((resolve) => {
      if (dead) return resolve({ error: dead });
      waiting.push(resolve);
      child.stdin.write(JSON.stringify(msg) + '\n');
    });
  const hello = await ask({ cmd: 'hello' });
  if (hello.error) return none;
  return {
    found: hello.peers,
    missing: PEERS.filter((p) => !(p in hello.peers)),
    threads: hello.threads,
    /** -> { ok: true } | { skip: reason } | { error } */
    prepare: (id, peer) => ask({ cmd: 'prepare', id, peer }),
    /** One step's wall time in ms (measured in Python, around the step alone), PyTorch on `threads` threads (default: its own). */
    step: async (id, peer, threads) => {
      const r = await ask({ cmd: 'step', id, peer, threads });
      if (r.error) throw new Error(`${peer} ${id}: ${r.error}`);
      return r.ms;
    },
    drop: (id, peer) => ask({ cmd: 'drop', id, peer }),
    close: () => child.stdin.end(),
  };
}
