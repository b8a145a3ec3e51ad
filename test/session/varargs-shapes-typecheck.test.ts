// PyTorch's shape forms type-check in a cell (the declarations a cell's language service
// reads, dist/runtime): sizes as integers or one array, a trailing options object, size(),
// dim(), tolist(). Forms PyTorch refuses stay type errors.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-varargs-')();

describe('varargs shapes under %typecheck error', () => {
  it('run: creation, view, reshape, expand, flip, tile, squeeze, size, dim, tolist', async () => {
    await driver.value('%typecheck error');
    expect(await driver.value('tpu.zeros(2, 3).view(-1).size(0)')).toBe('6');
    const cell = [
      'const x = tpu.randn(4, 5, { dtype: "bfloat16" });',
      'const y = tpu.ones([2, 3], { dtype: "int32" }).reshape(3, -1).expand(2, -1, -1);',
      'const e = tpu.empty(2, 1, { requiresGrad: true }).flip(0, 1).tile(2, 1).squeeze(1);',
      'const dims: number = x.dim() + x.ndimension() + x.size(-1) + x.size({ dim: 0 }) - 4;',
      'const shape: number[] = y.size();',
      'const list = tpu.rand(2).mul(0).tolist();',
      '[shape, dims, e.size(), list, tpu.zeros([3]).view([3, 1]).size()]',
    ].join('\n');
    expect(await driver.value(cell)).toBe('[ [ 2, 3, 2 ], 9, [ 4 ], [ 0, 0 ], [ 3, 1 ] ]');
  });

  it('a list mixed with integers, and tpu.reshape and tpu.permute with integers (torch.reshape and torch.permute take one list), are type errors', async () => {
    const mixed = await driver.run('tpu.zeros(2, 3).view([2], 3)');
    expect(mixed.outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining("Argument of type '[number[], 3]' is not assignable to parameter of type 'IntArgs'") });
    const functional = await driver.run('tpu.reshape(tpu.zeros(2, 3), 3, 2)');
    expect(functional.outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining('Expected 2 arguments, but got 3.') });
    const permuted = await driver.run('tpu.permute(tpu.zeros(2, 3), 1, 0)');
    expect(permuted.outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining('Expected 2 arguments, but got 3.') });
  });
});
