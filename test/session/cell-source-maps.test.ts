// Source maps of cells are bounded over a long session, and frames of
// functions defined in old cells still map to the line the user typed.
import { describe, expect, it } from 'vitest';
import { CellSourceMaps } from '../../kernel/session/cells/cell-source-maps.js';
import { compileCell } from '../../kernel/session/cells/compile-cell.js';
import { SessionDriver } from './recording-publisher.js';

/** Registers a cell's map; returns its file name and where `needle` sits in the generated JavaScript (1-based). */
function registerCell(maps: CellSourceMaps, displayName: string, source: string, needle = ''): { fileName: string; line: number; column: number } {
  const compiled = compileCell(source);
  if ('syntaxErrors' in compiled) throw new Error(`does not parse: ${source}`);
  const fileName = maps.nextFileName(displayName);
  maps.register(fileName, compiled.positions, source);
  const before = compiled.javascript.slice(0, compiled.javascript.indexOf(needle)).split('\n');
  return { fileName, line: before.length, column: before.at(-1)!.length + 1 };
}

describe('cell source maps', () => {
  it('keep a bounded number of maps, those of cells defining functions far longer', () => {
    const maps = new CellSourceMaps();
    const helper = registerCell(maps, 'cell-1.ts', 'const a = 1;\nfunction helper() {\n  return a;\n}', 'return a');
    const plain = registerCell(maps, 'cell-2.ts', 'console.log(1)');
    for (let i = 3; i < 5000; i++) registerCell(maps, `cell-${i}.ts`, 'console.log(3)'); // one source: compiled once
    expect(maps.size).toBeLessThanOrEqual(1000);
    expect(maps.locate(helper.fileName, helper.line, helper.column)).toMatchObject({ displayName: 'cell-1.ts', line: 3, column: 3 });
    expect(maps.locate(plain.fileName, plain.line, plain.column)).toBeUndefined(); // forgotten
  });

  it('map frames of a function defined 300 cells earlier', async () => {
    const driver = new SessionDriver();
    try {
      await driver.value('function fails(): never {\n  throw new Error("old");\n}');
      const defined = driver.count;
      for (let i = 0; i < 300; i++) await driver.value(`${i}`);
      const { outcome } = await driver.run('fails()');
      expect(outcome.status).toBe('error');
      if (outcome.status === 'error') expect(outcome.traceback[1]).toBe(`    at fails (cell-${defined}.ts:2:9)`);
    } finally {
      await driver.shutdown();
    }
  });
});
