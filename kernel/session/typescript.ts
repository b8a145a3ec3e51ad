// TypeScript (the compiler API), loaded on first use, with a V8 code cache.
// Requiring typescript.js (9 MB) costs 300-800 ms on these machines, most of it
// compiling; it sits on the path of the first cell. With a code cache written
// after the first use (node_modules/.cache/tpu-kernel), later kernel starts load
// it in about a third of the time. Node 20 has no module compile cache, hence
// the manual CommonJS load. Any problem with the cache falls back to require().
// Type positions use `import type ts from 'typescript'`; code calls typescript().
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type ts from 'typescript';

const require = createRequire(import.meta.url);
/** Written once the first cells compiled, so the cache holds the functions they used. */
const CACHE_WRITE_DELAY_MS = 3000;

/** The TypeScript version, without loading the compiler. */
export const typescriptVersion = (require('typescript/package.json') as { version: string }).version;

let loaded: typeof ts | undefined;

export function typescript(): typeof ts {
  return (loaded ??= loadWithCodeCache());
}

function loadWithCodeCache(): typeof ts {
  const file = require.resolve('typescript');
  const cacheDir = path.join(path.dirname(require.resolve('typescript/package.json')), '..', '.cache', 'tpu-kernel');
  const cacheFile = path.join(cacheDir, `typescript-${typescriptVersion}-node-${process.version}-${process.arch}.v8cache`);
  try {
    const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
    const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
    const module = { exports: {} as typeof ts };
    (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
    if (!cachedData || script.cachedDataRejected) {
      setTimeout(() => writeCache(script, cacheDir, cacheFile), CACHE_WRITE_DELAY_MS).unref();
    }
    return module.exports;
  } catch {
    return require('typescript') as typeof ts;
  }
}

function writeCache(script: vm.Script, dir: string, file: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, file); // atomic: concurrent kernels never read half a cache
  } catch {
    // A read-only install just runs without the cache.
  }
}
