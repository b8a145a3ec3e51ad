// A tensor where JavaScript reads a truth (if, while, do, for, ?:, !, && and ||) stands for its
// one value, as Python's bool(t) in PyTorch: `if (loss < best)` takes the branch the numbers say.
// An object is always true in JavaScript, so these cells took their true branch before. Expected
// values are PyTorch's, checked with torch 2.13: bool(tensor(nan)) is True, bool(tensor(-0.)) is
// False, a tensor of 3 or of no values raises "Boolean value of Tensor with more than one value /
// with no values is ambiguous". `(s > 100) && 'yes'` gives false where Python's `and` gives the
// tensor itself (tensor(False)): no object is false in JavaScript.
import { describe, expect, it } from 'vitest';
import { builtSessions, REWRITE_MODES } from './built-sessions.js';

const fresh = builtSessions('tpu-conditions-');

/** s is 3. */
const CASES: [code: string, value: string][] = [
  ['s > 100 ? "big" : "small"', "'small'"],
  ['let n = 0; if (s > 2) n = 1; else n = 2; n', '1'],
  ['let k = 0; while (s < 0 && k < 5) k++; k', '0'],
  ['let d = 0; do { d++; } while (s > 100); d', '1'],
  ['let f = 0; for (let i = 0; s > i; i++) f++; f', '3'],
  ['!(s > 100)', 'true'],
  ['(s > 100) || "fallback"', "'fallback'"],
  ['(s > 2) && "yes"', "'yes'"],
  ['(s > 100) && "yes"', 'false'],
  ['tpu.tensor(NaN) ? "t" : "f"', "'t'"],
  ['tpu.tensor(-0) ? "t" : "f"', "'f'"],
  ['let best = tpu.tensor(10); let better = 0;\nfor (const v of [5, 7, 3]) { const l = tpu.tensor(v); if (l < best) { best = l; better++; } }\n[better, best.item()]', '[ 2, 3 ]'],
  ['const g = [tpu.ones([1])].find(() => false); g ? 1 : 2', '2'], // Tensor | undefined: a test that it is there
  ['const h = [tpu.zeros([1])].find(() => true); h ? 1 : 2', '2'], // there, and its value is 0
  ['const o = {}; (o ? 1 : 2) + (0 || 5)', '6'],
];

describe.each(REWRITE_MODES)('tensors in conditions: %s', (_, magic) => {
  const driver = fresh();

  it('take the branch of their value, as PyTorch', async () => {
    await driver.value(`${magic}\nconst s = tpu.tensor([1, 2]).sum();`);
    for (const [code, value] of CASES) expect({ code, value: await driver.value(code) }).toEqual({ code, value });
  });

  it('of more than one value or none, is an error naming what to use', async () => {
    for (const [code, count] of [['if (tpu.ones([3])) 1;', '3 values'], ['tpu.zeros([0]) ? 1 : 2', 'no values']]) {
      const { outcome } = await driver.run(code!);
      expect(outcome.status === 'error' && outcome.evalue).toMatch(new RegExp(`stands for its one value, as PyTorch's bool\\(t\\); this one has ${count}.*t\\.any\\(\\) or t\\.all\\(\\)`));
    }
  });
});
