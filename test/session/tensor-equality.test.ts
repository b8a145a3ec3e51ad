// `===` of a tensor and a number is always false in JavaScript (an object is never a number),
// where PyTorch's `t == 3` compares the values: a type-checked cell that writes it is told what
// to use. `==` and `!=` with a tensor operand are element-wise, as PyTorch's (`s == 3` is
// `s.eq(3)`). Dispatched cells leave `===` as written (a call there would move every
// comparison's column in a trace). Identity stays JavaScript's: `===` of a tensor and another,
// a tensor against null or undefined (`x == null` too).
import { describe, expect, it } from 'vitest';
import { builtSessions, REWRITE_MODES } from './built-sessions.js';

const fresh = builtSessions('tpu-equality-');

const STRICT = /^JavaScript has no operator overloading: === of a tensor and a number is always false: use x\.eq\(y\) \/ x\.ne\(y\) for element-wise comparison, or x\.item\(\) === y for its one value/;

describe.each(REWRITE_MODES)('equality with tensors: %s', (_, magic) => {
  const driver = fresh();

  it('=== of a tensor and a number is an error naming eq and item where the cell is typed; == is element-wise', async () => {
    await driver.value(`${magic}\nconst s = tpu.tensor([1, 2]).sum();`);
    const strict = magic.includes('error') ? ['s === 3', '3 !== s', 's === true'] : [];
    for (const code of strict) {
      const { outcome } = await driver.run(code);
      expect({ code, error: outcome.status === 'error' ? outcome.evalue : 'ran' }).toEqual({ code, error: expect.stringMatching(STRICT) });
    }
    // s is 3: PyTorch's s == 3 is tensor(True)
    for (const [code, value] of [['(s == 3).item()', 'true'], ['(3 != s).item()', 'false'], ['(s == tpu.tensor(4)).item()', 'false']]) {
      expect({ code, value: await driver.value(code!) }).toEqual({ code, value });
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
