// XLA:TPU results on disk, one JSON file per StableHLO module, topology and libtpu build,
// so a restarted kernel finds its programs' figures without compiling again.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { XlaFigures } from './xla-figures.js';

export interface CachedCompile {
  readonly figures: XlaFigures;
  readonly hloText: string;
  readonly compileMs: number;
}

/** TPU_KERNEL_CACHE_DIR (shared with the generated loops), else $XDG_CACHE_HOME or ~/.cache. */
export function xlaCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.TPU_KERNEL_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tpu-kernel');
  return join(root, 'xla-tpu');
}

export function cacheKey(stablehlo: string, topology: string, libtpuBuild: string): string {
  return createHash('sha256').update(`${libtpuBuild}\n${topology}\n${stablehlo}`).digest('hex');
}

export async function readCached(key: string): Promise<CachedCompile | undefined> {
  try {
    return JSON.parse(await readFile(join(xlaCacheDir(), `${key}.json`), 'utf8')) as CachedCompile;
  } catch {
    return undefined; // absent or half written by a process that died: compile again
  }
}

/** Written to a temporary name then renamed, so a reader never sees half a file. */
export async function writeCached(key: string, value: CachedCompile): Promise<void> {
  const dir = xlaCacheDir();
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${key}.${process.pid}.tmp`);
  await writeFile(tmp, JSON.stringify(value));
  await rename(tmp, join(dir, `${key}.json`));
}
