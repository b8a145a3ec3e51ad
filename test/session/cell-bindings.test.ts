// The names cells declare are script-scope bindings of the context (cells/cell-bindings.ts):
// a later cell redefines them, functions of earlier cells see the new value, and they are not
// properties of globalThis (as top-level let/const in a browser console or Node's REPL).
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('names a cell declares', () => {
  it('are redefined by later cells, and functions of earlier cells see the new value', async () => {
    await driver.value('const a = 1;\nlet b = 2;\nfunction getB() { return b; }\nclass K { v = a; }');
    await driver.value('const a = 10;\nb = 20;');
    expect(await driver.value('[a, b, getB(), new K().v]')).toBe('[ 10, 20, 20, 10 ]');
    await driver.value('const b = "redefined";');
    expect(await driver.value('getB()')).toBe("'redefined'");
  });

  it('are not properties of globalThis; a property set there is still found by name', async () => {
    await driver.value('const onlyLexical = 3;\nglobalThis.onlyGlobal = 4;');
    expect(await driver.value('[typeof globalThis.onlyLexical, onlyLexical, onlyGlobal]')).toBe("[ 'undefined', 3, 4 ]");
    await driver.value('const onlyGlobal = 5;'); // a declaration shadows the property from then on
    expect(await driver.value('[onlyGlobal, globalThis.onlyGlobal]')).toBe('[ 5, 4 ]');
  });

  it('may shadow the cell API, as a redefinition replaced it before', async () => {
    await driver.value('const display = (v: unknown) => `shown ${v}`;');
    expect(await driver.value('display(1)')).toBe("'shown 1'");
  });

  it('keep a function defined with an await before it, and a destructured name', async () => {
    await driver.value('await Promise.resolve();\nconst { p, q: [r] } = { p: 1, q: [2] };\nfunction later() { return p + r; }');
    expect(await driver.value('later()')).toBe('3');
  });
});
