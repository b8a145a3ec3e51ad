// PyTorch habits in cells: operators on tensors become tensor methods once the language
// service knows the types; what has no method is an error naming the method to use; where
// the service cannot type it (any, plain .ts files), the tensor's own coercion says the same.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionFactory } from '../../kernel/language-session.js';
import { SessionDriver } from './recording-publisher.js';

const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-operators-')), built.createSession);
afterAll(async () => {
  await driver.value('await tpu.reset()');
  await driver.shutdown();
});

const HINT = 'JavaScript has no operator overloading';

describe('tensor operators in cells', () => {
  it('a tensor the service cannot type (any) in an operator throws the hint instead of making a string', async () => {
    await driver.value('const x = tpu.tensor([1, 2, 3], { dtype: "float32" });');
    const { outcome } = await driver.run('(x as any) + 1');
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeError', evalue: expect.stringContaining(`${HINT}: use the tensor methods, e.g. x.add(1) for x + 1`) });
    expect(await driver.value('`${x}`')).toContain('tensor([1., 2., 3.]');
  });

  it('rewrites arithmetic, comparisons, unary minus, compound assignment and subscripts', async () => {
    await driver.session.complete('x.', 2); // builds the language service
    const cases: [string, string][] = [
      ['(x + 1).array()', '[ 2, 3, 4 ]'],
      ['(x * 2 - 1).array()', '[ 1, 3, 5 ]'],
      ['(1 - x).array()', '[ 0, -1, -2 ]'],
      ['(2 * x).array()', '[ 2, 4, 6 ]'],
      ['(x ** 2 / 2).array()', '[ 0.5, 2, 4.5 ]'],
      ['(x > 1).array()', '[ false, true, true ]'],
      ['(2 >= x).array()', '[ true, true, false ]'],
      ['(-x).array()', '[ -1, -2, -3 ]'],
      ['const m = tpu.tensor([[1, 2], [3, 4]]);\nm[1][0].item()', '3'],
      ['m[0, ":"].array()', '[ 1, 2 ]'],
      ['let y = tpu.tensor([1, 2]);\ny += 1;\ny *= x.sum().item();\ny.array()', '[ 12, 18 ]'],
      ['const plain = [1, 2, 3];\nplain[1] + 2 * plain[2] - -1', '9'],
    ];
    for (const [code, expected] of cases) expect(await driver.value(code), code).toBe(expected);
  });

  it('% is torch.remainder, as Python % on tensors: the sign of the divisor', async () => {
    // Python: -7 % 3 == 2, -3.5 % 3 == 2.5, -7 % -3 == -1, 7.5 % -3 == -1.5 (fmod would keep the dividend's sign)
    await driver.value('const d = tpu.tensor([-7, -3.5, 5, 7.5]);');
    const cases: [string, string][] = [
      ['(d % 3).array()', '[ 2, 2.5, 2, 1.5 ]'],
      ['(d % -3).array()', '[ -1, -0.5, -1, -1.5 ]'],
      ['(d % tpu.tensor([3, -3, -2, 2])).array()', '[ 2, -0.5, -1, 1.5 ]'],
      ['(tpu.tensor(new Int32Array([-7, 7, -7, 7])) % tpu.tensor(new Int32Array([4, 4, -4, -4]))).array()', '[ 1, 3, -3, -1 ]'],
      ['let s = d;\ns %= 2;\ns.array()', '[ 1, 0.5, 1, 1.5 ]'],
    ];
    for (const [code, expected] of cases) expect(await driver.value(code), code).toBe(expected);
  });

  it('what has no method is an error at its place, naming what to do', async () => {
    const mod = await driver.run('const r = 1;\nconst z = 2 % x;');
    expect(mod.outcome).toMatchObject({ status: 'error', ename: 'TypeError', evalue: `${HINT}: % with a number on the left: use a tensor on the left, e.g. tpu.full(x.shape, 2).remainder(x) (cell-${driver.count}.ts:2:11)` });
    const assign = await driver.run('m[0] = 1;');
    expect(assign.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining(`${HINT}: tensors are not assigned by index`) });
    const unaryPlus = await driver.run('+x');
    expect(unaryPlus.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining('unary + makes a number of a tensor: use x.item()') });
    expect(await driver.value('typeof r')).toBe("'undefined'"); // the failing cells ran nothing
  });
});

describe('which cells need types for the rewrite', () => {
  it('finds every operator the rewrite handles, nested anywhere, and nothing in cells without one', async () => {
    const ts = (await import('typescript')).default;
    const { hasOperatorSyntax } = await import(path.resolve('dist/kernel/session/language-service/operator-rewrite.js')) as typeof import('../../kernel/session/language-service/operator-rewrite.js');
    const needing = ['a + 1', 'f(() => { return a ** 2; })', 'y -= 1', 'y **= 2', 'a[0]', 'a[0] = v', '-a', '+a', 'a == b', 'a != b', 'a % 3', 'a >= b', 'const o = { k: [p < q] };'];
    const plain = ['const v = f(x);', 'console.log("a + b")', 'x.add(1).mul(y)', 'a === b', 'a && !b', 'o?.[0]', 'y = 2', '// a + b', 'class C { m(): void {} }'];
    expect(needing.filter((cell) => !hasOperatorSyntax(cell, ts))).toEqual([]);
    expect(plain.filter((cell) => hasOperatorSyntax(cell, ts))).toEqual([]);
  });

  it('with %typecheck off, rewrites operators on tensors and leaves cells without operators as they are', async () => {
    await driver.session.complete('x.', 2);
    await driver.value('%typecheck off');
    try {
      expect(await driver.value('const t = tpu.tensor([1, 2], { dtype: "float32" });\nawait (t * 3).data()')).toBe('Float32Array(2) [ 3, 6 ]');
      expect(await driver.value('const s: string = 5;\nString(s).length')).toBe('1');
    } finally {
      await driver.value('%typecheck warn');
    }
  });
});
