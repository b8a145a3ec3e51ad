// sameAttrs (primitive.ts) says two recorded ops' attributes alike exactly when their program
// keys (attrKeyOf) are equal, comparing plain data field by field before building any key.
import { describe, expect, it } from 'vitest';
import { attrKeyOf, sameAttrs, type Primitive } from '../../runtime/primitive.js';

const plain: Primitive = { name: 'plainOp' };
/** A key that ignores `note`, as a custom attrKey may. */
const keyed: Primitive<{ dims: number[]; note?: string }> = { name: 'keyedOp', attrKey: (a) => a.dims.join(',') };

describe('sameAttrs', () => {
  it('agrees with comparing the keys', () => {
    const cases: [Primitive<any>, unknown, unknown][] = [
      [plain, { dims: [0, 1], keepdim: true }, { dims: [0, 1], keepdim: true }],
      [plain, { dims: [0, 1], keepdim: true }, { dims: [0, 2], keepdim: true }],
      [plain, { dims: [0, 1] }, { dims: [0, 1], keepdim: false }],
      [plain, { a: 1, b: 2 }, { b: 2, a: 1 }], // another key order: another JSON key
      [plain, { value: -0 }, { value: 0 }], // JSON writes -0 as 0: one key, as before
      [plain, { value: NaN }, { value: Infinity }], // both null in JSON
      [plain, { shape: [[2, 3], [4]] }, { shape: [[2, 3], [4]] }],
      [plain, { shape: [[2, 3], [4]] }, { shape: [[2, 3], [5]] }],
      [plain, {}, {}],
      [plain, { s: 'x' }, { s: 'y' }],
      [keyed, { dims: [1], note: 'a' }, { dims: [1], note: 'b' }],
      [keyed, { dims: [1] }, { dims: [2] }],
    ];
    for (const [op, a, b] of cases) {
      expect(sameAttrs(op, a, b), JSON.stringify([a, b])).toBe(attrKeyOf(op, a) === attrKeyOf(op, b));
    }
  });

  it('finds alike attributes equal and differing ones not', () => {
    expect(sameAttrs(plain, { dims: [0, 1] }, { dims: [0, 1] })).toBe(true);
    expect(sameAttrs(plain, { dims: [0, 1] }, { dims: [1, 0] })).toBe(false);
    expect(sameAttrs(keyed, { dims: [1], note: 'a' }, { dims: [1], note: 'b' })).toBe(true);
  });
});
