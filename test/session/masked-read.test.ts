// x[mask] read in a cell, as PyTorch's: a bool mask of x's shape gives the selected elements
// (1-D, row-major), a mask over x's leading dims gives the selected rows, a mask of another
// shape is an error naming both shapes. The cell rewrites (typed and dispatched) reach the
// runtime's x.at(mask), in each eager mode. Values are hand-worked from x below.
import { describe, expect, it } from 'vitest';
import { builtSessions, REWRITE_MODES } from './built-sessions.js';

const fresh = builtSessions('tpu-masked-read-');

/** x = [[1, -2, 3], [-4, 5, -6]]. */
const CASES: [code: string, value: string][] = [
  ['x[x > 0].array()', '[ 1, 3, 5 ]'],
  ['x[x < -3].shape', '[ 2 ]'],
  ['x[tpu.tensor([false, true])].array()', '[ [ -4, 5, -6 ] ]'],
  ['x[x.sum(1) > 0].array()', '[ [ 1, -2, 3 ] ]'], // row sums 2 and -5
  ['x[x > 9].shape', '[ 0 ]'],
  ['const sel = x[x > 0] * 2;\n(sel + x[0][0]).array()', '[ 3, 7, 11 ]'],
  ['x.maskedSelect(tpu.tensor([true, false, true])).array()', '[ 1, 3, -4, -6 ]'],
  ['tpu.maskedSelect(x, x < 0).array()', '[ -2, -4, -6 ]'],
];

describe.each(REWRITE_MODES)('x[mask] in cells: %s', (_, magic) => {
  const driver = fresh();

  it.each(['debug', 'strict', 'fused'])('in %s mode gives PyTorch\'s selection', async (mode) => {
    await driver.value(`${magic}\n%mode ${mode}\nconst x = tpu.tensor([[1, -2, 3], [-4, 5, -6]]);`);
    for (const [code, value] of CASES) expect({ code, value: await driver.value(code) }).toEqual({ code, value });
    const wrong = await driver.run('x[tpu.tensor([true, false, true])]');
    expect(wrong.outcome).toMatchObject({ status: 'error', evalue: expect.stringContaining('x[mask]: the shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] at index 0') });
  });
});
