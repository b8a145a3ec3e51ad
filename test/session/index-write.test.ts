// x[idx] = v and x[idx] OP= v in a cell with index tensors and lists, as PyTorch's index_put_
// (torch 2.13 gave these values for x = [[1, -2, 3], [-4, 5, -6]]; they are hand-checkable): in
// place on x, so a view of x sees it, in each eager mode and through each rewrite. `x[i] += v` is
// x[i] = x[i] + v, as Python's: a repeated index takes one update. Bad input names what it got.
import { describe, expect, it } from 'vitest';
import { builtSessions, REWRITE_MODES } from './built-sessions.js';
import { expectCellWrites } from './cell-writes.js';

const fresh = builtSessions('tpu-index-write-');

const X = 'x = tpu.tensor([[1, -2, 3], [-4, 5, -6]]);\n';
const I = 'tpu.tensor([0, 0, 2], { dtype: "int64" })';

/** A statement on a fresh x, and x's values after it. */
const CASES: [code: string, value: string][] = [
  // a row swap: the right side is read first
  ['x[[0, 1]] = x[[1, 0]];', '[[-4,5,-6],[1,-2,3]]'],
  // column 0 twice: one update (x[:, i] = x[:, i] + 1), and the last write of the two
  [`x[":", ${I}] += 1;`, '[[2,-2,4],[-3,5,-5]]'],
  [`x[":", ${I}] = tpu.tensor([7, 8, 9]);`, '[[8,-2,9],[8,5,9]]'],
  ['x[tpu.tensor([-1], { dtype: "int32" })] *= 2;', '[[1,-2,3],[-8,10,-12]]'],
  ['x[1, [0, 2]] = 0;', '[[1,-2,3],[0,5,0]]'],
  ['x[[1, 0], [2, 2]] -= tpu.tensor([10, 20]);', '[[1,-2,-17],[-4,5,-16]]'],
  // indices computed on the device
  ['x[tpu.arange(2), x.argmax(1)] = 0;', '[[1,-2,0],[-4,0,-6]]'],
  // a view of x sees the write; x a view: the write reaches its base
  ['const row = x.at(1);\nx[[1], [0]] = 9;\nx = row;', '[9,5,-6]'],
  ['const first = x.at(0);\nfirst[[0, 2]] = tpu.tensor([7, 9]);', '[[7,-2,9],[-4,5,-6]]'],
];

/** Gradients through the write (torch 2.13's for the same code): w = [1, -2, 3], y = w * 1. */
const W = 'w = tpu.tensor([1, -2, 3], { requiresGrad: true });\ny = w * 1;\n';
const GRADS: [code: string, grads: string][] = [
  ['y[[0, 2]] *= 3;', '[[3,1,3]]'],
  // y0 = w0 + w1 (the last of two writes); each written value gets its gradient, as PyTorch's
  ['y[[0, 0]] += w[[1, 1]];', '[[2,3,1]]'],
  ['v = tpu.tensor([5, 6], { requiresGrad: true });\ny[[2, 0]] = v * 2;', '[[0,1,0],[2,2]]'],
];

describe.each(REWRITE_MODES)('x[idx] written in cells: %s', (_, magic) => {
  const driver = fresh();

  it.each(['debug', 'strict', 'fused'])('in %s mode gives PyTorch\'s values, in place', async (mode) => {
    await driver.value(`${magic}\n%mode ${mode}\nlet x = tpu.tensor([1]), y = x, w = x, v = x;`);
    await expectCellWrites(driver, X, CASES, W, GRADS);
    expect(await driver.value(`${X}JSON.stringify(x[[1]] = 5)`)).toBe("'5'"); // the assignment's value is v
    const errors: [code: string, message: string][] = [
      ['x[[0, 2]] = 1;', 'setItem: the index list [0,2] must hold integers in [-2, 1] for dim 0 of size 2'],
      ['x[tpu.tensor([0, 2], { dtype: "int64" })] = 1;', 'indexPut_: indices[0] (for dim 0 of size 2): 2 at position 1 is out of range [-2, 1]'],
      ['x[tpu.tensor([0, 1], { dtype: "int64" })] = tpu.tensor([1, 2]);', 'indexPut_: values of shape [2] cannot be broadcast to the indexed shape [2, 3]'],
      ['x[[0]] = tpu.tensor([1, 2, 3], { dtype: "int32" });', "indexPut_: values must have x's dtype float32, as PyTorch's index_put requires; got int32"],
      ['x[tpu.tensor([0.5])] = 1;', 'indexPut_: indices[0] must be an int32, int64 or bool tensor; got float32'],
    ];
    for (const [code, message] of errors) {
      const wrong = await driver.run(`${X}${code}`);
      expect({ code, outcome: wrong.outcome }).toMatchObject({ code, outcome: { status: 'error', evalue: expect.stringContaining(message) } });
    }
  });
});
