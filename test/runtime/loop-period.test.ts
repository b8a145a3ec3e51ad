// Cutting a region at a loop-iteration boundary (pure function over op keys).
import { describe, expect, it } from 'vitest';
import { iterationCut } from '../../runtime/program/loop-period.js';

const keys = (s: string) => s.split('');

describe('iterationCut', () => {
  it('cuts after the last whole iteration of a repeating tail', () => {
    // prologue "xy", then iterations "abc"; recorded up to the middle of one
    expect(iterationCut(keys('xyabcabcabcab'))).toBe(2 + 3 * 3);
    expect(iterationCut(keys('abcabcabc'))).toBe(9);
    expect(iterationCut(keys('aaaaa'))).toBe(5);
  });

  it('keeps the whole region when nothing repeats', () => {
    expect(iterationCut(keys('abcdefg'))).toBe(7);
    expect(iterationCut([])).toBe(0);
  });

  it('prefers the smallest period', () => {
    expect(iterationCut(keys('abababab'))).toBe(8);
    expect(iterationCut(keys('zabababa'))).toBe(7);
  });
});
