// The check shared by the cell-write tests (x[mask] = v, x[idx] = v): each statement on a fresh x
// gives the expected values, and each write's gradients reach w (and v, where the code makes one).
import { expect } from 'vitest';
import type { SessionDriver } from './recording-publisher.js';

/** `x`: the cell making a fresh x; `w`: the cell making w and y; cases and grads as [code, JSON of the result]. */
export async function expectCellWrites(
  driver: SessionDriver,
  x: string,
  cases: readonly [code: string, value: string][],
  w: string,
  grads: readonly [code: string, grads: string][],
): Promise<void> {
  for (const [code, value] of cases) {
    expect({ code, value: await driver.value(`${x}{\n${code}\n}\nJSON.stringify(x.array())`) }).toEqual({ code, value: `'${value}'` });
  }
  for (const [code, want] of grads) {
    const got = await driver.value(`${w}v = w;\n{\n${code}\n}\ny.sum().backward();\nJSON.stringify(w === v ? [w.grad!.array()] : [w.grad!.array(), v.grad!.array()])`);
    expect({ code, got }).toEqual({ code, got: `'${want}'` });
  }
}
