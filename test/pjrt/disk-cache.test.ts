// The disk cache of XLA:TPU compiles stays under TPU_KERNEL_TPU_CACHE_BYTES: the least
// recently used files (by modification time, which a read refreshes) are deleted first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_CACHE_BYTES, keepUnder, readCached, writeCached, xlaCacheCapBytes, xlaCacheDir, type CachedCompile,
} from '../../runtime/device/tpu-loop/disk-cache.js';

const root = mkdtempSync(join(tmpdir(), 'xla-disk-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const saved = { dir: process.env.TPU_KERNEL_CACHE_DIR, cap: process.env.TPU_KERNEL_TPU_CACHE_BYTES };
afterEach(() => {
  for (const [name, value] of [['TPU_KERNEL_CACHE_DIR', saved.dir], ['TPU_KERNEL_TPU_CACHE_BYTES', saved.cap]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const files = (dir: string) => readdirSync(dir).sort();
/** Sets a file's last use `secondsAgo` seconds back. */
const usedAgo = (path: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, t, t);
};

describe('the XLA:TPU disk cache size cap', () => {
  it('is 1 GiB unless TPU_KERNEL_TPU_CACHE_BYTES says otherwise', () => {
    expect(DEFAULT_CACHE_BYTES).toBe(1024 ** 3);
    expect(xlaCacheCapBytes({})).toBe(1024 ** 3);
    expect(xlaCacheCapBytes({ TPU_KERNEL_TPU_CACHE_BYTES: '4096' })).toBe(4096);
    expect(() => xlaCacheCapBytes({ TPU_KERNEL_TPU_CACHE_BYTES: '-1' })).toThrow('TPU_KERNEL_TPU_CACHE_BYTES must be a positive integer; got "-1"');
  });

  it('a bad TPU_KERNEL_TPU_CACHE_BYTES fails when the runtime loads, naming the variable', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(resolve('dist/runtime/index.js'))})`], {
      encoding: 'utf8', env: { ...process.env, TPU_KERNEL_TPU_CACHE_BYTES: '1GB' },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('RangeError: TPU_KERNEL_TPU_CACHE_BYTES must be a positive integer; got "1GB"');
  });

  it('deletes the least recently used files down to 90% of the cap, and leaves other files alone', async () => {
    const dir = mkdtempSync(join(root, 'trim-'));
    // Four files of 300 bytes used 40, 30, 20 and 10 s ago: 1200 bytes over a cap of 1000.
    ['a', 'b', 'c', 'd'].forEach((name, i) => {
      writeFileSync(join(dir, `${name}.json`), 'x'.repeat(300));
      usedAgo(join(dir, `${name}.json`), 40 - 10 * i);
    });
    writeFileSync(join(dir, 'notes.txt'), 'y'.repeat(5000)); // not the cache's: never counted or deleted
    writeFileSync(join(dir, 'e.123.tmp'), 'z'.repeat(50)); // being written by a live process
    await keepUnder(dir, 1000, 300);
    // 1200 -> 900 (90% of 1000) after deleting the oldest one.
    expect(files(dir)).toEqual(['b.json', 'c.json', 'd.json', 'e.123.tmp', 'notes.txt']);
  });

  it('deletes a temporary file left by a process that died while writing', async () => {
    const dir = mkdtempSync(join(root, 'tmp-'));
    writeFileSync(join(dir, 'f.999.tmp'), 'z'.repeat(50));
    usedAgo(join(dir, 'f.999.tmp'), 3600);
    writeFileSync(join(dir, 'g.json'), 'x'.repeat(10));
    await keepUnder(dir, 1000, 10);
    expect(files(dir)).toEqual(['g.json']);
  });

  it('through writeCached and readCached: a read keeps a file from eviction', async () => {
    process.env.TPU_KERNEL_CACHE_DIR = mkdtempSync(join(root, 'rw-'));
    const value = (n: number): CachedCompile => ({
      figures: { flops: n, bytesAccessed: 0, optimalSeconds: 0, argumentBytes: 0, outputBytes: 0, tempBytes: 0, peakBytes: 0, fusions: 0 },
      hloText: 'HloModule m', compileMs: 1,
    });
    const size = JSON.stringify(value(1)).length; // every value below has the same size (one digit)
    process.env.TPU_KERNEL_TPU_CACHE_BYTES = String(Math.floor(3.5 * size));
    const dir = xlaCacheDir();
    for (const n of [1, 2, 3]) await writeCached(`k${n}`, value(n));
    [1, 2, 3].forEach((n) => usedAgo(join(dir, `k${n}.json`), 40 - 10 * n)); // k1 oldest
    expect((await readCached('k1'))?.figures.flops).toBe(1); // now k1 is the most recently used
    await writeCached('k4', value(4));
    // 4 files over 3.5: trimmed to 3 (90% of 3.5 files is 3.15), the least recently used (k2) gone.
    expect(files(dir)).toEqual(['k1.json', 'k3.json', 'k4.json']);
    expect(await readCached('k2')).toBeUndefined();
    expect((await readCached('k4'))?.figures.flops).toBe(4);
  });
});
