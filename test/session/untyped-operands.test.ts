// Where a cell is type-checked, an operand the language service types as any or unknown (an
// untyped helper's parameter, `as any`, JSON, an untyped module) may still hold a tensor: its
// operator is dispatched at run time as under `%typecheck off`, so it gets PyTorch's answer, not
// undefined for `t[0]` or a coercion error for `t * 2`. Tensor-typed operands keep their method
// calls and errors; number-typed ones keep JavaScript's operators as written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { LazyLanguageService } from '../../kernel/session/language-service/lazy-language-service.js';
import { dispatchOperators } from '../../kernel/session/operators/dispatch-rewrite.js';
import { builtSessions } from './built-sessions.js';

const HINT = 'JavaScript has no operator overloading';

describe('the typed rewrite of operators on untyped operands', () => {
  const service = new LazyLanguageService(mkdtempSync(path.join(tmpdir(), 'untyped-rewrite-')), () => false);
  afterAll(() => service.dispose());
  service.recordCell('declare const a: any, b: any, o: any, t: any, k: any;\nlet acc: any = 0;\nconst u: unknown = 1;\nconst x = tpu.ones([2]);');
  const typed = (cell: string) => {
    const result = service.rewriteOperators(cell, new Map());
    if (!result || 'error' in result) throw new Error(`no rewrite of ${cell}: ${JSON.stringify(result)}`);
    return result.code;
  };

  // every operand untyped: the cell is what the dispatched rewrite makes of it, what it leaves as written included
  it.each([
    'a + 1 - b * 2 / a % 3 ** b',
    '[a < b, a <= 1, b > 2, b >= a, a == 1, b != "x", a === b]',
    '[-a, +b, -u, u * 2, u[0]]',
    't[0][1] + t[0, ":"]',
    't[k] = a;\no.p = t[1];',
    'acc += a;\nacc -= 1;\nt[0] *= 2;\no.w /= b;\no["w"] **= 2;',
    // written, called, deleted, incremented, optional, string building, literals: as written beside a dispatched one
    '[t[0], o.q] = [1, 2];\nfor (t[0] of [1]);\no[k]();\ndelete o[k];\nt[0]++;\n--t[1];\n[t?.[0], o.p?.[1], `${a}` + b, "x" + a, 1 + 2, a * 2];',
    'function scale(x, k) { return x * k + 1; }',
    'function shifted(x) { const y = x * 2; return y - 1; }\nconst q = (a as any) / 2 + 1;',
    // conditions read a tensor's truth
    'if (a > b) o.p = 1;\nconst c = t ? 1 : 2;\nconst d = !t[0] || a && b;',
  ])('as dispatched: %s', (cell) => {
    expect(typed(cell)).toBe(dispatchOperators(cell, cell, ts).code);
  });

  it('leaves number-typed operators as written beside the dispatched ones', () => {
    const cell = 'let n = 3;\nconst xs = [1, 2];\nfor (let i = 0; i < n; i++) n += xs[i % 2] * -i;\nconst m = n * 2 + a;';
    expect(typed(cell)).toBe('let n = 3;\nconst xs = [1, 2];\nfor (let i = 0; i < n; i++) n += xs[i % 2] * -i;\nconst m = __tpuOps.add(n * 2, a);');
  });

  it('leaves a cell that does not parse as written, so its syntax error stays where it was typed', () => {
    for (const cell of ['const z = a +;', 't[]', 'x[]', 'if () {}']) {
      expect(typed(cell)).toBe(cell);
      expect(dispatchOperators(cell, cell, ts).code).toBe(cell);
    }
  });
});

describe('untyped operands in a type-checked session', () => {
  const fresh = builtSessions('tpu-untyped-operands-');

  // warn: once the service is built (before, the cell is dispatched anyway); error: from the first cell
  for (const mode of ['warn', 'error'] as const) {
    describe(`%typecheck ${mode}`, () => {
      const driver = fresh();
      // %typecheck error rejects implicit any (strict): there the helpers say `any`
      const param = (name: string) => (mode === 'error' ? `${name}: any` : name);

      beforeAll(async () => {
        if (mode === 'warn') await driver.session.complete('Mat', 3); // builds the language service
        else await driver.value('%typecheck error');
      });

      it('indexes and computes on a tensor typed any, as PyTorch', async () => {
        await driver.value('const t: any = tpu.ones([2, 2]);');
        expect(await driver.value('t[0]')).toContain('tensor([1., 1.]');
        expect(await driver.value('t * 2')).toMatch(/^tensor\(\[\[2\., 2\.\],\s+\[2\., 2\.\]\]/);
        expect(await driver.value('await (1 - t[1]).array()')).toBe('[ 0, 0 ]');
        // plain values typed any keep JavaScript's operators
        expect(await driver.value('JSON.parse("[1,2]")[0]')).toBe('1');
        expect(await driver.value('let a: any = 3; a * 2')).toBe('6');
      });

      it("runs an untyped helper on tensors and on numbers", async () => {
        await driver.value(`function first(${param('x')}) { return x[0]; }\nfunction scale(${param('x')}, ${param('k')}) { return x * k + 1; }`);
        expect(await driver.value('first(tpu.ones([3, 2]))')).toContain('tensor([1., 1.]');
        expect(await driver.value('[await scale(tpu.tensor([1, 2]), 3).array(), scale(2, 3), first([5, 6])]')).toBe('[ [ 4, 7 ], 7, 5 ]');
        // a value computed from an untyped one, read through a variable and a function of the same cell
        const cell = `function shifted(${param('x')}) { const y = x * 2; return y - 1; }\nconst sq = (${param('x')}) => x * x;\n`
          + '[await shifted(tpu.tensor([1, 3])).array(), await (sq(tpu.tensor([2, 3])) + 1).array(), shifted(5), sq(3) + 1]';
        expect(await driver.value(cell)).toBe('[ [ 1, 5 ], [ 5, 10 ], 9, 10 ]');
      });

      it('adds in place into an accumulator typed any that holds a tensor, as Python', async () => {
        const cell = 'let acc: any = tpu.zeros([2]);\nconst start = acc;\nfor (const r of [tpu.tensor([1, 2]), tpu.tensor([3, 4])]) acc += r;\n'
          + 'const box: any = { w: tpu.ones([2]) };\nbox.w -= 1;\nbox["w"] += 5;\n[await acc.array(), acc === start, await box.w.array()]';
        expect(await driver.value(cell)).toBe('[ [ 4, 6 ], true, [ 5, 5 ] ]');
      });

      it('takes a tensor typed any on either side of a tensor typed Tensor', async () => {
        await driver.value('const num: any = tpu.tensor([2, 4]);\nconst den = tpu.tensor([1, 2]);');
        expect(await driver.value('[await (num / den).array(), await (den / num).array(), await (num - den).array()]')).toBe('[ [ 2, 2 ], [ 0.5, 0.5 ], [ 1, 2 ] ]');
        // a number typed any on the left of /: PyTorch's reflected division, found when it runs
        expect(await driver.value('((2 as any) / den).array()')).toBe('[ 2, 1 ]');
      });

      it('reads a condition on an untyped tensor as its one value, as bool(t)', async () => {
        const cell = 'const s: any = tpu.tensor([1, 2]);\nconst picks: string[] = [];\nif (s[0] > 1) picks.push("first"); else picks.push("not first");\n'
          + 'picks.push(s.sum() < 5 ? "small" : "big", !(s[1] > 1) ? "no" : "yes");\npicks';
        expect(await driver.value(cell)).toBe("[ 'not first', 'small', 'yes' ]");
      });

      it('an operand typed unknown is dispatched too', async () => {
        expect(await driver.value('const unk: unknown = tpu.ones([2]);\nconst twice = unk * 2;\ntwice.sum()')).toContain('tensor(4.');
      });

      it('gives loose equality on any what the dispatched rewrite gives', async () => {
        expect(await driver.value('const three: any = 3;\n[three == "3", three != 3]')).toBe('[ true, false ]');
        // on a tensor element-wise, as PyTorch's
        const cell = 'JSON.stringify([(t == tpu.tensor([1, 0])).array(), (t != 1).array()])';
        const typed = await driver.value(cell);
        await driver.value('%typecheck off');
        const dispatched = await driver.value(cell);
        await driver.value(`%typecheck ${mode}`);
        const expected = `'${JSON.stringify([[[true, false], [true, false]], [[false, false], [false, false]]])}'`;
        expect([typed, dispatched]).toEqual([expected, expected]);
      });

      if (mode === 'warn') {
        it('warns of an implicit any and still gives the answer', async () => {
          const run = await driver.run('function last(x) { return x[x.shape[0] - 1]; }\nlast(tpu.tensor([[1, 2], [3, 4]]))');
          expect(run.publisher.text('stderr')).toMatch(/warning TS7006: Parameter 'x' implicitly has an 'any' type/);
          expect(run.outcome).toMatchObject({ status: 'ok', result: { data: { 'text/plain': expect.stringContaining('tensor([3., 4.]') } } });
        });
      } else {
        it('fails the cell on an implicit any (its type check); an explicit any gives the answer', async () => {
          const run = await driver.run('function last(x) { return x[x.shape[0] - 1]; }');
          expect(run.outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining("Parameter 'x' implicitly has an 'any' type") });
          expect(await driver.value('function last(x: any) { return x[x.shape[0] - 1]; }\nlast(tpu.tensor([[1, 2], [3, 4]]))')).toContain('tensor([3., 4.]');
        });
      }
    });
  }

  it('recognizes tensors in a function a checked cell defined before any tensor existed', async () => {
    const driver = fresh();
    await driver.value('%typecheck error');
    await driver.value('function head(x: any) { return x[0]; }');
    expect(await driver.value('head(tpu.tensor([[1, 2], [3, 4]]))')).toContain('tensor([1., 2.]');
  });
});
