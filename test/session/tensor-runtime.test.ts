// Cells with the real tensor runtime: `tpu` is the runtime's object, tensors
// render through Symbol.for('Jupyter.display'), survive cell errors, and the
// language service knows the tensor API.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

// The runtime starts a device thread (a real .js worker file): use the built session and runtime.
const driver = builtSessions('tpu-session-')();

describe('cells with tensors', () => {
  it('computes on the TPU session and keeps tensors across cells and errors', async () => {
    await driver.value('const a = tpu.tensor([[1, 2], [3, 4]]);');
    const failed = await driver.run('const b = a.matmul(a);\nthrow new Error("after queuing work");');
    expect(failed.outcome.status).toBe('error');
    // 1*1+2*3=7, 1*2+2*4=10, 3*1+4*3=15, 3*2+4*4=22
    expect(await driver.value('JSON.stringify(await b.array())')).toBe("'[[7,10],[15,22]]'");
    expect(await driver.value('(await a.add(a).sum().data())[0]')).toBe('20');
  });

  it('names the cell line of a NaN in debug mode the same way in the message and the traceback', async () => {
    await driver.value('%mode debug');
    const { outcome } = await driver.run('const zero = tpu.tensor([0, 1]);\n  const ratio = zero.div(zero);');
    await driver.value('%mode strict');
    if (outcome.status !== 'error') throw new Error('expected a NonFiniteError');
    const cell = driver.count - 1;
    // line 2, column 22: the `div` of `zero.div(zero)` (counted by hand; column 3 is `const`)
    expect(outcome.ename).toBe('NonFiniteError');
    expect(outcome.evalue).toBe(`div produced NaN or Inf (output [2] float32) at cell-${cell}.ts:2:22`);
    expect(outcome.traceback[0]).toBe(`NonFiniteError: ${outcome.evalue}`);
    expect(outcome.traceback).toContain(`    at cell-${cell}.ts:2:22`);
    expect(outcome.traceback.slice(-3)).toEqual([`cell-${cell}.ts:2:22`, '2 |   const ratio = zero.div(zero);', `  | ${' '.repeat(21)}^`]);
  });

  it('shows a tensor result through its Jupyter.display bundle', async () => {
    const { outcome } = await driver.run('tpu.tensor([1.5, -2])');
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    expect(Object.keys(outcome.result!.data).sort()).toEqual(['text/html', 'text/plain']);
    expect(outcome.result!.data['text/plain']).toMatch(/1\.5/);
    expect(outcome.result!.data['text/plain']).toMatch(/-2/);
  });

  it('completes and inspects the tensor API', async () => {
    const rand = await driver.session.complete('tpu.ra', 6);
    expect(rand.matches).toEqual(expect.arrayContaining(['rand', 'randn']));
    expect(rand.matches.every((m) => m.toLowerCase().startsWith('ra'))).toBe(true);
    const members = await driver.session.complete('a.', 2);
    expect(members.matches).toEqual(expect.arrayContaining(['matmul', 'add', 'sum', 'shape', 'dtype', 'dispose']));
    const info = await driver.session.inspect('tpu.sync()', 5, 0);
    expect(info.data['text/plain']).toMatch(/^\(method\) sync\(\): Promise<void>\n\nSync point: runs the pending fused region and waits for all queued device work\.\n\n@example await tpu\.sync\(\)$/);
  });
});
