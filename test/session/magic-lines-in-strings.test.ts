// A `%name` line is a magic only where a line of code starts: inside a multi-line template
// literal, a block comment, a string a `\` continues onto the line, or after a regex holding a
// backtick it is text (it ran as a magic).
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('magic lines', () => {
  it('a % line inside a template literal is text, also inside ${ } nesting', async () => {
    const { outcome, publisher } = await driver.run('const n = 2;\nconsole.log(`a\n%time not a magic\n${`x\n%lsmagic`} ${n}\nb`);');
    expect(outcome).toEqual({ status: 'ok' });
    expect(publisher.text('stdout')).toBe('a\n%time not a magic\nx\n%lsmagic 2\nb\n');
  });

  it('a % line inside a block comment is not run; a magic after the template and comment is', async () => {
    const { outcome, publisher } = await driver.run('/* usage:\n%nosuchmagic\n*/\nconst s = `\n%typecheck off`;\n%typecheck\nconsole.log(s.length);');
    expect(outcome).toEqual({ status: 'ok' });
    expect(publisher.text('stdout')).toBe('typecheck: warn\n15\n');
  });

  it('a backtick in a regex or a string opens no template', async () => {
    const { outcome, publisher } = await driver.run("const r = /`/;\nconst q = '`';\n%typecheck\nconsole.log(r.test(q), 10 / 2 / 5);");
    expect(outcome).toEqual({ status: 'ok' });
    expect(publisher.text('stdout')).toBe('typecheck: warn\ntrue 1\n');
  });

  it('a % line a string continues onto (a \\ at the end of the line before) is text', async () => {
    const { outcome, publisher } = await driver.run("const s = 'a\\\n%time not a magic', d = \"b\\\\\";\n%typecheck\nconsole.log(s, d);");
    expect(outcome).toEqual({ status: 'ok' });
    // the string is 'a%time not a magic' (a line continuation adds nothing); the escaped backslash ends "b\\"
    expect(publisher.text('stdout')).toBe('typecheck: warn\na%time not a magic b\\\n');
  });

  it('the type check sees the template text (no magic masked out of it)', async () => {
    await driver.run('%typecheck error');
    try {
      expect(await driver.value('const t = `\n%mode fused\n`;\nt.trim()')).toBe("'%mode fused'");
    } finally {
      await driver.run('%typecheck warn');
    }
  });
});
