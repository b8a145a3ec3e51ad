// `%timeit -n N -r R code`: the type check and the operator rewrite see only the code, not
// the magic's options. Before, `-n 3 -r 2` was checked as TypeScript: every such line gave
// warnings ("Cannot find name 'n'") and failed the cell under `%typecheck error`.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('%timeit options and the type check', () => {
  it('checks the code after the options only', async () => {
    await driver.value('%typecheck error');
    const { outcome, publisher } = await driver.run('%timeit -n 2 -r 1 Math.sqrt(2)');
    expect(outcome).toEqual({ status: 'ok' });
    expect(publisher.text('stdout')).toMatch(/ per loop \(mean ± std\. dev\. of 1 run, 2 loops each\)\n$/);
  });

  it('still checks that code: a type error in it fails the cell at its column', async () => {
    const { outcome } = await driver.run('%timeit -n 2 -r 1 Math.sqrt("x")');
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining('(cell-3.ts:1:29)') });
  });

  it('checks a cell body after an options-only %timeit line', async () => {
    const { outcome, publisher } = await driver.run('%timeit -n 3 -r 1\nconst q = Math.sqrt(2);');
    expect(outcome).toEqual({ status: 'ok' });
    expect(publisher.text('stdout')).toMatch(/of 1 run, 3 loops each\)\n$/);
  });
});
