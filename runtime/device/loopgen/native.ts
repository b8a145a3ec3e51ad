// Compiles generated C with the system compiler at run time and keeps the results on disk
// (keyed by source, compiler and CPU), as torch.compile's CPU backend does; loads them through
// a small N-API addon built the same way. No compiler, or any failure: undefined, and the
// program runs on ONNX Runtime. TPU_KERNEL_LOOPGEN=0 turns generated loops off.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADDON_C } from './addon-source.js';

export type Kernel = { readonly __kernel: unique symbol };
interface Addon {
  load(path: string): Kernel;
  run(kernel: Kernel, inputs: Float32Array[], scalars: Float32Array, outputs: Float32Array[], n: number): void;
}

const COMPILER = process.env.TPU_KERNEL_CC ?? 'gcc';
// IEEE semantics kept: no -ffast-math; no contraction, so a*b+c rounds twice as the ops do.
const FLAGS = ['-x', 'c', '-O3', '-march=native', '-fno-math-errno', '-ffp-contract=off', '-shared', '-fPIC'];
const enabled = process.env.TPU_KERNEL_LOOPGEN !== '0';

let addon: Addon | undefined | null = null;
let cacheDir = '';

function compilerVersion(): string | undefined {
  try {
    return execFileSync(COMPILER, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0];
  } catch {
    return undefined;
  }
}

/** Compiles `source` to a shared object in the cache (once), returns its path. */
function build(source: string, extra: string[] = [], extension = '.so'): string {
  const hash = createHash('sha256').update(source).update(extra.join(' ')).digest('hex').slice(0, 24);
  const out = join(cacheDir, `${hash}${extension}`);
  if (existsSync(out)) return out;
  const src = join(cacheDir, `${hash}.${process.pid}.c`);
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(src, source);
  try {
    execFileSync(COMPILER, [...FLAGS, ...extra, '-o', tmp, src], { stdio: ['ignore', 'ignore', 'pipe'] });
    renameSync(tmp, out); // atomic: another process may build the same kernel
  } finally {
    rmSync(src, { force: true });
    rmSync(tmp, { force: true });
  }
  return out;
}

function loadAddon(): Addon | undefined {
  if (addon !== null) return addon;
  addon = undefined;
  const version = enabled ? compilerVersion() : undefined;
  if (!version) return undefined;
  const machine = createHash('sha256').update(`${version} ${cpus()[0]?.model} ${process.version}`).digest('hex').slice(0, 12);
  cacheDir = join(process.env.TPU_KERNEL_CACHE_DIR ?? tmpdir(), `tpu-kernel-loopgen-${process.getuid?.() ?? 0}`, machine);
  try {
    mkdirSync(cacheDir, { recursive: true });
    const include = join(process.execPath, '..', '..', 'include', 'node');
    // Node loads native addons by their .node extension only.
    const path = build(ADDON_C, [`-I${include}`, '-I/usr/include/node', '-ldl'], '.node');
    addon = createRequire(import.meta.url)(path) as Addon;
  } catch {
    addon = undefined;
  }
  return addon;
}

export interface LoadedKernel {
  run(inputs: Float32Array[], scalars: Float32Array, outputs: Float32Array[], n: number): void;
}

/** The compiled kernel of `source`, or undefined when generated loops are unavailable here. */
export function compileKernel(source: string): LoadedKernel | undefined {
  const a = loadAddon();
  if (!a) return undefined;
  try {
    const kernel = a.load(build(source));
    return { run: (inputs, scalars, outputs, n) => a.run(kernel, inputs, scalars, outputs, n) };
  } catch {
    return undefined;
  }
}
