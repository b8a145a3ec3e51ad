// The language service's history files: named in the program's list ahead of use, so a cell
// that starts a new file changes a file's text, not the list (a new list makes the next
// program resolve every file and type reference again).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CellLanguageService } from '../../kernel/session/language-service/language-service-host.js';

const service = new CellLanguageService(mkdtempSync(path.join(tmpdir(), 'history-files-')));
afterAll(() => service.service.dispose());

/** A cell's declaration longer than a history file holds: each such cell starts a file of its own. */
const declaration = (i: number) => `/** ${'x'.repeat(4_100)} */\ndeclare const cell${i}: { index: ${i} };`;
const rootFiles = () => service.service.getProgram()!.getRootFileNames();
const historyFiles = () => rootFiles().filter((f) => path.basename(f).startsWith('__tpu_kernel_history_'));

describe('history files', () => {
  it('keeps the program\'s file list while cells fill the listed files, and lists 64 more when they are full', () => {
    const texts: string[] = [];
    const add = () => (texts.push(declaration(texts.length)), service.setHistory(texts, [texts.length - 1]));
    add();
    const listed = rootFiles();
    expect(historyFiles()).toHaveLength(64);
    for (let i = 1; i < 64; i++) add();
    expect(rootFiles()).toEqual(listed);
    add(); // the 65th file
    expect(historyFiles()).toHaveLength(128);
    expect(rootFiles().slice(0, listed.length - 1)).toEqual(listed.slice(0, -1)); // the cell file stays last
    expect(rootFiles().at(-1)).toBe(service.cellFile);
  });

  it('types a cell against the first and the last history file', () => {
    service.setCell('const first: 0 = cell0.index;\nconst last: 64 = cell64.index;\nconst wrong: 1 = cell63.index;');
    const problems = service.service.getSemanticDiagnostics(service.cellFile).map((d) => [d.start, d.code]);
    expect(problems).toEqual([[service.service.getProgram()!.getSourceFile(service.cellFile)!.text.indexOf('wrong'), 2322]]);
  });
});
