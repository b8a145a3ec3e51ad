// PyTorch runs a module by calling it (`model(x)`); JavaScript cannot call an object, and V8's
// "model is not a function" does not say what to write: the cell's error does (module-call-hint.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { SessionFactory } from '../../kernel/language-session.js';
import { SessionDriver } from './recording-publisher.js';

// the built session: its tensors need the device thread
const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-module-call-')), built.createSession);
afterAll(async () => {
  await driver.value('await tpu.reset()');
  await driver.shutdown();
});

async function failure(code: string) {
  const { outcome } = await driver.run(code);
  if (outcome.status !== 'error') throw new Error(`expected ${JSON.stringify(code)} to fail`);
  return outcome;
}

it('says how to run a module a cell calls, and only a module', async () => {
  await driver.value('const net = { enc: new tpu.nn.Linear(2, 1) }; const plain = { enc: {} };');
  const hint = (callee: string) => `${callee} is not a function (a module runs with ${callee}.forward(...): JavaScript cannot call an object)`;
  expect((await failure('net.enc(tpu.ones([2]))')).evalue).toBe(hint('net.enc'));
  expect((await failure('const model = new tpu.nn.Sequential(new tpu.nn.ReLU());\nmodel(tpu.ones([2]))')).traceback[0]).toBe(`TypeError: ${hint('model')}`);
  expect((await failure('plain.enc(1)')).evalue).toBe('plain.enc is not a function');
  expect((await failure('undefinedName.forward')).evalue).toBe('undefinedName is not defined');
  expect(await driver.value('model.forward(tpu.tensor([-1, 2])).sum().item()')).toBe('2');
});
