// `===` of a tensor and a number is always false in JavaScript (an object is never a number),
// where PyTorch's `t == 3` compares the values: a type-checked cell that writes it is told what
// to use, as `t == 3` is in every cell (no element-wise == in JavaScript). Dispatched cells leave
// `===` as written (a call there would move every comparison's column in a trace). Identity
// stays JavaScript's: a tensor against another, against null or undefined (`x == null`).
import { describe, expect, it } from 'vitest';
import { builtSessions, REWRITE_MODES } from './built-sessions.js';

const fresh = builtSessions('tpu-equality-');

const STRICT = /^JavaScript has no operator overloading: === of a tensor and a number is always false: use x\.eq\(y\) \/ x\.ne\(y\) for element-wise comparison, or x\.item\(\) === y for its one value/;
const LOOSE = /^JavaScript has no operator overloading: use x\.eq\(y\) \/ x\.ne\(y\) for element-wise comparison/;

describe.each(REWRITE_MODES)('equality with tensors: %s', (_, magic) => {
  const driver = fresh();

  it('a tensor against a number is an error naming eq and item (=== where the cell is typed)', async () => {
    await driver.value(`${magic}\nconst s = tpu.tensor([1, 2]).sum();`);
    const strict = magic.includes('error') ? [['s === 3', STRICT], ['3 !== s', STRICT], ['s === true', STRICT]] as const : [];
    for (const [code, message] of [...strict, ['s == 3', LOOSE], ['3 != s', LOOSE]] as const) {
      const { outcome } = await driver.run(code);
      expect({ code, error: outcome.status === 'error' ? outcome.evalue : 'ran' }).toEqual({ code, error: expect.stringMatching(message) });
    }
  });

  it('identity and numbers stay JavaScript\'s', async () => {
    await driver.value('const u = tpu.ones([1]); const n = 3;');
    for (const [code, value] of [
      ['s === s', 'true'], ['s === u', 'false'], ['s !== u', 'true'], ['s === null', 'false'], ['s !== undefined', 'true'],
      ['s == null', 'false'], ['s.item() === 3', 'true'], ['n === 3', 'true'], ['n !== 3', 'false'], ['"3" === "3"', 'true'],
    ]) expect({ code, value: await driver.value(code!) }).toEqual({ code, value });
  });
});
