// item() is typed by what the cell's types know of the dtype, as PyTorch's item() gives a
// Python number or bool: a number for a Tensor, a boolean for a BoolTensor (comparisons,
// logical ops, isnan, any, all, to('bool'), tpu.tensor of booleans). A training loop's
// `total += loss.item()` and `losses.push(loss.item())` type-check under %typecheck error
// with no `as number`. Expected values are hand-computed (exact in float32).
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-item-types-')();

describe('item() under %typecheck error', () => {
  it('is a number for a Tensor: sums, pushes and arithmetic of a training loop', async () => {
    await driver.value('%typecheck error');
    const cell = [
      'let total = 0;',
      'const losses: number[] = [];',
      // means 1.5, 2.5, 3.5
      'for (const v of [1, 2, 3]) { const loss = tpu.tensor([v, v + 1]).mean(); total += loss.item(); losses.push(loss.item()); }',
      'const p = tpu.tensor([0.25, 0.25, 0.5]);',
      'const normalized = Math.abs(p.sum().item() - 1) < 1e-4;',
      'const scaled: number = p.max().item() * 4;',
      '[total, losses, normalized, scaled, typeof p.sum().item()]',
    ].join('\n');
    expect(await driver.value(cell)).toBe("[ 7.5, [ 1.5, 2.5, 3.5 ], true, 2, 'number' ]");
  });

  it('is a boolean for the results of comparisons, logical ops, any and all, bool casts and bool creation', async () => {
    const cell = [
      'const x = tpu.tensor([-1, 2, 3]);',
      'let branch = "none";',
      'if ((x > 0).any().item()) branch = "some";',
      'const flags: boolean[] = [',
      '  (x > 0).all().item(),',          // -1 is not
      '  (x >= 2).any().item(),',
      '  x.eq(2).logicalNot().all().item(),', // 2 equals 2
      '  x.isnan().any().item(),',
      '  x.isfinite().all().item(),',
      '  x.to("bool").all().item(),',     // no zero
      '  tpu.tensor([0, 1]).bool().any().item(),',
      '  tpu.tensor([true, false]).logicalAnd(tpu.tensor([true, true])).all().item(),',
      '  tpu.full([2], true).all().item(),',
      '  tpu.zeros(2, 3, { dtype: "bool" }).any().item(),',
      '];',
      'const masks: boolean[][] = [(x < 3).tolist() as boolean[], x.ne(2).array() as boolean[]];',
      'JSON.stringify([branch, flags, masks])',
    ].join('\n');
    expect(JSON.parse((await driver.value(cell))!.slice(1, -1))).toEqual([
      'some',
      [false, true, false, false, true, true, true, false, true, false],
      [[true, true, false], [true, false, true]],
    ]);
  });

  it('a bool tensor the types cannot tell (an op that keeps the dtype) is typed number: it counts as 1 and 0, as Python', async () => {
    // Python: total = 0; total += mask[0].item() + mask[1].item() * 10 -> 1 (True is 1, False is 0)
    const cell = [
      'const mask = tpu.tensor([1, -1]).gt(0);',
      'let count = 0;',
      'count += mask.at(0).item() + mask.at(1).item() * 10;',
      '[count, mask.at(0).item()]',
    ].join('\n');
    expect(await driver.value(cell)).toBe('[ 1, true ]');
  });

  it('a boolean where a number is declared is a type error', async () => {
    const { outcome } = await driver.run('const n: number = tpu.ones([2]).gt(0).all().item();');
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining("Type 'boolean' is not assignable to type 'number'") });
  });

  it('a comparison run with dispatched operators (%typecheck off) is a BoolTensor in the typed cells after it', async () => {
    await driver.value('%typecheck off\nconst positive = tpu.tensor(2) > 0;');
    expect(await driver.value('%typecheck error\nconst isPositive: boolean = positive.item();\nisPositive')).toBe('true');
  });
});
