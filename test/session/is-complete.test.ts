import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('is_complete', () => {
  it.each([
    ['const x = 1', { status: 'complete' }],
    ['', { status: 'complete' }],
    ['%time', { status: 'complete' }],
    ['function f() {', { status: 'incomplete', indent: '  ' }],
    ['if (a) {\n    b();\n} else {', { status: 'incomplete', indent: '  ' }],
    ['if (a) {\n    b(', { status: 'incomplete', indent: '      ' }],
    ['const xs = [1,\n  2,', { status: 'incomplete', indent: '  ' }],
    ['const s = `multi\nline', { status: 'incomplete', indent: '' }],
    ['/* open comment', { status: 'incomplete', indent: '' }],
    ['const v =', { status: 'incomplete', indent: '' }],
    ['const = ;', { status: 'invalid' }],
    ['}', { status: 'invalid' }],
    ['let x = 1;\nx)', { status: 'invalid' }],
    ['const s = "unterminated', { status: 'invalid' }],
  ])('%j -> %j', async (code, expected) => {
    expect(await driver.session.isComplete(code)).toEqual(expected);
  });
});
