// `process.stdout.write` / `process.stderr.write` in a cell (Node's idiom for text without a
// newline, e.g. progress dots) reach the cell's output like console.log: before, they went
// to the kernel's own terminal (the Jupyter server's log), and the notebook showed nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('process.stdout and process.stderr in cells', () => {
  it('write strings and bytes to the cell streams, in order with console.log', async () => {
    const { outcome, publisher } = await driver.run([
      'process.stdout.write("a");',
      'console.log("b");',
      'process.stdout.write(new TextEncoder().encode("c\\n"));',
      'process.stderr.write("e");',
      'let called = false;',
      'process.stdout.write("d", () => { called = true });',
      'await new Promise((r) => setTimeout(r, 10));',
      'called',
    ].join('\n'));
    expect(outcome.status === 'ok' && outcome.result?.data['text/plain']).toBe('true');
    expect(publisher.outputs.filter((o) => o.kind === 'stream').map((o) => o.kind === 'stream' && [o.name, o.text])).toEqual([
      ['stdout', 'a'], ['stdout', 'b\n'], ['stdout', 'c\n'], ['stderr', 'e'], ['stdout', 'd'],
    ]);
  });

  it('leave the rest of process as it is', async () => {
    expect(await driver.value('[process.pid === require("node:process").pid, typeof process.env.PATH, typeof process.hrtime.bigint(), process.listenerCount("exit") >= 0]'))
      .toBe("[ true, 'string', 'bigint', true ]");
  });
});
