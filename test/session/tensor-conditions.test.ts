// A tensor where JavaScript reads a truth (if, while, do, for, ?:, !, && and ||) stands for its
// one value, as Python's bool(t) in PyTorch: `if (loss < best)` takes the branch the numbers say.
// An object is always true in JavaScript, so these cells took their true branch before. Expected
// values are PyTorch's, checked with torch 2.13: bool(tensor(nan)) is True, bool(tensor(-0.)) is
// False, a tensor of 3 or of no values raises "Boolean value of Tensor with more than one value /
// with no values is ambiguous". `&&` and `||` used as values are Python's `and` and `or`:
// `(s > 100) and 'yes'` is the false tensor itself, `(s > 2) or d` the true one, and the right
// operand is evaluated only where the left's truth asks for it.
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
  ['const done = s > 100;\ndone ? "stop" : "go"', "'go'"], // typed: TypeScript types done boolean, the rewrite makes it a tensor
  ['(s > 100) || "fallback"', "'fallback'"],
  ['(s > 2) && "yes"', "'yes'"],
  ['(s > 100) && "yes"', "tensor(False, shape=[], dtype=bool, device='tpu:0')"],
  ['const no = s > 100; const yes = s > 2;\n[(no && "yes") === no, (yes || "d") === yes, ((yes && no && "z") === no), (no || yes) === yes]', '[ true, true, true, true ]'],
  ['const lt0 = s.lt(0);\n[((lt0 && 1) && 2) === lt0, ((lt0 || 1) && 2)]', '[ true, 2 ]'],
  ['[(s.lt(0) && 1) || 2, s.lt(0) && 1 || 2, (s.gt(0) && 0) || 5, s.gt(0) && "b" || "c"]', "[ 2, 2, 5, 'b' ]"], // Python's a and b or c
  ['let calls = 0; const f = () => (calls++, "b");\nconst skipped = [(s > 100) && f(), (s > 2) || f()];\nconst taken = [(s > 2) && f(), (s > 100) || f()];\n[calls, skipped.length, taken]', "[ 2, 2, [ 'b', 'b' ] ]"],
  ['const z = 0 as number, e = "" as string, a1 = "a" as string, found = (v: boolean) => (v ? { p: 1 } : null);\nconst nn = found(false), np = found(true);\n[[z && "x", e || "d", nn && nn.p], [np && np.p, NaN && 1, z || e, a1 && "b"]]', "[ [ 0, 'd', null ], [ 1, NaN, '', 'b' ] ]"],
  ['const anys: any[] = [0, "", null, { p: 2 }];\n[anys[0] && "x", anys[1] || "d", anys[2] && anys[2].p, anys[3] && anys[3].p]', "[ 0, 'd', null, 2 ]"],
  ['let k = 0\nconst g = () => 1\nlet h = g\ns > 2 && (k = 5);\n[k, h === g]', '[ 5, true ]'], // no line joined to the one before
  ['const w = tpu.ones([1], { requiresGrad: true }); w.sum().backward();\nconst gs = w.grad && w.grad.sum();\ngs.item()', '1'], // w.grad narrowed in the right operand, as TypeScript narrows a && b
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
