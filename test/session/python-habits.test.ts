// PyTorch habits JavaScript answers with an unhelpful error. A module is called (`model(x)`):
// a tpu.nn module is callable, and where the cell is type-checked the call is also written
// model.forward(x) (typed-operator-rewrite.ts); another object with a forward is not callable,
// and V8's "model is not a function" gets a hint (python-habit-hints.ts). A keyword argument (`x.sum(dim=1)`) is an assignment in
// JavaScript: "dim is not defined" gets a hint to pass options.
import { expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const fresh = builtSessions('tpu-python-habits-');
const driver = fresh();

async function failure(code: string) {
  const { outcome } = await driver.run(code);
  if (outcome.status !== 'error') throw new Error(`expected ${JSON.stringify(code)} to fail`);
  return outcome;
}

it('dispatched: a tpu.nn module is callable; another object with a forward is told how to run it', async () => {
  await driver.value('const net = { enc: new tpu.nn.Sequential(new tpu.nn.ReLU()) }; const own = { enc: { forward: (v: any) => v } }; const plain = { enc: {} };');
  expect(await driver.value('net.enc(tpu.tensor([-1, 2])).sum().item()')).toBe('2');
  const hint = (callee: string) => `${callee} is not a function (a module runs with ${callee}.forward(...): JavaScript cannot call an object)`;
  expect((await failure('own.enc(tpu.ones([2]))')).evalue).toBe(hint('own.enc'));
  expect((await failure('const model = own.enc;\nmodel(tpu.ones([2]))')).traceback[0]).toBe(`TypeError: ${hint('model')}`);
  expect((await failure('plain.enc(1)')).evalue).toBe('plain.enc is not a function');
  expect((await failure('undefinedName.forward')).evalue).toBe('undefinedName is not defined');
  expect(await driver.value('model.forward(tpu.tensor([-1, 2])).sum().item()')).toBe('1');
});

it('a Python keyword argument is told to pass options, and only there', async () => {
  await driver.value('const t = tpu.tensor([[1, 2], [3, 4]]);');
  const hint = (name: string) => `${name} is not defined (a Python keyword argument? JavaScript assigns there: pass options, e.g. x.sum({ ${name}: ... }))`;
  expect((await failure('t.sum(dim=1)')).evalue).toBe(hint('dim'));
  expect((await failure('t.sum(1, keepdim = true)')).evalue).toBe(hint('keepdim'));
  expect((await failure('notDeclared + 1')).evalue).toBe('notDeclared is not defined');
  expect((await failure('[1].map((v) => v === other)')).evalue).toBe('other is not defined');
  expect(await driver.value('t.sum({ dim: 1 }).tolist()')).toBe('[ 3, 7 ]');
});

it('type-checked: a module called as PyTorch calls it runs its forward', async () => {
  const typed = fresh();
  await typed.value('%typecheck error\nconst relu = new tpu.nn.Sequential(new tpu.nn.ReLU()); const net = { enc: relu };');
  expect(await typed.value('relu(tpu.tensor([-1, 2, 3])).sum().item()')).toBe('5');
  expect(await typed.value('net.enc(tpu.tensor([[-4, 1]])).sum().item()')).toBe('1');
  expect(await typed.value('const twice = (x: number) => 2 * x; twice(4)')).toBe('8'); // a function stays a call
  const { outcome } = await typed.run('const none = [relu].find(() => false); none?.(tpu.ones([1]))'); // optional: left as written
  expect(outcome).toMatchObject({ status: 'error', evalue: expect.stringMatching(/This expression is not callable/) });
});

it("Python's builtins, undefined in JavaScript, say what JavaScript writes instead", async () => {
  expect((await failure('print(1)')).evalue).toBe('print is not defined (JavaScript prints with console.log(...), or display(...) for rich output)');
  expect((await failure('len([1, 2])')).evalue).toBe("len is not defined (a tensor's length is x.length (x.shape[0]), an array's a.length)");
  expect((await failure('for (const i of range(3)) {}')).evalue).toBe('range is not defined (count with for (let i = 0; i < n; i++), or tpu.arange(n) for a tensor)');
  expect((await failure('const ok = True;')).evalue).toBe('True is not defined (JavaScript writes true)');
  expect((await failure('torch.zeros(2)')).evalue).toBe("torch is not defined (PyTorch's functions are tpu's here: tpu.tensor(...), tpu.nn, tpu.optim)");
  expect(await driver.value('const len = (a: unknown[]) => a.length;\nlen([1, 2])')).toBe('2'); // a cell's own len is its own
});

it("changing a tensor's frozen shape array says to change a copy", async () => {
  await driver.value('const s3 = tpu.tensor([[1, 2, 3], [4, 5, 6]]);');
  const hint = (message: string) => `${message} (a tensor's shape is read-only, as torch.Size is: change a copy, [...x.shape])`;
  expect((await failure('s3.shape[0] = 1')).evalue).toBe(hint("Cannot assign to read only property '0' of object '[object Array]'"));
  expect((await failure('s3.shape.reverse()')).evalue).toBe(hint("Cannot assign to read only property '0' of object '[object Array]'"));
  expect((await failure('(s3.shape as number[]).push(1)')).evalue).toBe(hint('Cannot add property 2, object is not extensible'));
  expect((await failure('Object.freeze([1])[0] = 2')).evalue).toBe("Cannot assign to read only property '0' of object '[object Array]'"); // no shape: no hint
  expect(await driver.value('s3.sum(0).tolist()')).toBe('[ 5, 7, 9 ]');
  expect(await driver.value('[...s3.shape].reverse()')).toBe('[ 3, 2 ]');
});
