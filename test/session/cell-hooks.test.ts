// Magics with cell hooks (how %profile works): a magic switches a
// mode; its hooks then act around every cell, showing and updating a display.
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionOptions } from '../../kernel/language-session.js';
import { magics as builtinMagics, type Magic } from '../../kernel/session/magics/index.js';
import { TypeScriptSession } from '../../kernel/session/typescript-session.js';
import { SessionDriver } from './recording-publisher.js';

let watching = false;
const events: string[] = [];
const watch: Magic = {
  name: 'watch',
  summary: 'Test magic: show a display around every cell.',
  help: '%watch on|off',
  run({ args }) {
    watching = args === 'on';
  },
  hooks: {
    beforeCell({ executionCount, display }) {
      events.push(`before ${executionCount}`);
      if (watching) handles.set(executionCount, display.text(`cell ${executionCount} running`));
    },
    async afterCell({ executionCount, write }, status) {
      events.push(`after ${executionCount} ${status}`);
      await handles.get(executionCount)?.update(`cell ${executionCount} ${status}`);
      if (executionCount === 99) throw new Error('hook failure');
      if (watching) write('stdout', 'summary\n');
    },
  },
};
const handles = new Map<number, { update(v: unknown): Promise<void> }>();

const factory = (options: SessionOptions) => new TypeScriptSession(options, async () => undefined, new Map([...builtinMagics, ['watch', watch]]));
const driver = new SessionDriver(undefined, factory);
afterAll(() => driver.shutdown());

describe('cell hooks', () => {
  it('run around every cell, in order with the cell output, once a magic switched them on', async () => {
    await driver.run('%watch on');
    const { publisher } = await driver.run('console.log("body")');
    expect(publisher.outputs).toEqual([
      { kind: 'display', data: { 'text/plain': 'cell 2 running' }, displayId: expect.any(String) },
      { kind: 'stream', name: 'stdout', text: 'body\n' },
      { kind: 'update', data: { 'text/plain': 'cell 2 ok' }, displayId: (publisher.outputs[0] as { displayId: string }).displayId },
      { kind: 'stream', name: 'stdout', text: 'summary\n' },
    ]);
  });

  it('see errors, syntax errors (no beforeCell) and interrupts', async () => {
    events.length = 0;
    await driver.run('throw new Error("x")');
    await driver.run('const = ;');
    const running = driver.start('console.log("started"); await new Promise(() => {})');
    while (!running.publisher.text('stdout')) await new Promise((r) => setTimeout(r, 5));
    driver.session.interrupt();
    await running.outcome;
    expect(events).toEqual(['before 3', 'after 3 error', 'after 4 error', 'before 5', 'after 5 interrupted']);
  });

  it('reports a failing hook on stderr and keeps the cell outcome', async () => {
    await driver.run('%watch off');
    driver.count = 98;
    const { outcome, publisher } = await driver.run('1 + 1');
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': '2' } } });
    expect(publisher.text('stderr')).toMatch(/^%watch \(afterCell\): Error: hook failure\n/);
  });
});
