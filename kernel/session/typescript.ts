// TypeScript (the compiler API), loaded on first use: requiring it takes about
// 300 ms, which would otherwise delay the kernel's start (kernel_info). Type
// positions use `import type ts from 'typescript'`; code calls typescript().
import { createRequire } from 'node:module';
import type ts from 'typescript';

const require = createRequire(import.meta.url);
let loaded: typeof ts | undefined;

export function typescript(): typeof ts {
  return (loaded ??= require('typescript') as typeof ts);
}

/** The TypeScript version, without loading the compiler. */
export const typescriptVersion = (require('typescript/package.json') as { version: string }).version;
