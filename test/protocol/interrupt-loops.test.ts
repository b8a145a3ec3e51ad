// Interrupting synchronous loops wherever cell code runs them: at the top level (vm's
// breakOnSigint, through the IO worker's claimed run), and outside any vm run, where only
// the inspector-based last resort reaches them (a loop after an await inside an async
// function runs in a microtask; a loop in a timer callback runs from the event loop).
// Every time: the reply says interrupted within 2 s + the grace period, the kernel keeps
// running, and the state of earlier cells stays. Then many interrupts in a row, each landing
// at a different moment of a cell's run, must never end the process (Node's vm leaves
// SIGINT at its default action for a moment entering and leaving a breakOnSigint run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStatus, lastText, sleep, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
  await kernel.execute('const kept = [1, 2, 3]; let counter = 0');
});
afterAll(async () => {
  await kernel?.close();
});


async function interruptWhileRunning(code: string, afterMs: number) {
  const msgId = kernel.startExecute(code, { stop_on_error: false });
  await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'execute_input' && m.parent_header.msg_id === msgId));
  await sleep(afterMs);
  const sentAt = Date.now();
  expect((await kernel.request('control', 'interrupt_request', {}, 2000)).reply.content.status).toBe('ok');
  const reply = await kernel.reply(msgId, 8000);
  return { reply, ms: Date.now() - sentAt };
}

describe('interrupting synchronous loops', () => {
  it.each([
    ['at the top level', 'while (true) { counter++; }'],
    ['in a microtask, after an await inside an async function', 'async function spin() { await null; while (true) { counter++; } }\nawait spin();'],
    ['in a function called after a top-level await of a timer', 'await new Promise((r) => setTimeout(r, 20));\n(() => { while (true) { counter++; } })();'],
    ['in a timer callback, while the cell awaits', 'setTimeout(() => { while (true) { counter++; } }, 10);\nawait new Promise(() => {});'],
    ['in the body of a top-level for await', 'for await (const x of (async function* () { yield 1; })()) { while (true) { counter += x; } }'],
  ])('stops a loop %s; the kernel and earlier state stay', async (_where, code) => {
    const { reply, ms } = await interruptWhileRunning(code, 300);
    expect(reply.content.status).toBe('error');
    expect(reply.content.evalue).toMatch(/interrupt/i);
    expect(ms).toBeLessThan(3000); // 1 s grace before the inspector steps in, then at once
    expect(kernel.child.exitCode).toBe(null);
    expect(lastText((await kernel.execute('kept.length + (counter > 0 ? 10 : 0)')).outputs)).toBe('13');
  }, 15_000);

  it('never ends the process: 150 interrupts landing before, during and right after short runs of cell code', async () => {
    // Short cells (a few ms of synchronous work, sometimes with steps) interrupted at spread
    // delays hit every moment: compiling, entering a run, inside, leaving it, after it.
    for (let i = 0; i < 150; i++) {
      const code = i % 3 === 0 ? 'for (let i = 0; i < 2e5; i++) counter++;' : `for (let i = 0; i < 1e5; i++) counter++;\nawait null;\nfor (let i = 0; i < 1e5; i++) counter++;\n${i}`;
      const msgId = kernel.startExecute(code, { stop_on_error: false });
      await kernel.waitFor(() => kernel.iopub.some((m) => isStatus(m, msgId, 'busy')));
      await sleep(i % 7);
      kernel.send('control', 'interrupt_request', {});
      const reply = await kernel.reply(msgId, 8000);
      expect(['ok', 'error']).toContain(reply.content.status);
      if (reply.content.status === 'error') expect(reply.content.evalue).toMatch(/interrupt/i);
      expect(kernel.child.exitCode).toBe(null);
    }
    expect(lastText((await kernel.execute('kept.join()')).outputs)).toBe("'1,2,3'");
  }, 120_000);
});
