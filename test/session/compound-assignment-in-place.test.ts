// `y += v` on a tensor in a cell is in place, as Python's iadd on a torch tensor: views of y
// and other names for it see the new value (it used to rebind y to a new tensor, so a row of
// a matrix, a model's weight or a manual SGD step under noGrad silently kept the old value).
// Expected values are PyTorch 2.13's for the same code, worked by hand; errors are PyTorch's.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const fresh = builtSessions('tpu-compound-');
const driver = fresh();

const json = (expr: string) => `JSON.stringify(await (${expr}).array())`;

describe.each(['debug', 'strict', 'fused'])('compound assignment on tensors (%s)', (mode) => {
  it('writes through views and aliases, as PyTorch', async () => {
    await driver.session.complete('tpu.', 4); // builds the language service: cells are rewritten
    await driver.value(`%mode ${mode}`);
    // base = torch.zeros(2, 3); row = base[0] (here base.at(0): base[0] types as any, not rewritten); row += 1; row *= 3; base[1] -= 2
    await driver.value('const base = tpu.zeros([2, 3]);\nlet row = base.at(0);\nrow += 1;\nrow *= 3;\nbase[1] -= 2;');
    expect(await driver.value(json('base'))).toBe("'[[3,3,3],[-2,-2,-2]]'");
    // p = params[0]; p -= 0.5; p /= 2 changes w itself
    await driver.value('const w = tpu.tensor([1, 2]);\nconst params = [w];\nlet p = params[0];\np -= 0.5;\np /= 2;');
    expect(await driver.value(`${json('w')} + String(p === w)`)).toBe("'[0.25,0.75]true'");
    // m[1] += 10; m[0, ':2'] *= -1 (views: m changes)
    await driver.value('const m = tpu.tensor([[1, 2, 3], [4, 5, 6]]);\nm[1] += 10;\nm[0, ":2"] *= -1;');
    expect(await driver.value(json('m'))).toBe("'[[-1,-2,3],[14,15,16]]'");
    // through an index tensor and a list, as PyTorch's m[:, idx] += 1 (index_put_): idx = [0, 0, 2] adds 1 once to column 0
    await driver.value('const cols = tpu.tensor([0, 0, 2], { dtype: "int64" });\nm[":", cols] += 1;\nm[[1]] *= 2;');
    expect(await driver.value(json('m'))).toBe("'[[0,-2,4],[30,30,34]]'");
    await driver.value('m[[1]] /= 2;\nm[":", cols] -= 1;'); // back to the values the next test reads
    // integers keep their dtype: 7 % 4 = 3, then 3 ** 2 = 9; -7 % 4 = 1, then 1
    await driver.value('let k = tpu.tensor([7, -7], { dtype: "int64" });\nk %= 4;\nk **= 2;');
    expect(await driver.value(`${json('k')} + k.dtype`)).toBe("'[9,1]int64'");
  });

  it('a manual SGD step under noGrad updates the leaf in place', async () => {
    // w = torch.tensor([1., 2.], requires_grad=True); 3 steps of w -= 0.1 * grad of sum(w²):
    // each step multiplies w by 0.8 -> [0.512, 1.024], w stays a leaf that requires grad
    await driver.value('let v = tpu.tensor([1, 2], { requiresGrad: true });\n' +
      'for (let i = 0; i < 3; i++) {\n  (v * v).sum().backward();\n  tpu.noGrad(() => { v -= v.grad! * 0.1; });\n  v.grad = null;\n}');
    const got = JSON.parse(JSON.parse((await driver.value(`JSON.stringify([await v.array(), v.isLeaf, v.requiresGrad])`))!.replace(/^'|'$/g, '"'))) as [number[], boolean, boolean];
    expect(got[0][0]).toBeCloseTo(0.512, 6);
    expect(got[0][1]).toBeCloseTo(1.024, 6);
    expect(got.slice(1)).toEqual([true, true]);
  });

  it("gives PyTorch's errors (a float into an int tensor, a broadcast past the target, a leaf outside noGrad), and refuses a subscript of a copy", async () => {
    const intDiv = await driver.run('let n = tpu.tensor([4, 6], { dtype: "int32" });\nn /= 2;');
    expect(intDiv.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining("result type float32 can't be cast to the desired output type int32") });
    const grow = await driver.run('let r = tpu.zeros([2]);\nr += tpu.ones([2, 2]);');
    expect(grow.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining('shape') });
    // m[idx][0] += 1 in PyTorch writes into the copy m[idx] (m unchanged): refused before the cell runs
    const chained = await driver.run('const idx = tpu.tensor([0, 1], { dtype: "int64" });\nm[idx][0] += 1;');
    expect(chained.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining('m[idx][0] += ... writes into a copy: idx is an index that copies') });
    const viaList = await driver.run('m[[0, 1]][0] -= 1;');
    expect(viaList.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining('m[[0, 1]][0] -= ... writes into a copy: [0, 1] is an index that copies') });
    expect(await driver.value(json('m'))).toBe("'[[-1,-2,3],[14,15,16]]'");
    // an index typed any is left to run time: a number there picks a view, written in place
    await driver.value('const k: any = 1;\nm[k][0] += 100;');
    expect(await driver.value(json('m'))).toBe("'[[-1,-2,3],[114,15,16]]'");
    await driver.value('m[k][0] -= 100;');
    const leaf = await driver.run('let l = tpu.ones([2], { requiresGrad: true });\nl -= 1;');
    expect(leaf.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining('leaf Variable that requires grad is being used in an in-place operation') });
    await driver.value('%mode strict');
  });
});

// Python's `acc = 0; acc += t` rebinds acc to 0 + t, a tensor: a number accumulator (a variable,
// a property, an element) meeting a tensor becomes one, where the target is untyped (dispatched
// cells, or `any` in typed ones). Numbers and strings keep JavaScript's operators.
describe.each([['dispatched', '%typecheck off'], ['typed, any targets', '%typecheck error']])('a number accumulator meeting a tensor (%s)', (_, magic) => {
  it('becomes the tensor sum, as in PyTorch', async () => {
    const accumulating = fresh();
    await accumulating.value(`${magic}\nlet total: any = 0;\nfor (const v of [1, 2, 3]) total += tpu.tensor([v, 10 * v]);`);
    expect(await accumulating.value(json('total'))).toBe("'[6,60]'");
    await accumulating.value('const o: any = { t: 0 };\no.t -= tpu.tensor([2]);\nconst arr: any[] = [1];\narr[0] *= tpu.tensor([4]);');
    expect(await accumulating.value(`${json('o.t')} + ${json('arr[0]')}`)).toBe("'[-2][4]'");
    expect(await accumulating.value("let s: any = 'a';\ns += 'b';\nlet n: any = 1;\nn *= 3;\ns + n")).toBe("'ab3'");
  });
});
