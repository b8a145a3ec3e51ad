// is_complete from a parse alone (no program): each case's verdict, and the parse's errors
// equal to those of ts.transpileModule, which it used before (a program and checker a request).
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

const cases: [string, object][] = [
  ['const x = 1', { status: 'complete' }],
  ['', { status: 'complete' }],
  ['%time', { status: 'complete' }],
  ['function f() {', { status: 'incomplete', indent: '  ' }],
  ['if (a) {\n    b();\n} else {', { status: 'incomplete', indent: '  ' }],
  ['if (a) {\n    b(', { status: 'incomplete', indent: '      ' }],
  ['const xs = [1,\n  2,', { status: 'incomplete', indent: '  ' }],
  ['const s = `multi\nline', { status: 'incomplete', indent: '' }],
  ['/* open comment', { status: 'incomplete', indent: '' }],
  ['const v =', { status: 'incomplete', indent: '' }],
  ['const = ;', { status: 'invalid' }],
  ['}', { status: 'invalid' }],
  ['let x = 1;\nx)', { status: 'invalid' }],
  ['const s = "unterminated', { status: 'invalid' }],
  ['await foo()', { status: 'complete' }],
  ['for await (const x of xs) {', { status: 'incomplete', indent: '  ' }],
  ['const f = (x: number) =>', { status: 'incomplete', indent: '  ' }],
  ['class A {\n  m() {', { status: 'incomplete', indent: '    ' }],
  ['const t = `a ${', { status: 'incomplete', indent: '  ' }],
  ['let a = 1 +', { status: 'incomplete', indent: '' }],
  ['type T = { a:', { status: 'incomplete', indent: '' }],
  ['/ab+c/.test(s)', { status: 'complete' }],
  ['const x: number = "s"', { status: 'complete' }], // a type error is no syntax error
  ['<T,>(x: T) => x', { status: 'complete' }],
  ['const a = 1;;\n)', { status: 'invalid' }],
];

describe('is_complete', () => {
  it.each(cases)('%j -> %j', async (code, expected) => {
    expect(await driver.session.isComplete(code)).toEqual(expected);
  });

  it('finds the same syntax errors as ts.transpileModule in every case', () => {
    const where = (d: ts.Diagnostic) => [d.code, d.start, d.length];
    for (const [code] of cases) {
      const parsed = (ts.createSourceFile('cell.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS) as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
      const transpiled = ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } }).diagnostics ?? [];
      expect(parsed.map(where), code).toEqual(transpiled.map(where));
    }
  });
});
