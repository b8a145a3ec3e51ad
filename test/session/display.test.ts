// Display API, console streaming, input and rich results.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('display and streams', () => {
  it('streams console output in call order, including output of timers and promises while the cell runs', async () => {
    const { outcome, publisher } = await driver.run([
      'console.log("one", { a: 1 });',
      'console.error("two");',
      'setTimeout(() => console.warn("four"), 5);',
      'Promise.resolve().then(() => console.info("three"));',
      'await new Promise((r) => setTimeout(r, 30));',
      'console.log("five")',
    ].join('\n'));
    expect(outcome).toEqual({ status: 'ok' });
    expect(publisher.outputs).toEqual([
      { kind: 'stream', name: 'stdout', text: 'one { a: 1 }\n' },
      { kind: 'stream', name: 'stderr', text: 'two\n' },
      { kind: 'stream', name: 'stdout', text: 'three\n' },
      { kind: 'stream', name: 'stderr', text: 'four\n' },
      { kind: 'stream', name: 'stdout', text: 'five\n' },
    ]);
  });

  it('displays mime types and updates a display in place', async () => {
    const { outcome, publisher } = await driver.run([
      'const h = display.html("<b>1</b>");',
      'display.markdown("# title"); display.svg("<svg/>"); display.json({ k: [1] }); display.text("plain");',
      'display.png(new Uint8Array([137, 80, 78, 71]));',
      'await h.update("<b>2</b>");',
      'h',
    ].join('\n'));
    expect(outcome).toEqual({ status: 'ok' }); // a display handle is not a result
    const [first, ...rest] = publisher.outputs;
    expect(first).toMatchObject({ kind: 'display', data: { 'text/html': '<b>1</b>' } });
    const id = (first as { displayId: string }).displayId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest.map((o) => o.kind === 'display' || o.kind === 'update' ? [o.kind, o.data] : o)).toEqual([
      ['display', { 'text/markdown': '# title', 'text/plain': '<text/markdown output>' }],
      ['display', { 'image/svg+xml': '<svg/>', 'text/plain': '<image/svg+xml output>' }],
      ['display', { 'application/json': { k: [1] }, 'text/plain': '{ k: [ 1 ] }' }],
      ['display', { 'text/plain': 'plain' }],
      ['display', { 'image/png': Buffer.from([137, 80, 78, 71]).toString('base64'), 'text/plain': '<image/png output>' }],
      ['update', { 'text/html': '<b>2</b>', 'text/plain': '<text/html output>' }],
    ]);
    expect(rest.at(-1)).toMatchObject({ displayId: id });
  });

  it('renders values through Symbol.for("Jupyter.display"), also async, as result and display', async () => {
    await driver.value([
      'class Shown {',
      '  constructor(readonly n: number) {}',
      '  async [Symbol.for("Jupyter.display")]() { await null; return { "text/html": `<i>${this.n}</i>`, "text/plain": `Shown(${this.n})` }; }',
      '}',
    ].join('\n'));
    const { outcome, publisher } = await driver.run('display(new Shown(1));\nnew Shown(2)');
    expect(publisher.outputs).toEqual([{ kind: 'display', data: { 'text/html': '<i>1</i>', 'text/plain': 'Shown(1)' }, displayId: expect.any(String) }]);
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/html': '<i>2</i>', 'text/plain': 'Shown(2)' } } });
  });

  it('publishes every output in call order: streams, displays, updates, clears, also behind an async render', async () => {
    const { outcome, publisher } = await driver.run([
      'const slow = { async [Symbol.for("Jupyter.display")]() { await new Promise((r) => setTimeout(r, 20)); return { "text/plain": "slow" }; } };',
      'display("a"); console.log("b");',
      'const h = display.text("c"); h.update("d"); console.error("e");',
      'display(slow); console.log("f"); clearOutput({ wait: true }); display.text("g"); h.update("h");',
      '"result"',
    ].join('\n'));
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': "'result'" } } });
    const shown = publisher.outputs.map((o) => (o.kind === 'stream' ? o.text : o.kind === 'clear' ? `clear(${o.wait})` : `${o.kind} ${o.data['text/plain']}`));
    expect(shown).toEqual(["display 'a'", 'b\n', 'display c', 'update d', 'e\n', 'display slow', 'f\n', 'clear(true)', 'display g', 'update h']);
  });

  it('display(a, b, ...) shows each value in turn, also under %typecheck error; a trailing { metadata } is options', async () => {
    await driver.run('%typecheck error');
    try {
      const { outcome, publisher } = await driver.run('const last = display(1, "two", { x: 3 }, [4]);\nconst meta = display("m", { metadata: { isolated: true } });\nlast.update(5);');
      expect(outcome).toEqual({ status: 'ok' });
      const shown = publisher.outputs.map((o) => (o.kind === 'display' || o.kind === 'update' ? `${o.kind} ${o.data['text/plain']}` : o.kind));
      expect(shown).toEqual(['display 1', "display 'two'", 'display { x: 3 }', 'display [ 4 ]', "display 'm'", 'update 5']);
      const ids = publisher.outputs.map((o) => (o.kind === 'display' || o.kind === 'update' ? o.displayId : undefined));
      expect(new Set(ids.slice(0, 5)).size).toBe(5); // one output each
      expect(ids[5]).toBe(ids[3]); // the handle is the last value's
    } finally {
      await driver.run('%typecheck warn');
    }
  });

  it('rejects bad display input at the calling line', async () => {
    const { outcome } = await driver.run('\ndisplay.html(42 as any)');
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeError', evalue: 'display: text/html content must be a string, got number' });
    if (outcome.status === 'error') expect(outcome.traceback).toContain(`    at cell-${driver.count}.ts:2:9`);
  });

  it('clears output, with and without wait', async () => {
    const { publisher } = await driver.run('clearOutput(); clearOutput({ wait: true })');
    expect(publisher.outputs).toEqual([{ kind: 'clear', wait: false }, { kind: 'clear', wait: true }]);
  });

  it('asks for input, plain and password', async () => {
    const { outcome, publisher } = await driver.run('const name = await input("name? ");\nconst pw = await input("pw: ", { password: true });\n`${name}/${pw.length}`', ['ada', 'secret']);
    expect(publisher.outputs).toEqual([
      { kind: 'input', prompt: 'name? ', password: false },
      { kind: 'input', prompt: 'pw: ', password: true },
    ]);
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': "'ada/6'" } } });
  });

  it('exposes the comm registry as `comms`', async () => {
    expect(await driver.value('typeof comms.registerTarget')).toBe("'function'");
  });
});
