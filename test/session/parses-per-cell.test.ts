// A `%typecheck off` cell that may meet tensors is parsed for the operator dispatch and for the
// emit; the history parses it no third time: it takes the dispatch's syntax tree, or the emit's
// where the dispatch changed the cell. (The chain binds such cells only when a later cell is
// checked: cell-chain.test.ts.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionFactory } from '../../kernel/language-session.js';
import { SessionDriver } from './recording-publisher.js';

// The built session (its tensors need the device thread), and its own CellHistory class.
const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const { CellHistory } = (await import(path.resolve('dist/kernel/session/language-service/cell-history.js'))) as typeof import('../../kernel/session/language-service/cell-history.js');
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-parses-')), built.createSession);
afterAll(async () => {
  await driver.value('await tpu.reset()');
  await driver.shutdown();
});
afterEach(() => vi.restoreAllMocks());

describe('a %typecheck off cell', () => {
  it("gives the history the dispatch's syntax tree, or the emit's of a changed cell", async () => {
    expect(await driver.value('%typecheck off\nconst t = tpu.ones([2]);\nt.sum().item()')).toBe('2');
    const add = vi.spyOn(CellHistory.prototype, 'add');
    expect(await driver.value('const v1 = 3 * 2;\nMath.max(v1, 7)')).toBe('7');
    expect(await driver.value('const v2 = t * 2;\nv2.sum().item()')).toBe('4');
    const [[unchanged, tree], [changed, emitted]] = add.mock.calls;
    expect(tree?.text).toBe(unchanged);
    expect(tree?.statements.map((s) => s.getText(tree))).toEqual(['const v1 = 3 * 2;', 'Math.max(v1, 7)']);
    expect(changed).toMatch(/__tpuOps\.mul\(t, 2\)/);
    expect(emitted?.text).toBe(changed);
    expect(emitted?.statements.map((s) => s.getText(emitted))).toEqual(changed.split('\n'));
  });
});
