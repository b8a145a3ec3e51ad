// Compiles generated C with the system compiler at run time and keeps the results on disk
// (keyed by source, flags, compiler and CPU), as torch.compile's CPU backend does; loads them through
// a small N-API addon built the same way. Compiles run in the background (a program runs on
// ONNX Runtime until its loop is ready, so a new program never waits for the compiler). No
// compiler, or any failure: undefined, and ONNX Runtime keeps the program.
// TPU_KERNEL_LOOPGEN=0 turns generated loops off; TPU_KERNEL_CC names the compiler (gcc).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { threadId } from 'node:worker_threads';
import { ADDON_C } from './addon-source.js';

type Kernel = { readonly __kernel: unique symbol };
interface Addon {
  load(path: string): Kernel;
  run(kernel: Kernel, inputs: Float32Array[], scalars: Float32Array, outputs: Float32Array[], n: number, threads: number, unit: number): void;
}

export interface LoadedKernel {
  /**
   * Computes indices [0, n) (elements, or rows of a row loop), split over up to `threads`
   * threads (default 1); `unit`: elements of work per index (a row's length), for the split.
   */
  run(inputs: Float32Array[], scalars: Float32Array, outputs: Float32Array[], n: number, threads?: number, unit?: number): void;
}

const run = promisify(execFile);
const COMPILER = process.env.TPU_KERNEL_CC ?? 'gcc';
// IEEE semantics kept: no -ffast-math; no contraction, so a*b+c rounds twice as the ops do.
// 512-bit vectors where the CPU has them (gcc prefers 256): layerNorm -> gelu's row loop on
// [4096, 1024] took 7.9 ms instead of 14.4 here (same values: each lane computes as before).
const FLAGS = ['-x', 'c', '-O3', '-march=native', '-mprefer-vector-width=512', '-fno-math-errno', '-ffp-contract=off', '-shared', '-fPIC'];

/** Builds under way in this process, by output path: two programs of one source (one op on two shapes) share one compile. */
const building = new Map<string, Promise<string>>();

/** Compiles `source` into `dir` (once: kept by hash), returns its path. */
function build(dir: string, source: string, extra: string[] = [], extension = '.so'): Promise<string> {
  const hash = createHash('sha256').update(source).update([...FLAGS, ...extra].join(' ')).digest('hex').slice(0, 24);
  const out = join(dir, `${hash}${extension}`);
  if (existsSync(out)) return Promise.resolve(out);
  let pending = building.get(out);
  if (!pending) {
    pending = compileTo(out, source, extra).finally(() => building.delete(out));
    building.set(out, pending);
  }
  return pending;
}

async function compileTo(out: string, source: string, extra: string[]): Promise<string> {
  // Each chip's device thread has its own `building`: the thread's id keeps their files apart.
  const own = `${process.pid}.${threadId}`;
  const src = `${out}.${own}.c`;
  const tmp = `${out}.${own}.tmp`;
  writeFileSync(src, source);
  try {
    await run(COMPILER, [...FLAGS, ...extra, '-o', tmp, src]);
    renameSync(tmp, out); // atomic: another process may build the same kernel
  } finally {
    rmSync(src, { force: true });
    rmSync(tmp, { force: true });
  }
  return out;
}

/** The cache directory of this machine's builds (compiler, CPU, Node), or undefined with no compiler. */
async function machineDir(): Promise<string | undefined> {
  try {
    const { stdout } = await run(COMPILER, ['--version']);
    const machine = createHash('sha256').update(`${stdout.split('\n')[0]} ${cpus()[0]?.model} ${process.version}`).digest('hex').slice(0, 12);
    const dir = join(process.env.TPU_KERNEL_CACHE_DIR ?? tmpdir(), `tpu-kernel-loopgen-${process.getuid?.() ?? 0}`, machine);
    mkdirSync(dir, { recursive: true });
    return dir;
  } catch {
    return undefined;
  }
}

let dirOnce: Promise<string | undefined> | undefined;

/** An N-API addon built from C `source` (once per machine, kept on disk), or undefined when it cannot be built here. */
export async function buildAddon<T>(source: string, extra: string[] = []): Promise<T | undefined> {
  const dir = await (dirOnce ??= machineDir());
  if (!dir) return undefined;
  try {
    const include = join(process.execPath, '..', '..', 'include', 'node');
    // Node loads native addons by their .node extension only.
    const path = await build(dir, source, [`-I${include}`, '-I/usr/include/node', ...extra], '.node');
    return createRequire(import.meta.url)(path) as T;
  } catch {
    return undefined;
  }
}

async function loadAddon(): Promise<{ addon: Addon; dir: string } | undefined> {
  if (process.env.TPU_KERNEL_LOOPGEN === '0') return undefined;
  const addon = await buildAddon<Addon>(ADDON_C, ['-ldl', '-pthread']);
  const dir = await dirOnce;
  return addon && dir ? { addon, dir } : undefined;
}

let addon: ReturnType<typeof loadAddon> | undefined;

/** The compiled kernel of `source`, or undefined when generated loops are unavailable here. */
export async function compileKernel(source: string): Promise<LoadedKernel | undefined> {
  const loaded = await (addon ??= loadAddon());
  if (!loaded) return undefined;
  try {
    const kernel = loaded.addon.load(await build(loaded.dir, source));
    return { run: (inputs, scalars, outputs, n, threads = 1, unit = 1) => loaded.addon.run(kernel, inputs, scalars, outputs, n, threads, unit) };
  } catch {
    return undefined;
  }
}
