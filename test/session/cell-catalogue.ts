// Cells to compile both ways: every code cell of the notebooks, every TypeScript block of the
// docs, and a catalogue of syntax (cells whose emit needs no type checker, and cells that do).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Code cells of the notebooks, magic lines blanked (the session compiles the code between them). */
export function notebookCells(): string[] {
  return readdirSync('notebooks').filter((f) => f.endsWith('.ipynb')).flatMap((file) => {
    const notebook = JSON.parse(readFileSync(path.join('notebooks', file), 'utf8')) as { cells: { cell_type: string; source: string | string[] }[] };
    return notebook.cells.filter((c) => c.cell_type === 'code').map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source).replace(/^%.*$/gm, ''));
  });
}

/** ```ts blocks of the README and docs/. */
export function docBlocks(): string[] {
  const files = ['README.md', ...readdirSync('docs').map((f) => path.join('docs', f))];
  return files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/^%.*$/gm, '')));
}

/** Syntax a cell may hold that transpiles without the checker. */
export const PLAIN = [
  'const v5: number = 5 * 2;\nv5 + 1',
  'let a = 1;\nfunction f(x: number): number { return x + a }\nawait f(1)',
  'interface P { x: number }\n// kept comment\ntype Q = P;\nconst p = { x: 1 } as P satisfies Q;\np!.x',
  'import { readFileSync, type Stats } from "node:fs";\nimport type { X } from "y";\nimport * as os from "node:os";\nreadFileSync',
  'const m = await import("node:path");\nm.sep',
  'for await (const x of [1, 2]) console.log(x)',
  'const { a: aa, b = <number>3 } = { a: 1 } as any;\n[aa, b]',
  'declare const g: number;\nfunction h(this: unknown, a?: number): void;\nfunction h(a?: any) {}\nh',
  'const id = <T,>(x: T): T => x;\nid<string>("a")',
  'async function* gen(): AsyncGenerator<number> { yield 1 }\nfor await (const v of gen()) console.log(v)',
  'label: for (let i = 0; i < 3; i++) { if (i) continue label; }',
  'try { JSON.parse("{") } catch { console.log("bad") } finally { }',
  'const o = { a: 1, ...{ b: 2 } }, k = "a" as keyof typeof o;\no[k]',
  'x ??= 1; y ||= 2; z &&= 3;\nx',
  '/** doc */\nexport const e = 1;\nexport function ef() {}\nexport { e as e2 };',
  'const big = 10n ** 20n;\n`${big}`',
  'let t: [number, string?] = [1];\nt.length',
  'abstract class Shape { abstract area(): number; describe() { return `area ${this.area()}` } }',
  'class Plain { m() { return 1 } static s() { return 2 } }\nnew Plain().m()',
  '"use strict";\nconst s = 1;\ns',
  'const r = /a(?<n>b)/u.exec("ab")?.groups?.n;\nr',
  'x = 1',
  '',
];

/** Cells whose emit asks the type checker or that do not parse: left to transpileModule. */
export const CHECKER = [
  'enum E { A, B = 2 }\nE.B',
  'const enum CE { A }\nCE.A',
  'namespace N { export const x = 1 }\nN.x',
  'class C { y = 2 }\nnew C().y',
  'class D<T> { constructor(readonly q: number, private z: T) {} }\nnew D<string>(1, "a")',
  'const a = ;',
  'function (',
];
