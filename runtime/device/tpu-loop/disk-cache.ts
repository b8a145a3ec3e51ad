// XLA:TPU results on disk, one JSON file per StableHLO module, topology and libtpu build,
// so a restarted kernel finds its programs' figures without compiling again. The folder is
// kept under TPU_KERNEL_TPU_CACHE_BYTES (default 1 GiB): a read marks a file as used (its
// modification time), and the least recently used files go first.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { positiveInt } from '../settings.js';
import type { XlaFigures } from './xla-figures.js';

export interface CachedCompile {
  readonly figures: XlaFigures;
  readonly hloText: string;
  readonly compileMs: number;
}

export const DEFAULT_CACHE_BYTES = 2 ** 30;
/** A trim goes down to this share of the cap, so that the next writes do not trim again at once. */
const TRIM_TO = 0.9;
/** A temporary file this old was left by a process that died while writing it. */
const STALE_TMP_MS = 10 * 60_000;

/** TPU_KERNEL_CACHE_DIR (shared with the generated loops), else $XDG_CACHE_HOME or ~/.cache. */
export function xlaCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.TPU_KERNEL_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tpu-kernel');
  return join(root, 'xla-tpu');
}

/** TPU_KERNEL_TPU_CACHE_BYTES: the most the folder holds. */
export function xlaCacheCapBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.TPU_KERNEL_TPU_CACHE_BYTES;
  return value ? positiveInt(value, 'TPU_KERNEL_TPU_CACHE_BYTES') : DEFAULT_CACHE_BYTES;
}
xlaCacheCapBytes(); // a bad value fails when the runtime loads, as the other TPU_KERNEL_* settings do

export function cacheKey(stablehlo: string, topology: string, libtpuBuild: string): string {
  return createHash('sha256').update(`${libtpuBuild}\n${topology}\n${stablehlo}`).digest('hex');
}

export async function readCached(key: string): Promise<CachedCompile | undefined> {
  const path = join(xlaCacheDir(), `${key}.json`);
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as CachedCompile;
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined); // used now: the last to be evicted
    return value;
  } catch {
    return undefined; // absent or half written by a process that died: compile again
  }
}

/** Written to a temporary name then renamed, so a reader never sees half a file. */
export async function writeCached(key: string, value: CachedCompile): Promise<void> {
  const dir = xlaCacheDir();
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${key}.${process.pid}.tmp`);
  const text = JSON.stringify(value);
  await writeFile(tmp, text);
  await rename(tmp, join(dir, `${key}.json`));
  await keepUnder(dir, xlaCacheCapBytes(), Buffer.byteLength(text));
}

/** Bytes of each folder as this process last counted them, plus what it wrote since. */
const counted = new Map<string, number>();

/**
 * After `added` bytes were written to `dir`: when the folder may hold more than `capBytes`, it
 * is counted again (other processes write there too) and the least recently used files are
 * deleted until it holds at most 90% of the cap.
 */
export async function keepUnder(dir: string, capBytes: number, added: number): Promise<void> {
  const known = counted.get(dir);
  if (known !== undefined && known + added <= capBytes) {
    counted.set(dir, known + added);
    return;
  }
  const files = await cacheFiles(dir);
  let total = files.reduce((s, f) => s + f.bytes, 0);
  if (total > capBytes) {
    for (const f of files.sort((a, b) => a.usedMs - b.usedMs)) {
      if (total <= capBytes * TRIM_TO) break;
      await unlink(f.path).catch(() => undefined); // another process may have deleted it first
      total -= f.bytes;
    }
  }
  counted.set(dir, total);
}

async function cacheFiles(dir: string): Promise<{ path: string; bytes: number; usedMs: number }[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(names.map(async (name) => {
    const path = join(dir, name);
    const s = await stat(path).catch(() => undefined);
    if (!s?.isFile()) return undefined;
    if (name.endsWith('.tmp')) {
      if (Date.now() - s.mtimeMs > STALE_TMP_MS) await unlink(path).catch(() => undefined);
      return undefined;
    }
    return name.endsWith('.json') ? { path, bytes: s.size, usedMs: s.mtimeMs } : undefined;
  }));
  return files.filter((f) => f !== undefined);
}
