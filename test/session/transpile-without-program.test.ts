// A cell emitted without a program (cells/transpile-without-program.ts) must be exactly what
// ts.transpileModule emits for it: the JavaScript, the source map and the names the top-level
// rewrite collects, over every code cell of the notebooks, every TypeScript block of the docs
// and a catalogue of syntax. Cells whose emit needs the type checker (enums, namespaces, class
// fields) or that do not parse must be left to transpileModule.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cellCompilerOptions, cellTransformers, newNames } from '../../kernel/session/cells/compile-cell.js';
import { transpileWithoutProgram } from '../../kernel/session/cells/transpile-without-program.js';
import { CHECKER, docBlocks, notebookCells, PLAIN } from './cell-catalogue.js';

const withoutUrl = (text: string) => text.replace(/\/\/# sourceMappingURL=.*\s*$/, '');

function bothWays(source: string) {
  const fastNames = newNames();
  const fast = transpileWithoutProgram(source, cellCompilerOptions(), cellTransformers(fastNames));
  const names = newNames();
  const reference = ts.transpileModule(source, { compilerOptions: cellCompilerOptions(), fileName: 'cell.ts', reportDiagnostics: true, transformers: cellTransformers(names) });
  return { fast, fastNames, reference, names };
}

function expectSameEmit(source: string): boolean {
  const { fast, fastNames, reference, names } = bothWays(source);
  if (!fast) return false;
  expect(withoutUrl(fast.outputText), source).toBe(withoutUrl(reference.outputText));
  expect(fast.sourceMapText, source).toBe(reference.sourceMapText);
  expect([...fastNames.declared], source).toEqual([...names.declared]);
  expect([...fastNames.resetOnVar], source).toEqual([...names.resetOnVar]);
  expect(fastNames.steppable, source).toBe(names.steppable);
  return true;
}

describe('a cell emitted without a program', () => {
  it('emits what transpileModule emits for the syntax catalogue', () => {
    for (const source of PLAIN) expect(expectSameEmit(source), `without a program: ${source}`).toBe(true);
  });

  it('leaves enums, namespaces, class fields and syntax errors to transpileModule', () => {
    for (const source of CHECKER) expect(bothWays(source).fast, source).toBeUndefined();
  });

  it('emits what transpileModule emits for every notebook cell and docs block it takes', () => {
    const cells = [...notebookCells(), ...docBlocks()];
    const taken = cells.filter((cell) => expectSameEmit(cell)).length;
    // Classes with fields and enums are the only cells left to transpileModule; the notebooks are mostly statements.
    expect(cells.length).toBeGreaterThan(50);
    expect(taken / cells.length).toBeGreaterThan(0.8);
  });
});
