// PyTorch habits in cells: operators on tensors become tensor methods, from the language
// service's types where the cell is type-checked, dispatched at run time under `%typecheck off`
// and before the service is built; both give the same values and errors. What has no method
// is an error naming the method to use.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionFactory } from '../../kernel/language-session.js';
import { SessionDriver } from './recording-publisher.js';

const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const HINT = 'JavaScript has no operator overloading';

describe('a tensor the service types as any', () => {
  const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-operators-')), built.createSession);
  afterAll(() => driver.shutdown());

  it('is dispatched before the service is built, and after: the types cannot tell it is a tensor', async () => {
    await driver.value('const x = tpu.tensor([1, 2, 3], { dtype: "float32" });');
    expect(await driver.value('((x as any) + 1).array()')).toBe('[ 2, 3, 4 ]');
    await driver.session.complete('x.', 2); // builds the language service
    expect(await driver.value('((x as any) + 1).array()')).toBe('[ 2, 3, 4 ]');
    expect(await driver.value('`${x}`')).toContain('tensor([1., 2., 3.]');
  });

  it('names a dispatched cell defined keep their types for the cells checked after it', async () => {
    const fresh = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-operators-')), built.createSession);
    try {
      await fresh.value('const x = tpu.tensor([1, 2]);\nconst y = x * 2;\nconst n = 3 * 4;\nconst s = "a" + n;\nconst e = [n][0];\nconst t = x[0];');
      await fresh.session.complete('x.', 2); // builds the language service: the first cell was dispatched
      const clean = await fresh.run('const m: number = n + e;\nconst z: string = s;\n[y.sum().item(), t.item(), m]');
      expect(clean.publisher.text('stderr')).toBe('');
      const wrong = await fresh.run('const q: string = y;\nconst r: string = n;');
      expect(wrong.publisher.text('stderr')).toMatch(/TS2322: Type 'Tensor' is not assignable to type 'string'[\s\S]*TS2322: Type 'number' is not assignable to type 'string'/);
    } finally {
      await fresh.shutdown();
    }
  });
});

/** `typed`: the service's types rewrite the cell; `dispatched`: %typecheck off, the cell calls __tpuOps. */
for (const rewrite of ['typed', 'dispatched'] as const) {
describe(`tensor operators in cells (${rewrite})`, () => {
  const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-operators-')), built.createSession);
  afterAll(async () => {
    await driver.value('await tpu.reset()');
    await driver.shutdown();
  });

  it('rewrite set-up', async () => {
    await driver.value('const x = tpu.tensor([1, 2, 3], { dtype: "float32" });');
    await driver.session.complete('x.', 2); // builds the language service
    if (rewrite === 'dispatched') await driver.value('%typecheck off');
  });

  it('rewrites arithmetic, comparisons, unary minus, compound assignment and subscripts', async () => {
    const cases: [string, string][] = [
      ['(x + 1).array()', '[ 2, 3, 4 ]'],
      ['(x * 2 - 1).array()', '[ 1, 3, 5 ]'],
      ['(1 - x).array()', '[ 0, -1, -2 ]'],
      ['(2 * x).array()', '[ 2, 4, 6 ]'],
      ['(x ** 2 / 2).array()', '[ 0.5, 2, 4.5 ]'],
      ['(x > 1).array()', '[ false, true, true ]'],
      ['(2 >= x).array()', '[ true, true, false ]'],
      // a comparison's result is a BoolTensor: a tensor to the rewrite too, as (x > 1) * 2 in PyTorch
      ['const pos = x.gt(1);\n(pos * 2).array()', '[ 0, 2, 2 ]'],
      ['pos[0].item()', 'false'],
      ['(-x).array()', '[ -1, -2, -3 ]'],
      ['const m = tpu.tensor([[1, 2], [3, 4]]);\nm[1][0].item()', '3'],
      ['m[0, ":"].array()', '[ 1, 2 ]'],
      ['let y = tpu.tensor([1, 2]);\ny += 1;\ny *= x.sum().item();\ny.array()', '[ 12, 18 ]'],
      ['const plain = [1, 2, 3];\nplain[1] + 2 * plain[2] - -1', '9'],
      ['const twice = x * 2;\nconst neg = -x;\n(twice * 3 + neg).array()', '[ 5, 10, 15 ]'], // names of rewritten values, in the same cell
    ];
    for (const [code, expected] of cases) expect(await driver.value(code), code).toBe(expected);
  });

  it('x[k] = v writes into the view, as PyTorch\'s: a number fills, a tensor is copied in (broadcast)', async () => {
    // PyTorch: a = torch.zeros(2, 3); a[0] = 5; a[1, 1:] = torch.tensor([7., 8.]); a[:, 0] = torch.tensor(-1.); a[1][2] = 9
    await driver.value('const a = tpu.zeros([2, 3]);\na[0] = 5;\na[1, "1:"] = tpu.tensor([7, 8]);\na[":", 0] = tpu.tensor(-1);\na[1][2] = 9;');
    expect(await driver.value('a.array()')).toBe('[ [ -1, 5, 5 ], [ -1, 7, 9 ] ]');
    expect(await driver.value('const v = (a[0, 0] = 3); v')).toBe('3'); // the assignment's value is v
    expect(await driver.value('a.at(0, 0).item()')).toBe('3');
    // PyTorch: a[a > 4] = 0 (a bool mask of a's shape); a[torch.tensor([False, True])] = 2 (over the leading dim)
    await driver.value('a[a > 4] = 0;\na[tpu.tensor([false, true])] = 2;');
    expect(await driver.value('a.array()')).toBe('[ [ 3, 0, 0 ], [ 2, 2, 2 ] ]');
    // Python's index_put_, a value for each selected element: 4 are (masked-write.test.ts has the values)
    const values = await driver.run('a[a > 0] = tpu.tensor([1, 2]);');
    expect(values.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining("x[mask] = v: v has 2 values for the mask's 4 selected elements") });
  });

  it("x[idx] = v and x[idx] += v through index tensors and lists are PyTorch's index_put_", async () => {
    // PyTorch: s = torch.tensor([[1., 2], [3, 4]]); s[[0, 1]] = s[[1, 0]] swaps the rows (the right side is read first);
    // s[torch.tensor([0, 0])] += 1 adds 1 once (s[idx] = s[idx] + 1); s[:, torch.tensor([-1])] = 9
    await driver.value('const s = tpu.tensor([[1, 2], [3, 4]]);\ns[[0, 1]] = s[[1, 0]];\nconst first = tpu.tensor([0, 0], { dtype: "int64" });\ns[first] += 1;\ns[":", tpu.tensor([-1], { dtype: "int32" })] = 9;');
    expect(await driver.value('s.array()')).toBe('[ [ 4, 9 ], [ 1, 9 ] ]');
    expect(await driver.value('const w = (s[first] = 0); w')).toBe('0'); // the assignment's value is v
    const wrong = await driver.run('s[[0]] = tpu.tensor([1, 2, 3]);');
    expect(wrong.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining('indexPut_: values of shape [3] cannot be broadcast to the indexed shape [1, 2]') });
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

  it('& | ^ << >> ~ are the bitwise ops, as Python\'s on torch tensors', async () => {
    // Python, on torch tensors: 12 & 10 == 8, -16 & 10 == 0, 3 | -16 == -13, 12 << 2 == 48, -16 >> 2 == -4
    await driver.value('const bm = tpu.tensor([true, false, true]);\nconst bn = tpu.tensor([true, true, false]);\nconst bk = tpu.tensor(new Int32Array([12, -16]));');
    const cases: [string, string][] = [
      ['(bm & bn).array()', '[ true, false, false ]'],
      ['(bm | bn).array()', '[ true, true, true ]'],
      ['(bm ^ bn).array()', '[ false, true, true ]'],
      ['(bk & 10).array()', '[ 8, 0 ]'],
      ['(3 | bk).array()', '[ 15, -13 ]'],
      ['(bk << 2).array()', '[ 48, -64 ]'],
      ['(bk >> 2).array()', '[ 3, -4 ]'],
      ['(~bm).array()', '[ false, true, false ]'],
      ['(~bk).array()', '[ -13, 15 ]'],
      ['let c = bm.clone();\nc &= bn;\nc.array()', '[ true, false, false ]'],
      ['let e = bk.clone();\ne <<= 1;\ne |= 1;\ne.array()', '[ 25, -31 ]'],
    ];
    for (const [code, expected] of cases) expect(await driver.value(code), code).toBe(expected);
  });

  it("a number on the left of / % ** << >>, and == / != on tensors, are Python's on torch tensors", async () => {
    // Python: 1 / [1., 2, 4] == [1, 0.5, 0.25]; 3 / int32 [1, 2, 4] is float; 7 % [3., -4, 5] == [1, -1, 2] (the divisor's sign);
    // 2 ** [1., 2, 3] == [2, 4, 8]; 1 << [1, 2] == [2, 4]; 16 >> [1, 2] == [8, 4]
    await driver.value('const rf = tpu.tensor([1, 2, 4]);\nconst ri = tpu.tensor(new Int32Array([1, 2, 4]));');
    const cases: [string, string][] = [
      ['(1 / rf).array()', '[ 1, 0.5, 0.25 ]'],
      ['const q = 3 / ri;\n[q.dtype, await q.array()]', "[ 'float32', [ 3, 1.5, 0.75 ] ]"],
      ['(7 % tpu.tensor([3, -4, 5])).array()', '[ 1, -1, 2 ]'],
      ['(2 ** tpu.tensor([1, 2, 3])).array()', '[ 2, 4, 8 ]'],
      ['(1 << ri.sub(0)).array()', '[ 2, 4, 16 ]'],
      ['(16 >> ri).array()', '[ 8, 4, 1 ]'],
      ['(1 / (1 + (-tpu.tensor([0])).exp())).array()', '[ 0.5 ]'],
      ['(rf == 2).array()', '[ false, true, false ]'],
      ['(4 != rf).array()', '[ true, true, false ]'],
      ['(rf.argmax() == ri.argmax()).item()', 'true'],
      ['[rf == null, rf != undefined]', '[ false, true ]'],
    ];
    for (const [code, expected] of cases) expect(await driver.value(code), code).toBe(expected);
  });

  it('what has no method is an error at its place, naming what to do', async () => {
    const unaryPlus = await driver.run('const r = 1;\nconst z = +x;');
    const message = `${HINT}: unary + makes a number of a tensor: use x.item()`;
    if (rewrite === 'typed') {
      expect(unaryPlus.outcome).toMatchObject({ status: 'error', ename: 'TypeError', evalue: `${message} (cell-${driver.count}.ts:2:11)` });
      expect(await driver.value('typeof r')).toBe("'undefined'"); // the failing cell ran nothing
    } else {
      expect(unaryPlus.outcome).toMatchObject({ status: 'error', ename: 'TypeError', evalue: message });
      expect(unaryPlus.outcome.status === 'error' && unaryPlus.outcome.traceback.join('\n')).toContain(`cell-${driver.count}.ts:2:`);
    }
  });

  it('a function a cell defines keeps its operators when later cells call it (typed: its operand typed any is dispatched)', async () => {
    await driver.value('function scaled(v: any, k: number) { return v * k + 1; }\nconst plainCall = scaled(3, 2);');
    expect(await driver.value('[(await scaled(tpu.tensor([1, 2]), 3).array()), plainCall, scaled(4, 0.5)]')).toBe('[ [ 4, 7 ], 7, 3 ]');
    expect(await driver.value('[plainCall, scaled(4, 0.5)]')).toBe('[ 7, 3 ]');
  });

  it('in place, as Python: a view of y and another name for it see the update; plain numbers stay JavaScript', async () => {
    const cell = 'const w = tpu.tensor([1, 2, 3, 4]);\nconst alias = w;\nconst row = w.view([2, 2]);\nw[1] += 10;\nconst o = { p: w };\no.p *= 2;\nlet n = 3;\nn += 2;\nn **= 2;\n[await w.array(), await row.array(), alias === w, o.p === w, n]';
    expect(await driver.value(cell)).toBe('[ [ 2, 24, 6, 8 ], [ [ 2, 24 ], [ 6, 8 ] ], true, true, 25 ]');
  });
});
}
