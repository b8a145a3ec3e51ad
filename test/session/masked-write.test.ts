// x[mask] OP= v and x[mask] = values in a cell, as PyTorch's (torch 2.13 gave these values for
// x = [[1, -2, 3], [-4, 5, -6]]; they are hand-checkable): in place on x, so a view of x sees
// it, in each eager mode and through both rewrites. Wrong value counts name both counts.
import { describe, expect, it } from 'vitest';
import { builtSessions, REWRITE_MODES } from './built-sessions.js';
import { expectCellWrites } from './cell-writes.js';

const fresh = builtSessions('tpu-masked-write-');

const X = 'x = tpu.tensor([[1, -2, 3], [-4, 5, -6]]);\n';
const ROWS = 'tpu.tensor([true, false])';

/** A statement on a fresh x, and x's values after it. */
const CASES: [code: string, value: string][] = [
  ['x[x > 0] += 10;', '[[11,-2,13],[-4,15,-6]]'],
  ['x[x > 0] /= 2;', '[[0.5,-2,1.5],[-4,2.5,-6]]'],
  ['x[x > 0] **= 2;', '[[1,-2,9],[-4,25,-6]]'],
  ['x[x > 0] %= 2;', '[[1,-2,1],[-4,1,-6]]'],
  ['x[x < 0] -= tpu.tensor(1);', '[[1,-3,3],[-5,5,-7]]'],
  // a value per selected element (index_put_): -2, -4, -6 times 10, 20, 30
  ['x[x < 0] *= tpu.tensor([10, 20, 30]);', '[[1,-20,3],[-80,5,-180]]'],
  ['x[x > 0] = tpu.tensor([7, 8, 9]);', '[[7,-2,8],[-4,9,-6]]'],
  // a mask over the rows: v a row of x's, or a row per selected row
  [`x[${ROWS}] = tpu.tensor([7, 8, 9]);`, '[[7,8,9],[-4,5,-6]]'],
  [`x[${ROWS}] *= tpu.tensor([[7, 8, 9]]);`, '[[7,-16,27],[-4,5,-6]]'],
  ['x[tpu.tensor([true, true])] -= tpu.tensor([[1], [2]]);', '[[0,-3,2],[-6,3,-8]]'],
  ['x[tpu.tensor([false, true])] = tpu.tensor([[0, 1, 2]]);', '[[1,-2,3],[0,1,2]]'],
  ['x[x > 9] += 1;', '[[1,-2,3],[-4,5,-6]]'],
  // a view of x sees the write
  ['const row = x.at(1);\nx[x > 0] -= 1;\nx = row;', '[-4,4,-6]'],
  // x a view: the write reaches its base
  ['const first = x.at(0);\nfirst[first > 0] = tpu.tensor([7, 9]);\nfirst[first < 0] *= 4;', '[[7,-8,9],[-4,5,-6]]'],
];

/** Gradients through the write (torch 2.13's for the same code): w = [1, -2, 3], y = w * 1 written through y > 0. */
const W = 'w = tpu.tensor([1, -2, 3], { requiresGrad: true });\ny = w * 1;\n';
const GRADS: [code: string, grads: string][] = [
  ['y[y > 0] *= 3;', '[[3,1,3]]'],
  ['y[y > 0] *= w[w > 0];', '[[2,1,6]]'], // y0 = w0 * w0, y2 = w2 * w2
  ['v = tpu.tensor([5, 6], { requiresGrad: true });\ny[y > 0] = v * 2;', '[[0,1,0],[2,2]]'],
];

describe.each(REWRITE_MODES)('x[mask] written in cells: %s', (_, magic) => {
  const driver = fresh();

  it.each(['debug', 'strict', 'fused'])('in %s mode gives PyTorch\'s values, in place', async (mode) => {
    await driver.value(`${magic}\n%mode ${mode}\nlet x = tpu.tensor([1]), y = x, w = x, v = x;`);
    await expectCellWrites(driver, X, CASES, W, GRADS);
    const errors: [code: string, message: string][] = [
      ['x[x > 0] = tpu.tensor([1, 2]);', "x[mask] = v: v has 2 values for the mask's 3 selected elements (v's shape [2], the selected shape [3])"],
      ['x[tpu.tensor([true, true])] += tpu.tensor([[1, 2, 3], [1, 2, 3], [1, 2, 3]]);', "x[mask] += v: v has 3 rows for the mask's 2 selected rows (v's shape [3, 3], the selected shape [2, 3])"],
      [`x[${ROWS}] = tpu.tensor([1, 2]);`, "x[mask] = v: v's shape [2] does not broadcast to the selected shape [1, 3]"],
      ['x[x > 0] = tpu.tensor([1, 2, 3], { dtype: "int32" });', "x[mask] = v: v's dtype must be x's (PyTorch's index_put_): x is float32, v is int32"],
    ];
    for (const [code, message] of errors) {
      const wrong = await driver.run(`${X}${code}`);
      expect({ code, outcome: wrong.outcome }).toMatchObject({ code, outcome: { status: 'error', evalue: expect.stringContaining(message) } });
    }
  });
});
