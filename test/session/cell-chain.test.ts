// Cells checked on the last program's checker (cell-chain.ts) must get what a new program with
// every earlier cell in its history gets: the same diagnostics and the same operator rewrite.
// The reference here makes that program for every cell (the service host and cell history
// alone, no chain). Messages are compared where they name no union: a long-lived checker made
// the union's member types in another order, and prints them in that order (TypeScript orders a
// union by type identity), so `A | B` may read `B | A`. Where the chain could be stale (a name declared again, a declaration that
// mentioned a name before it existed, a global's name, imports, augmentations, directives), the
// session takes a new program: the cases below name the error TypeScript gives there.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CellChain } from '../../kernel/session/language-service/cell-chain.js';
import { CellHistory } from '../../kernel/session/language-service/cell-history.js';
import { CELL_SUFFIX, CellLanguageService } from '../../kernel/session/language-service/language-service-host.js';
import { LazyLanguageService } from '../../kernel/session/language-service/lazy-language-service.js';
import { rewriteOperators } from '../../kernel/session/operators/typed-operator-rewrite.js';
import { cellCompilerOptions } from '../../kernel/session/cells/compile-cell.js';
import { parseCell } from '../../kernel/session/cells/transpile-without-program.js';
import { typescript } from '../../kernel/session/typescript.js';
import { CHECKER, docBlocks, notebookCells, PLAIN } from './cell-catalogue.js';

const noMagics = new Map();
const tmp = (name: string) => mkdtempSync(path.join(tmpdir(), `cell-chain-${name}-`));

/** Every cell on a new program, its history holding every earlier cell. */
class EveryCellAProgram {
  private readonly ls: CellLanguageService;
  private readonly history = new CellHistory();
  constructor(cwd: string) {
    this.ls = new CellLanguageService(cwd);
  }

  check(cell: string) {
    const ts = typescript();
    this.ls.setCell(cell);
    const program = this.ls.service.getProgram()!;
    const rewrite = rewriteOperators({ file: program.getSourceFile(this.ls.cellFile)!, checker: program.getTypeChecker() }, cell, ts);
    const diagnostics = [...this.ls.service.getSyntacticDiagnostics(this.ls.cellFile), ...this.ls.service.getSemanticDiagnostics(this.ls.cellFile)]
      .filter((d) => d.start! < cell.length)
      .map((d) => comparable(d.code, d.start!, ts.flattenDiagnosticMessageText(d.messageText, '\n')));
    return { rewrite, diagnostics };
  }

  record(cell: string): void {
    this.history.add(cell);
    this.ls.setHistory(this.history.texts, this.history.takeChanged());
  }
}

/** A session's service in a new folder; `chained()`: whether each check so far was answered on the chain. */
async function withService<T>(cwd: string, body: (session: LazyLanguageService, chained: () => boolean[]) => T | Promise<T>): Promise<T> {
  const checks = vi.spyOn(CellChain.prototype, 'check');
  const session = new LazyLanguageService(cwd, () => false);
  try {
    return await body(session, () => checks.mock.results.map((r) => r.value !== undefined));
  } finally {
    checks.mockRestore();
    session.dispose();
  }
}

/** A cell recorded as the session records a cell it ran: then, and after its reply. */
function recordRun(session: LazyLanguageService, cell: string): void {
  session.recordCell(cell);
  session.recordPending();
}

/** A cell checked as the session checks it before running it, then recorded as run: its problems' codes. */
function checkAndRecord(session: LazyLanguageService, cell: string): number[] {
  const codes = session.diagnostics(cell).map((p) => p.code);
  recordRun(session, cell);
  return codes;
}

type Run = 'checked' | 'unchecked';

/**
 * The session's service on `cells` in turn beside the reference: a checked cell's rewrite and
 * diagnostics must be the reference's; an unchecked one is only recorded (run without a check).
 * Per cell, the chain's binds so far and its problems' codes; whether each check was answered on the chain.
 */
async function compareRuns(cells: readonly (readonly [string, Run])[], name: string) {
  const reference = new EveryCellAProgram(tmp(`${name}-reference`));
  const bind = vi.spyOn(CellChain.prototype as unknown as { bind(cell: string): unknown }, 'bind');
  const binds: number[] = [];
  const problems: (number[] | undefined)[] = [];
  const onChain = await withService(tmp(name), (session, chained) => {
    for (const [i, [cell, how]] of cells.entries()) {
      if (how === 'checked') {
        const expected = reference.check(cell);
        const rewrite = session.rewriteOperators(cell, noMagics);
        const diagnostics = session.diagnostics(cell);
        expect({ i, cell, rewrite, diagnostics: diagnostics.map((p) => comparable(p.code, offsetOf(cell, p.line, p.column), p.message)) }).toEqual({ i, cell, ...expected });
        problems.push(diagnostics.map((p) => p.code));
      } else problems.push(undefined);
      recordRun(session, cell);
      reference.record(cell);
      binds.push(bind.mock.calls.length);
    }
    return chained();
  });
  return { binds, onChain, problems };
}

/** Every cell checked, then run: how many checks the chain answered. */
async function compareOn(cells: readonly string[], name: string): Promise<number> {
  const { onChain } = await compareRuns(cells.map((cell) => [cell, 'checked'] as const), name);
  return onChain.filter(Boolean).length;
}

function comparable(code: number, start: number, message: string): string {
  return `${code} at ${start}${message.includes(' | ') ? '' : `: ${message}`}`;
}

function offsetOf(cell: string, line: number, column: number): number {
  return cell.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
}

afterEach(() => vi.restoreAllMocks());

describe('cells checked on the last checker', () => {
  it('give a new program\'s diagnostics and rewrite on every notebook cell, in order', async () => {
    const cells = notebookCells();
    const onChain = await compareOn(cells, 'notebooks');
    // Most cells declare new names: the chain must be what checks them (each cell is checked twice, rewrite and diagnostics).
    expect(onChain).toBeGreaterThan(cells.length);
  }, 120_000);

  it('give a new program\'s answers on the docs\' blocks and the syntax catalogues, one after another', async () => {
    await compareOn([...docBlocks(), ...PLAIN, ...CHECKER], 'docs');
  }, 120_000);

  it('give a new program\'s answers on cells that end in a comment, blank lines or an expression (the chain parses the cell alone, the service the cell and a suffix)', async () => {
    await compareOn(['const a1 = 1 // end', 'const b1: string = a1 /* open */', 'a1\n\n\n', '/** doc */\nfunction f1(): number { return a1 }\n// last', 'const c1 = a1 +\n  2', 'const d1: string = c1 as any as number'], 'cell-ends');
  });

  it('check fresh cells without a new program: types flow from chained cell to chained cell', async () => {
    const cells = [
      'const a = tpu.ones([2, 3]);',
      'function twice(t: typeof a) { return t + t; }',
      'const b = twice(a);',
      'const s: string = b.sum().item();',
      'const c = b * 2;\nc',
    ];
    // The first cell's rewrite makes the program; its diagnostics and every later check are chained.
    expect(await compareOn(cells, 'fresh')).toBe(2 * cells.length - 1);
  });
});

describe('the history', () => {
  // `function g() {` runs on into the suffix: that cell is parsed alone.
  it('takes the same declarations from the chain\'s syntax tree (the cell and its suffix) as from the cell alone', () => {
    const ts = typescript();
    const cells = ['/** doc */\nexport const a = 1;\nfunction f() {}\nf()', 'interface I { x: number }\ntype T = I', 'const b =', 'function g() {', 'let [c, , d] = [1, 2, 3] // end'];
    const alone = new CellHistory();
    const shared = new CellHistory();
    for (const cell of cells) {
      const parsed = ts.createSourceFile('chained.ts', cell + CELL_SUFFIX, ts.ScriptTarget.ES2022, true);
      expect(shared.add(cell, parsed)).toBe(alone.add(cell));
    }
    expect(shared.texts).toEqual(alone.texts);
    expect(alone.texts).toEqual(['/** doc */\nconst a = 1;\nfunction f() {}', 'interface I { x: number }\ntype T = I', 'const b =', 'function g() {', 'let [c, , d] = [1, 2, 3]']);
  });

  it('takes the same declarations from the emit\'s syntax tree (a module, no parent pointers) as from the cell alone', () => {
    const cells = ['/** doc */\nexport const a = 1;\nfunction f() {}\nf()', 'import { sep as s, join } from "node:path";\nimport * as p from "node:path";', 'const w = await Promise.resolve(2);\nclass K {}'];
    const alone = new CellHistory();
    const shared = new CellHistory();
    for (const cell of cells) {
      const parsed = parseCell(cell, cellCompilerOptions());
      expect(parsed?.statements[0]?.parent).toBeUndefined();
      expect(shared.add(cell, parsed)).toBe(alone.add(cell));
    }
    expect(shared.texts).toEqual(alone.texts);
    expect(alone.texts[1]).toBe('declare const s: typeof import("node:path").sep; type s = import("node:path").sep;\n'
      + 'declare const join: typeof import("node:path").join; type join = import("node:path").join;\ndeclare const p: typeof import("node:path");');
  });
});

describe('complete and inspect between cells', () => {
  it('leave the next cells on the chain, with what every earlier cell declared', () => withService(tmp('complete'), async (session, chained) => {
    for (const cell of ['const a = 1;', 'const b = "x";']) checkAndRecord(session, cell);
    expect((await session.complete('a.toF', 5, noMagics)).matches).toEqual(['toFixed']);
    const before = chained().length;
    expect(session.diagnostics('const n: number = b;').map((p) => p.code)).toEqual([2322]);
    recordRun(session, 'const c = a + 1;');
    expect((await session.inspect('c', 1, 0, noMagics)).data['text/plain']).toMatch(/const c: number/);
    expect(session.diagnostics('const s: string = c;').map((p) => p.code)).toEqual([2322]);
    expect(chained().slice(before)).toEqual([true, true]);
  }));

  it('print a message that names a type by its module (an overload taking a DTensor) on the chain', () => withService(tmp('module-type'), async (session, chained) => {
    checkAndRecord(session, 'const p = tpu.tensor([0.5]);');
    await session.complete('p.', 2, noMagics);
    const before = chained().length;
    // the checker asks the cell's file which import style it uses to print DTensor's module
    const problems = session.diagnostics('tpu.nn.functional.mseLoss(p, p, { foo: p });');
    expect(problems.map((p) => p.code)).toEqual([2769]);
    expect(problems[0]!.message).toContain("Argument of type 'Tensor' is not assignable to parameter of type 'DTensor'.");
    expect(chained().slice(before)).toEqual([true]);
  }));
});

describe('a quiet spell after the chain ended', () => {
  // a name declared again ends the chain; so does a checked cell it cannot take (a directive), when it runs
  it.each([
    ['a name declared again', ['const a = 1;', 'const a = "x";'], 'const n: number = a;'],
    ['a checked cell with a directive', ['const a = 1;', '// @ts-expect-error\nconst b: string = a;'], 'const n: string = a;'],
  ])('after %s, makes the new program then, so the next cell is checked on the chain', (_, cells, next) => withService(tmp('quiet'), async (session, chained) => {
    for (const cell of cells) checkAndRecord(session, cell);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the quiet spell is 500 ms
    const before = chained().length;
    expect(session.diagnostics(next).map((p) => p.code)).toEqual([2322]);
    expect(chained().slice(before)).toEqual([true]);
  }));
});

describe('a long chain', () => {
  it('keeps every cell on the chain past 200 cells with no quiet spell, then makes the new program in one', () => withService(tmp('aged'), async (session, chained) => {
    const rebases = vi.spyOn(CellChain.prototype, 'rebase');
    try {
      checkAndRecord(session, 'const a0: number = 0;'); // makes the first program
      const before = chained().length;
      for (let i = 1; i <= 230; i++) expect(checkAndRecord(session, `const a${i}: number = a${i - 1} + 1;`)).toEqual([]);
      // names of the first and the latest cells, and a spelling suggestion among them, as a new program gives them
      expect(session.diagnostics('const s: string = a3 + a230;').map((p) => p.code)).toEqual([2322]);
      expect(session.diagnostics('a230_').map((p) => p.message)).toEqual(["Cannot find name 'a230_'. Did you mean 'a230'?"]);
      expect(chained().slice(before).every(Boolean)).toBe(true);
      expect(rebases).toHaveBeenCalledTimes(1);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the quiet spell is 500 ms
      expect(rebases).toHaveBeenCalledTimes(2);
      const after = chained().length;
      expect(session.diagnostics('const s: string = a230;').map((p) => p.code)).toEqual([2322]);
      expect(chained().slice(after)).toEqual([true]);
    } finally {
      rebases.mockRestore();
    }
  }));
});

describe('where the chain could be stale, a new program answers', () => {
  const run = (cells: string[], cwd = tmp('stale')) => withService(cwd, (session) => cells.map((cell) => checkAndRecord(session, cell)));

  it('a name declared again: an earlier function returns the new type', async () => {
    expect(await run(['const x = 1;', 'function g() { return x; }', 'const x = "a";', 'const n: number = g();']))
      .toEqual([[], [], [], [2322]]);
  });

  it('a name an earlier declaration used before it existed', async () => {
    expect(await run(['function f() { return y; }', 'const y = "a";', 'const n: number = f();']))
      .toEqual([[2304], [], [2322]]);
  });

  it('a global\'s name: an interface merges with the lib\'s, as in the history script', async () => {
    expect(await run(['interface Array<T> { mine(): T }', 'const m: number = [1].mine();\nconst k: string = [1].mine();']))
      .toEqual([[], [2322]]);
  });

  it('imports: of a file beside the notebook, of a module declared ambient', async () => {
    const cwd = tmp('imports');
    writeFileSync(path.join(cwd, 'answer.ts'), 'export const answer = "a";\n');
    expect(await run(['import { answer } from "./answer.ts";', 'const n: number = answer;'], cwd)).toEqual([[], [2322]]);
    expect(await run(['import { sep } from "node:path";', 'const n: number = sep;'])).toEqual([[], [2322]]);
  });

  it('exports, augmentations and references, as a new program has them', async () => {
    await compareOn([
      'export const e1 = 1;\nexport function e2(): string { return "a"; }', 'const n: string = e1;\nconst m: number = e2();',
      'declare global { var gg: string }', 'const k: number = gg;',
      'declare module "node:path" { const extra: number }', 'const e: string = (await import("node:path")).extra;',
      '/// <reference types="node" />\nconst r: string = process.pid;',
    ], 'augmentations');
  });

  it('directives filter the cell\'s own diagnostics', async () => {
    expect(await run(['const a = 1;', '// @ts-expect-error\nconst b: string = a;', '// @ts-expect-error\nconst c: number = a;']))
      .toEqual([[], [], [2578]]);
  });
});

describe('cells run without a check (`%typecheck off`)', () => {
  it('are bound only when a cell is next checked, with a new program\'s answers and on the chain', async () => {
    const { binds, onChain, problems } = await compareRuns([
      ['const a = tpu.ones([2, 3]);', 'checked'], ['const b = a.sum();', 'unchecked'], ['function f(t: typeof b) { return `${t.item()}`; }', 'unchecked'],
      ['const n: number = f(b);\nconst c = a.mul(2);', 'checked'], ['let d = c.shape;', 'unchecked'], ['const e: string = d;\nconst g: number = d[0];', 'checked'],
    ], 'unchecked');
    // the first cell's rewrite made the program (no chain check); its diagnostics and every later check were chained
    expect(onChain).toEqual([true, true, true, true, true]);
    // cells 2 and 3 were bound by cell 4's first check, cell 5 by cell 6's (and each checked cell once)
    expect(binds).toEqual([1, 1, 1, 4, 4, 6]);
    expect(problems).toEqual([[], undefined, undefined, [2322], undefined, [2322]]);
  });

  it('where the chain could be stale, still have a new program answer the next checked cell', async () => {
    const cases: [string, Run][][] = [
      [['const x = 1;', 'checked'], ['function g() { return x; }', 'unchecked'], ['const x = "a";', 'unchecked'], ['const n: number = g();', 'checked']],
      [['const a = 1;', 'checked'], ['interface Array<T> { mine(): T }', 'unchecked'], ['const k: string = [1].mine();', 'checked']],
      [['const a = 1;', 'checked'], ['declare global { var gg: string }', 'unchecked'], ['const k: number = gg;', 'checked']],
      [['const a = 1;', 'checked'], ['import { sep } from "node:path";', 'unchecked'], ['const n: number = sep;', 'checked']],
    ];
    const problems = [];
    for (const [i, cells] of cases.entries()) problems.push((await compareRuns(cells, `unchecked-stale-${i}`)).problems.at(-1));
    expect(problems.slice(0, 2)).toEqual([[2322], [2322]]);
  });
});

describe('TypeScript\'s internals the chain uses', () => {
  it('are there (else every cell would take a new program, correct and slow)', () => {
    const ts = typescript() as unknown as Record<string, unknown>;
    for (const name of ['bindSourceFile', 'getSetExternalModuleIndicator', 'getEmitScriptTarget']) expect(typeof ts[name], name).toBe('function');
    const program = typescript().createProgram({ rootNames: [], options: {} });
    const checker = program.getTypeChecker() as ts.TypeChecker & Record<string, unknown>;
    expect(typeof checker.getDiagnostics).toBe('function');
    expect(typeof checker.resolveName).toBe('function');
  });
});
