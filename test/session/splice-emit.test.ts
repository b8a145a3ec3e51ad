// A cell's JavaScript made by editing its text (cells/splice-emit.ts) must be the program
// TypeScript's emit makes (with the top-level rewrite): the same syntax tree once parentheses
// and empty statements are set aside, the same declared names, the same wrapper. Positions in
// it map back to the cell: every name in the JavaScript maps to that name in the cell. Over the
// notebooks' cells, the docs' blocks and a catalogue of syntax; what TypeScript's emit lowers
// is left to it.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cellCompilerOptions, emitCell } from '../../kernel/session/cells/compile-cell.js';
import type { CompiledCell } from '../../kernel/session/cells/compiled-cell.js';
import { emitBySplicing } from '../../kernel/session/cells/splice-emit.js';
import { parseCell } from '../../kernel/session/cells/transpile-without-program.js';
import { IMPORT_FUNCTION } from '../../kernel/session/cells/top-level-rewrite.js';
import { OPERATOR_DISPATCH } from '../../kernel/session/operators/operator-dispatch.js';
import { CHECKER, docBlocks, notebookCells, PLAIN } from './cell-catalogue.js';

const spliced = (source: string) => emitBySplicing(source, (text) => parseCell(text, cellCompilerOptions()));

/** The JavaScript's syntax tree as text: kinds, names and literal values; parentheses and empty statements (class members too) left out. */
function tree(javascript: string): string {
  const file = ts.createSourceFile('cell.js', javascript, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  expect((file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics, javascript).toEqual([]);
  const out: string[] = [];
  const walk = (node: ts.Node): void => {
    if (ts.isParenthesizedExpression(node)) return walk(node.expression);
    if (ts.isEmptyStatement(node) || ts.isSemicolonClassElement(node)) return;
    out.push(ts.SyntaxKind[node.kind]);
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) out.push(node.text);
    else if (!ts.isSourceFile(node) && typeof (node as { text?: unknown }).text === 'string') out.push(JSON.stringify((node as { text: string }).text)); // literals, template parts
    else if (ts.isToken(node)) out.push(node.getText(file));
    out.push('(');
    ts.forEachChild(node, walk);
    out.push(')');
  };
  walk(file);
  return out.join(' ');
}

/** Every name of the JavaScript maps to the same name in the cell, but the names the rewrite writes (at their statement). */
function expectPositionsBack(source: string, cell: CompiledCell): void {
  const file = ts.createSourceFile('cell.js', cell.javascript, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const sourceLines = source.split('\n');
  const written = new Set([IMPORT_FUNCTION, OPERATOR_DISPATCH, 'default', ...cell.declaredNames]);
  const walk = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const at = file.getLineAndCharacterOfPosition(node.getStart(file));
      const back = cell.positions.locate(at.line + 1, at.character + 1);
      const there = back && sourceLines[back.line - 1]!.slice(back.column - 1);
      // an import's generated destructuring stands for the whole import statement
      if (!there?.startsWith(node.text) && !there?.startsWith('import ')) expect(written.has(node.text), `${node.text} at ${at.line + 1}:${at.character + 1} maps to ${JSON.stringify(there)} in ${source}`).toBe(true);
    }
    ts.forEachChild(node, walk);
  };
  walk(file);
}

function expectSameProgram(source: string): boolean {
  const cell = spliced(source);
  if (!cell) return false;
  const reference = emitCell(source);
  if ('syntaxErrors' in reference) throw new Error(`the emit failed: ${source}`);
  expect(tree(cell.javascript), `${source}\n--- spliced:\n${cell.javascript}`).toBe(tree(reference.javascript));
  expect(cell.declaredNames, source).toEqual(reference.declaredNames);
  expect(cell.steppable, source).toBe(reference.steppable);
  expectPositionsBack(source, cell);
  return true;
}

/** Erasing alone must not change what JavaScript joins or splits, nor what a top-level statement means. */
const SPLICED = [
  'foo()\ntype T = 1\n(x)',
  'foo()\nconst [a, b] = x\n[a, b]',
  'foo()\nfunction f() { return 1 }\n(f)()',
  'foo()\ninterface I {}\n`t`',
  'if (c) { foo()\n  interface I { a: number }\n  (x) }',
  'const y = x!\n(b)',
  'let q: number, r = 2, [s]: number[] = [3], { t }: { t: number } = { t: 4 };\nvar u;\nvar w: string, z = 1;\nq',
  'let d!: number;\nd',
  'export const e = 1;\nexport function ef<T>(a: T): T { return a }\nexport async function* eg() {}\nexport class EC {}\nexport abstract class EA { abstract m(): void }\nexport { e as e2 };\nexport type { X } from "x";\nexport * from "y";',
  'class A<T> extends B<T> implements C, D { x: number\n  y?: string; declare z: number; private w = 1; protected readonly v = 2;\n  [k: string]: unknown\n  constructor(a: number) { super(); }\n  m<U>(this: A<T>, u: U): U { return u }\n  n?(): void\n  override o(): void {}\n  get g(): number { return 1 }\n  set g(v: number) {}\n  static { init() }\n  #p = 1\n  q = () => this.#p }',
  'class F { f(a: number): void; f(a: string): void; f(a: any) { return a } }\nnew F().f(1)',
  'const o = { m<T>(a: T): T { return a }, get g(): number { return 1 }, a: 1 satisfies number };\no',
  'const fn = async <T,>(a: T, b?: number, ...rest: T[]): Promise<T> => a;\nawait fn(1)',
  'function g(this: Window) {}\nfunction h(this: Window, a: number, b = 2) { return a }\nh.call(null, 1)',
  'try { x() } catch (e: unknown) { console.log(e as Error) }',
  'await a\nawait b\n{ await c\n  await d }\nawait e',
  'const a = await b, c = (await d) + 1;\nif (await e) { await f() }\nconst g = async () => await h();\nfunction* k() { yield 1 }\nawait a',
  'const m = await import("node:path");\nasync function late() { return import("node:os") }\nm',
  'for await (const x of gen()) { await x }\nconst y = await z',
  'declare global { interface W { a: 1 } }\ndeclare module "m" { const x: number }\ndeclare function df(): void;\ndeclare let dl: number;\ndeclare class DC {}\ndeclare enum DE { A }\nfoo()',
  'import d, { a, b as c, type T } from "m";\nimport * as ns from "n";\nimport d2, * as ns2 from "o";\nimport "p";\nimport { type U } from "q";\nimport type V from "r";\nimport {} from "s";\n[d, a, c, ns, d2, ns2]',
  'new Map<string, number>()\n  .set("a", 1)\nf<number>`tpl`\nconst inst = g<number>;',
  '"use strict";\n/* block */ const s = 1; // tail\ns',
  'label: for (const i of [1]) { if (i) continue label }\nswitch (x) { case 1: break; default: }\ndo { x-- } while (x > 0)\nthrow new Error("e")',
  '__tpuOps.add(a, 1)\nconst v = __tpuOps.mul(b, 2)',
  'x = 1',
  '',
  '// only a comment',
  '{ let a: number = 1; const f = function (b: number): void {}; class L { p: number = 1 } }',
  'abstract class S { abstract get a(): number; abstract b: string; c(): number { return 1 } }',
  'let t: [number, string?] = [1];\nt.length',
  'x ??= 1 as number; y ||= <any>2;',
];

/** What TypeScript's emit lowers or splits differently: left to it. */
const NEEDS_THE_EMIT = [
  'enum E { A }\nE.A',
  'namespace N { export const x = 1 }',
  'class P { constructor(private readonly a: number) {} }',
  'class Q { @dec m() {} }',
  'class R { accessor a = 1 }',
  '{ using u = open() }',
  'import fs = require("fs");',
  'export = 1;',
  'export default 1;',
  'export default function () {}',
  'const a = <number>b;',
  'import.meta.url',
  'const f = (a): {\n  b: number } => a;',
  'const a = b as any\n(c)',
  'const a = b satisfies any\n[c]',
  'import j from "./x.json" with { type: "json" };',
];

describe('a cell emitted by splicing its text', () => {
  it('is the program TypeScript emits, for the syntax catalogues', () => {
    for (const source of [...PLAIN, ...SPLICED]) {
      if (source.includes('<number>') || source.includes('<any>')) continue; // `<T>e` assertions: the emit's
      expect(expectSameProgram(source), `spliced: ${source}`).toBe(true);
    }
    for (const source of CHECKER) expect(spliced(source) === undefined || expectSameProgram(source), source).toBe(true);
  });

  it('leaves what TypeScript lowers, and what erasing alone would join, to the emit', () => {
    for (const source of NEEDS_THE_EMIT) expect(spliced(source), source).toBeUndefined();
  });

  it('is the program TypeScript emits for every notebook cell and docs block', () => {
    const cells = [...notebookCells(), ...docBlocks()];
    const taken = cells.filter((cell) => expectSameProgram(cell)).length;
    expect(cells.length).toBeGreaterThan(50);
    expect(taken / cells.length).toBeGreaterThan(0.9);
  });

  it('is the same from the type check\'s tree of the cell (parents set, bound: recent-parse.ts)', () => {
    const internals = ts as unknown as { bindSourceFile(file: ts.SourceFile, options: ts.CompilerOptions): void; getSetExternalModuleIndicator(o: ts.CompilerOptions): (f: ts.SourceFile) => void };
    const options = { ...cellCompilerOptions(), moduleDetection: ts.ModuleDetectionKind.Force };
    let compared = 0;
    for (const source of [...PLAIN, ...SPLICED, ...CHECKER, ...notebookCells(), ...docBlocks()]) {
      const own = spliced(source);
      const checked = ts.createSourceFile('chained.ts', source, { languageVersion: ts.ScriptTarget.ES2022, setExternalModuleIndicator: internals.getSetExternalModuleIndicator(options) }, true);
      internals.bindSourceFile(checked, options);
      const fromChecked = emitBySplicing(source, () => checked);
      if (!own) continue;
      compared++;
      expect({ javascript: fromChecked?.javascript, declaredNames: fromChecked?.declaredNames, steppable: fromChecked?.steppable }, source)
        .toEqual({ javascript: own.javascript, declaredNames: own.declaredNames, steppable: own.steppable });
      const lines = own.javascript.split('\n');
      for (let line = 1; line <= lines.length; line++) expect(fromChecked!.positions.locate(line, 1), source).toEqual(own.positions.locate(line, 1));
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('maps a position inside a moved function back to the cell', () => {
    const source = 'const a = 1;\nfunction helper(x: number) {\n  return missing(x);\n}';
    const cell = spliced(source)!;
    const lines = cell.javascript.split('\n');
    const line = lines.findIndex((text) => text.includes('missing(x)'));
    expect(cell.positions.locate(line + 1, lines[line]!.indexOf('missing') + 1)).toEqual({ line: 3, column: 10 });
  });
});
