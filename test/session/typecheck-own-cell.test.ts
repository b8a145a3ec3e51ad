// A leading `%typecheck mode` line sets the mode of its own cell (it used to apply only from
// the next cell), as IPython's line magics take effect at once; the mode stays for later cells.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('%typecheck on the first line of a cell', () => {
  it('error: the cell itself fails its check without running, and the mode stays', async () => {
    const { outcome } = await driver.run('%typecheck error\n(globalThis as any).ranHere = true;\nconst wrong: boolean = "no";');
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: `Type 'string' is not assignable to type 'boolean'. (cell-${driver.count}.ts:3:7)` });
    expect(await driver.value('(globalThis as any).ranHere')).toBeUndefined(); // no value at all: the line never ran
    expect((await driver.run('%typecheck')).publisher.text('stdout')).toBe('typecheck: error\n');
  });

  it('off: the cell runs unchecked although the session was in error mode', async () => {
    const { outcome, publisher } = await driver.run('%typecheck off\nconst unchecked: boolean = "no";\nunchecked');
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': "'no'" } } });
    expect(publisher.text('stderr')).toBe('');
  });

  it('warn: the cell runs and its type error is printed (the service is warm from error mode)', async () => {
    await driver.run('%typecheck error');
    const { outcome, publisher } = await driver.run('%typecheck warn\nconst warned: number = "x";\n1');
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': '1' } } });
    expect(publisher.text('stderr')).toBe(`cell-${driver.count}.ts:2:7 - warning TS2322: Type 'string' is not assignable to type 'number'.\n`);
  });

  it('a %typecheck line after code does not change the check of its cell', async () => {
    await driver.run('%typecheck off');
    const { outcome } = await driver.run('const late: boolean = "no";\n%typecheck error\nlate');
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': "'no'" } } });
    expect((await driver.run('%typecheck')).publisher.text('stdout')).toBe('typecheck: error\n');
    await driver.run('%typecheck warn');
  });
});
