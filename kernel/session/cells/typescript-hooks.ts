// Node module hooks (module.register) that let cells import local TypeScript
// files: `import { f } from '../util.js'` (or './util.js', TypeScript's own
// convention for a file written as util.ts, or './util'), and those files'
// imports of each other. A .ts/.mts file is transpiled to an ES module on load,
// types erased, with an inline source map so stack frames name the TypeScript
// lines. Runs on Node's hooks thread.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type ts from 'typescript';

type Context = { parentURL?: string; format?: string };
type Resolved = { url: string; format?: string; shortCircuit?: boolean };
type Loaded = { format: string; source?: string | Uint8Array; shortCircuit?: boolean };

const TYPESCRIPT_FILE = /\.m?ts$/;
const require = createRequire(import.meta.url);
let compiler: typeof ts | undefined;

/** The TypeScript file meant by a relative or file: specifier whose own file is not there. */
function typescriptAlternative(specifier: string, parentURL: string | undefined): string | undefined {
  if (!/^(\.{1,2}\/|file:)/.test(specifier) || (!specifier.startsWith('file:') && !parentURL?.startsWith('file:'))) return undefined;
  const url = new URL(specifier, parentURL);
  const candidates = /\.m?js$/.test(url.pathname) ? [url.href.replace(/js$/, 'ts')] : [`${url.href}.ts`, `${url.href}/index.ts`];
  return candidates.find((candidate) => existsSync(fileURLToPath(candidate)));
}

export async function resolve(specifier: string, context: Context, nextResolve: (s: string, c: Context) => Promise<Resolved>): Promise<Resolved> {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const url = typescriptAlternative(specifier, context.parentURL);
    if (url === undefined) throw error;
    return { url, format: 'module', shortCircuit: true };
  }
}

export async function load(url: string, context: Context, nextLoad: (u: string, c: Context) => Promise<Loaded>): Promise<Loaded> {
  if (!url.startsWith('file:') || !TYPESCRIPT_FILE.test(new URL(url).pathname)) return nextLoad(url, context);
  const fileName = fileURLToPath(url);
  const tsc = (compiler ??= require('typescript') as typeof ts);
  const { outputText } = tsc.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: {
      target: tsc.ScriptTarget.ES2022,
      module: tsc.ModuleKind.ESNext,
      inlineSourceMap: true,
      inlineSources: true,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
