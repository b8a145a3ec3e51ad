// Errors name the cell and the line:column the user typed (source maps), and
// syntax errors point at their place.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

async function failure(code: string) {
  const { outcome } = await driver.run(code);
  if (outcome.status !== 'error') throw new Error(`expected an error from ${code}`);
  return outcome;
}

describe('cell errors', () => {
  it('maps runtime stack frames to cell lines and columns across cells', async () => {
    // Type annotations and an interface shift the transpiled JavaScript: frames must still match the TypeScript.
    await driver.value([
      'interface Options { scale: number }',
      'function inner(o: Options): number {',
      '  const k: number = o.scale;',
      '  return (k as any).missing.deep;',
      '}',
      'function outer(o: Options) { return inner(o) + 1; }',
    ].join('\n'));
    const count = driver.count + 1;
    const error = await failure('const o: Options = { scale: 2 };\n\n   outer(o);');
    expect(error.ename).toBe('TypeError');
    expect(error.evalue).toBe("Cannot read properties of undefined (reading 'deep')");
    expect(error.traceback[0]).toBe("TypeError: Cannot read properties of undefined (reading 'deep')");
    expect(error.traceback[1]).toBe(`    at inner (cell-${count - 1}.ts:4:29)`);
    expect(error.traceback[2]).toBe(`    at outer (cell-${count - 1}.ts:6:37)`);
    expect(error.traceback[3]).toBe(`    at cell-${count}.ts:3:4`);
    expect(error.traceback.length).toBe(8); // header, 3 frames, blank, code frame (3 lines)
    expect(error.traceback.slice(-3)).toEqual([`cell-${count - 1}.ts:4:29`, '4 |   return (k as any).missing.deep;', '  |                             ^']);
  });

  it('maps frames after an await, and inside callbacks', async () => {
    const count = driver.count + 1;
    const error = await failure('await null;\n[1, 2].map((v) => {\n  if (v === 2) throw new Error("two");\n});');
    expect(error.traceback[0]).toBe('Error: two');
    expect(error.traceback[1]).toMatch(new RegExp(`^    at cell-${count}\\.ts:3:22$`));
  });

  it('reports syntax errors with line and column and runs nothing', async () => {
    await driver.value('let untouched = 1;');
    const count = driver.count + 1;
    const error = await failure('untouched = 2;\nconst ok = 1;\nconst broken = (1 + ;');
    expect(error.ename).toBe('SyntaxError');
    expect(error.evalue).toBe(`Expression expected. (cell-${count}.ts:3:21)`);
    expect(error.traceback).toEqual(['SyntaxError: Expression expected.', `cell-${count}.ts:3:21`, '3 | const broken = (1 + ;', '  |                     ^']);
    expect(await driver.value('untouched')).toBe('1');
  });

  it('reports a syntax error once and alone, also with the language service loaded, in every %typecheck mode', async () => {
    await driver.session.complete('untouched.', 10); // loads the language service: type checks now run on every cell
    for (const mode of ['warn', 'error']) {
      await driver.value(`%typecheck ${mode}`);
      const { outcome, publisher } = await driver.run('const x = 1 +;\nconst y: number = "not checked";');
      expect(outcome).toMatchObject({ status: 'error', ename: 'SyntaxError', evalue: `Expression expected. (cell-${driver.count}.ts:1:14)` });
      if (outcome.status === 'error') expect(outcome.traceback.filter((line) => /Error/.test(line))).toEqual(['SyntaxError: Expression expected.']);
      expect(publisher.outputs).toEqual([]); // no TS1109 warning on stderr
    }
    await driver.value('%typecheck warn');
  });

  it("names matmul for PyTorch's a @ b, not for an @ in a string or a decorator", async () => {
    const hint = 'JavaScript has no @ operator: a.matmul(b) multiplies matrices.';
    for (const [code, message] of [
      ['const w = [[1]];\nw @ w', `Unexpected keyword or identifier. ${hint}`],
      ['const y = (w @ w) + 1;', `')' expected. ${hint}`],
      ["const mail = 'a@b.c' +;", 'Expression expected.'],
      ['@sealed class A {}\nconst z = 1 +;', 'Expression expected.'],
    ] as const) {
      const error = await failure(code);
      expect({ code, first: error.traceback[0] }).toEqual({ code, first: `SyntaxError: ${message}` });
    }
  });

  it('reports thrown non-errors', async () => {
    const error = await failure('throw { code: 7 }');
    expect(error.evalue).toBe('Uncaught { code: 7 }');
  });

  it('reports errors of timer callbacks on stderr without failing later cells', async () => {
    const { publisher } = await driver.run('setTimeout(() => { throw new Error("late") }, 1);\nawait new Promise((r) => setTimeout(r, 20));');
    expect(publisher.text('stderr')).toMatch(/^Error: late\n    at Timeout\._onTimeout|^Error: late\n    at cell-\d+\.ts:1:26/);
    expect(await driver.value('1 + 1')).toBe('2');
  });
});
