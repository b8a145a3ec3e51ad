// The transpile thread (built package: a worker runs built JavaScript): its compiles
// are the main thread's, and a built session that uses it still reports type
// warnings and syntax errors, and runs the operator-rewritten code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionFactory } from '../../kernel/language-session.js';
import type * as CompileCell from '../../kernel/session/cells/compile-cell.js';
import type * as Thread from '../../kernel/session/cells/transpile-thread.js';
import { SessionDriver } from './recording-publisher.js';

const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const { compileCell, transpileCell } = (await import(path.resolve('dist/kernel/session/cells/compile-cell.js'))) as typeof CompileCell;
const { TranspileThread } = (await import(path.resolve('dist/kernel/session/cells/transpile-thread.js'))) as typeof Thread;

describe('transpile thread', () => {
  it('answers with the compile the main thread makes, syntax errors included, and fills the compile cache', async () => {
    const thread = TranspileThread.start()!;
    try {
      const sources = ['const fromThread: number = 40 + 2;\nfromThread', '\n\nlet broken = (1;'];
      thread.prefetch(sources);
      let answers = 0;
      for (let waited = 0; answers < sources.length && waited < 60_000; waited += 20) {
        answers += thread.takeAnswers();
        await sleep(20);
      }
      expect(answers).toBe(2);
      for (const source of sources) expect(compileCell(source)).toEqual(transpileCell(source));
      expect(compileCell(sources[1]!)).toEqual({ syntaxErrors: [{ message: "')' expected.", line: 3, column: 16 }] });
    } finally {
      thread.stop();
    }
  });
});

describe('a built session with the transpile thread', () => {
  const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'transpile-thread-')), built.createSession);
  afterAll(() => driver.shutdown());

  it('warns, reports syntax errors and runs rewritten operators as before, over many cells', async () => {
    await driver.session.complete('Ma', 2); // the language service is built: cells are rewritten and checked
    for (let i = 0; i < 30; i++) {
      const { outcome, publisher } = await driver.run(`const n${i}: string = ${i} * 2;\nn${i}`);
      expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': String(i * 2) } } });
      expect(publisher.text('stderr')).toBe(`cell-${driver.count}.ts:1:7 - warning TS2322: Type 'number' is not assignable to type 'string'.\n`);
    }
    const syntax = await driver.run('const ok = 1;\nconst bad = (2;');
    expect(syntax.outcome).toMatchObject({ status: 'error', ename: 'SyntaxError' });
    // x * 2 + 1 on a tensor: rewritten to x.mul(2).add(1) before it is compiled.
    expect(await driver.value('const x = tpu.tensor([1, 2, 3]);\nawait (x * 2 + 1).data()')).toBe('Float32Array(3) [ 3, 5, 7 ]');
  });
});
