// The headless notebook runner against a scripted session: how outputs are
// recorded (nbclient's rules), how a failing cell stops the run, and that the
// written file is what Python's nbformat writes for the same notebook.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExecuteContext, ExecuteOutcome, LanguageSession, SessionFactory } from '../../kernel/language-session.js';
import { runNotebook, writeNotebook, type Cell, type Notebook } from '../../kernel/notebook/index.js';

type Script = (publisher: ExecuteContext['publisher'], ctx: ExecuteContext) => ExecuteOutcome | Promise<ExecuteOutcome>;

/** A session whose cells name a script: the source of a cell is a key of `scripts`. */
function scriptedSession(scripts: Record<string, Script>, log: string[] = []): SessionFactory {
  return () => ({
    kernelInfo: {} as LanguageSession['kernelInfo'],
    async execute(code, ctx) {
      log.push(`execute ${code} #${ctx.executionCount} stdin=${ctx.allowStdin}`);
      return scripts[code](ctx.publisher, ctx);
    },
    async evaluateExpressions() { return {}; },
    async complete() { return { matches: [], cursorStart: 0, cursorEnd: 0 }; },
    async inspect() { return { found: false, data: {} }; },
    async isComplete() { return { status: 'unknown' }; },
    interrupt() {},
    async shutdown(restart) { log.push(`shutdown ${restart}`); },
  });
}

let nextId = 0;
const code = (source: string, tags?: string[]): Cell => ({
  cell_type: 'code', id: `cell-${nextId++}`, source, metadata: tags ? { tags } : {}, execution_count: 7, outputs: [{ output_type: 'stream', name: 'stdout', text: 'stale' }],
});
const markdown = (source: string): Cell => ({ cell_type: 'markdown', id: `cell-${nextId++}`, source, metadata: {} });
const notebook = (cells: Cell[]): Notebook => ({ nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'tpu-ts', display_name: 'TPU (TypeScript)', language: 'typescript' } }, cells });
const ok = (): ExecuteOutcome => ({ status: 'ok' });

describe('runNotebook', () => {
  it('records merged streams, displays updated in place across cells, results and counts', async () => {
    const log: string[] = [];
    const nb = notebook([
      markdown('# title'),
      code('a'),
      code('b'),
    ]);
    const result = await runNotebook(nb, {
      cwd: '/tmp',
      createSession: scriptedSession({
        a: (p) => {
          p.stream('stdout', 'one\n');
          p.stream('stdout', 'two\n');
          p.stream('stderr', 'warn\n');
          p.stream('stdout', 'three\n');
          p.display({ 'text/plain': 'profile 0%' }, undefined, 'prof-1');
          p.display({ 'text/plain': 'plain' });
          p.updateDisplay({ 'text/plain': 'profile 50%' }, { live: true }, 'prof-1');
          return ok();
        },
        b: (p) => {
          p.updateDisplay({ 'text/plain': 'profile 100%', 'text/html': '<b>done</b>' }, undefined, 'prof-1');
          return { status: 'ok', result: { data: { 'text/plain': '42' } } };
        },
      }, log),
    });
    expect(result).toEqual({ executedCells: 2 });
    expect(log).toEqual(['execute a #1 stdin=false', 'execute b #2 stdin=false', 'shutdown false']);
    const [, a, b] = nb.cells as [Cell, Extract<Cell, { cell_type: 'code' }>, Extract<Cell, { cell_type: 'code' }>];
    expect(a.execution_count).toBe(1);
    expect(a.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'one\ntwo\n' },
      { output_type: 'stream', name: 'stderr', text: 'warn\n' },
      { output_type: 'stream', name: 'stdout', text: 'three\n' },
      { output_type: 'display_data', data: { 'text/plain': 'profile 100%', 'text/html': '<b>done</b>' }, metadata: {} },
      { output_type: 'display_data', data: { 'text/plain': 'plain' }, metadata: {} },
    ]);
    expect(b.execution_count).toBe(2);
    expect(b.outputs).toEqual([{ output_type: 'execute_result', execution_count: 2, data: { 'text/plain': '42' }, metadata: {} }]);
  });

  it('clears at once, or at the next output with wait=true, and forgets cleared display ids', async () => {
    const nb = notebook([code('a')]);
    await runNotebook(nb, {
      cwd: '/tmp',
      createSession: scriptedSession({
        a: (p) => {
          p.stream('stdout', 'gone\n');
          p.clearOutput(false);
          p.display({ 'text/plain': 'frame 1' }, undefined, 'd');
          p.clearOutput(true);
          p.updateDisplay({ 'text/plain': 'frame 1b' }, undefined, 'd'); // not an output: no clear yet
          p.display({ 'text/plain': 'frame 2' }, undefined, 'd');
          p.updateDisplay({ 'text/plain': 'frame 2b' }, undefined, 'd');
          return ok();
        },
      }),
    });
    const cell = nb.cells[0] as Extract<Cell, { cell_type: 'code' }>;
    expect(cell.outputs).toEqual([{ output_type: 'display_data', data: { 'text/plain': 'frame 2b' }, metadata: {} }]);
  });

  it('stops at the first failing cell, records the error, and clears stale outputs below', async () => {
    const log: string[] = [];
    const nb = notebook([code('a'), code('boom'), code('never')]);
    const result = await runNotebook(nb, {
      cwd: '/tmp',
      createSession: scriptedSession({
        a: () => ok(),
        boom: (p) => {
          p.stream('stdout', 'before\n');
          return { status: 'error', ename: 'RangeError', evalue: 'bad shape', traceback: ['RangeError: bad shape', '    at cell 2'] };
        },
        never: () => { throw new Error('must not run'); },
      }, log),
    });
    expect(result.executedCells).toBe(2);
    expect(result.failure).toEqual({ cellIndex: 1, executionCount: 2, source: 'boom', ename: 'RangeError', evalue: 'bad shape', traceback: ['RangeError: bad shape', '    at cell 2'], interrupted: false });
    const [, boom, never] = nb.cells as Extract<Cell, { cell_type: 'code' }>[];
    expect(boom.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'before\n' },
      { output_type: 'error', ename: 'RangeError', evalue: 'bad shape', traceback: ['RangeError: bad shape', '    at cell 2'] },
    ]);
    expect(never).toMatchObject({ execution_count: null, outputs: [] });
    expect(log.at(-1)).toBe('shutdown false');
  });

  it('goes on past a failing cell tagged raises-exception, but not past an interrupt', async () => {
    const nb = notebook([code('fails', ['raises-exception']), code('after'), code('stop', ['raises-exception']), code('never')]);
    const result = await runNotebook(nb, {
      cwd: '/tmp',
      createSession: scriptedSession({
        fails: () => ({ status: 'error', ename: 'Error', evalue: 'expected', traceback: [] }),
        after: () => ({ status: 'ok', result: { data: { 'text/plain': 'ran' } } }),
        stop: () => ({ status: 'error', interrupted: true, ename: 'KeyboardInterrupt', evalue: 'interrupted', traceback: [] }),
        never: () => { throw new Error('must not run'); },
      }),
    });
    expect(result.failure).toMatchObject({ cellIndex: 2, executionCount: 3, interrupted: true });
    expect(result.executedCells).toBe(3);
  });

  it('rejects input() with a clear error', async () => {
    let message = '';
    await runNotebook(notebook([code('ask')]), {
      cwd: '/tmp',
      createSession: scriptedSession({
        ask: async (p) => {
          message = await p.input('name? ').then(() => 'resolved', (e: Error) => e.message);
          return ok();
        },
      }),
    });
    expect(message).toMatch(/stdin is not available/);
  });
});

describe('writeNotebook', () => {
  it('writes byte for byte what Python nbformat writes for the same notebook', async () => {
    const nb = notebook([markdown('# A\ntext'), code('a'), code('b')]);
    await runNotebook(nb, {
      cwd: '/tmp',
      createSession: scriptedSession({
        a: (p) => {
          p.stream('stdout', 'x\ny\n');
          p.display({ 'text/plain': 'l1\nl2', 'text/html': '<p>\n</p>', 'application/json': { a: [1, 2] } }, { isolated: true });
          return ok();
        },
        b: () => ({ status: 'error', ename: 'Error', evalue: 'é', traceback: ['\u001b[31mError\u001b[0m: é'] }),
      }),
    });
    const path = join(mkdtempSync(join(tmpdir(), 'nbwrite-')), 'out.ipynb');
    writeNotebook(path, nb);
    const python = [
      'import nbformat, sys',
      'nb = nbformat.read(sys.argv[1], as_version=4)',
      'nbformat.validate(nb)',
      'sys.stdout.write(nbformat.writes(nb) + "\\n")',
    ].join('\n');
    const rewritten = execFileSync('/usr/bin/python3', ['-c', python, path], { encoding: 'utf8' });
    expect(readFileSync(path, 'utf8')).toBe(rewritten);
  });
});
