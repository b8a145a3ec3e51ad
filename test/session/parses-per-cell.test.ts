// A cell is parsed by the type check's chain (or, under `%typecheck off`, the operator dispatch),
// the emit and the cell history in turn; where the text is the same, the later ones take the tree
// the earlier made (cells/recent-parse.ts). A checked cell is parsed once; a `%typecheck off`
// cell twice (the dispatch parses it as a script of the latest syntax, the emit as a module).
// (The chain binds unchecked cells only when a later cell is checked: cell-chain.test.ts.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type ts from 'typescript';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionFactory } from '../../kernel/language-session.js';
import { SessionDriver } from './recording-publisher.js';

// The built session (its tensors need the device thread), and its own modules.
const dist = (file: string) => import(path.resolve('dist/kernel/session', file));
const built = (await dist('index.js')) as { createSession: SessionFactory };
const { CellHistory } = (await dist('language-service/cell-history.js')) as typeof import('../../kernel/session/language-service/cell-history.js');
const { CellChain } = (await dist('language-service/cell-chain.js')) as typeof import('../../kernel/session/language-service/cell-chain.js');
const { recentParse } = (await dist('cells/recent-parse.js')) as typeof import('../../kernel/session/cells/recent-parse.js');
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-parses-')), built.createSession);
afterAll(async () => {
  await driver.value('await tpu.reset()');
  await driver.shutdown();
});
afterEach(() => vi.restoreAllMocks());

describe('a checked cell', () => {
  it("is parsed once: the emit and the history take the chain's tree", async () => {
    await driver.session.complete('Mat', 3); // builds the language service: later cells are checked on the chain
    expect(await driver.value('const t = tpu.ones([2]);\nt.sum().item()')).toBe('2');
    const bind = vi.spyOn(CellChain.prototype as unknown as { bind(cell: string): { file: ts.SourceFile } | undefined }, 'bind');
    const add = vi.spyOn(CellHistory.prototype, 'add');
    const cell = 'const v0: number = 3 * 2;\nMath.max(v0, 7)';
    expect(await driver.value(cell)).toBe('7');
    const chained = bind.mock.results.map((r) => (r.value as { file: ts.SourceFile } | undefined)?.file).filter((f) => f?.text === cell);
    expect(chained).toHaveLength(1);
    // the emit parsed nothing (it would have remembered its own tree), and the history took the chain's
    expect(recentParse(cell)).toBe(chained[0]);
    expect(add.mock.calls).toEqual([[cell, chained[0]]]);
  });
});

describe('a %typecheck off cell', () => {
  it("gives the history the emit's tree, of the cell as the dispatch left it", async () => {
    expect(await driver.value('%typecheck off\nconst t2 = tpu.ones([2]);\nt2.sum().item()')).toBe('2');
    const add = vi.spyOn(CellHistory.prototype, 'add');
    expect(await driver.value('const v1 = 3 * 2;\nMath.max(v1, 7)')).toBe('7');
    expect(await driver.value('const v2 = t2 * 2;\nv2.sum().item()')).toBe('4');
    const [[unchanged, tree], [changed, emitted]] = add.mock.calls;
    expect(tree?.text).toBe(unchanged);
    expect(tree?.statements.map((s) => s.getText(tree))).toEqual(['const v1 = 3 * 2;', 'Math.max(v1, 7)']);
    expect(changed).toMatch(/__tpuOps\.mul\(t2, 2\)/);
    expect(emitted?.text).toBe(changed);
    expect(emitted?.statements.map((s) => s.getText(emitted))).toEqual(changed.split('\n'));
  });
});
