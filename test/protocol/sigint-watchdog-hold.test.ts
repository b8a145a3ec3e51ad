// SIGINT once the watchdog hold has taken over (kernel/io/sigint-watchdog-hold.ts): the
// kernel's own SIGINT listener is gone, and SIGINT still stops a loop (also one after a
// top-level await), settles an await, leaves an idle kernel alive, and reaches a listener a
// cell adds (which ends the hold) while loops stay interruptible.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentOf, lastText, sleep, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
  // The hold starts a second after the kernel; it has taken over once the kernel's listener is gone.
  for (let i = 0; i < 100 && lastText((await kernel.execute("process.listenerCount('SIGINT')")).outputs) !== '0'; i++) await sleep(100);
  expect(lastText((await kernel.execute("globalThis.n = 0; process.listenerCount('SIGINT')")).outputs)).toBe('0');
});
afterAll(async () => {
  await kernel?.close();
});

async function interruptedBySigint(code: string): Promise<string> {
  const id = kernel.startExecute(code);
  await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'execute_input' && m.parent_header.msg_id === id));
  await sleep(200);
  kernel.child.kill('SIGINT');
  const reply = await kernel.reply(id, 5000);
  expect(reply.content.status).toBe('error');
  return reply.content.evalue;
}

it('stops loops and awaits, before and after a top-level await, and an idle SIGINT keeps the kernel', async () => {
  expect(await interruptedBySigint('while (true) { n++ }')).toMatch(/interrupt/i);
  kernel.child.kill('SIGINT');
  await sleep(300);
  expect(kernel.child.exitCode).toBe(null);
  expect(await interruptedBySigint('await new Promise((r) => setTimeout(r, 50)); while (true) { n++ }')).toMatch(/interrupt/i);
  expect(await interruptedBySigint('await new Promise(() => {})')).toMatch(/interrupt/i);
  expect(lastText((await kernel.execute('n > 0')).outputs)).toBe('true');
});

it('gives SIGINT to a listener a cell adds, and loops stay interruptible', async () => {
  expect(lastText((await kernel.execute("globalThis.got = 0; process.on('SIGINT', () => got++); 'on'")).outputs)).toBe("'on'");
  expect(await interruptedBySigint('while (true) { n++ }')).toMatch(/interrupt/i);
  kernel.child.kill('SIGINT');
  await sleep(300);
  expect(contentOf((await kernel.execute('got')).outputs).at(-1)![1].data).toEqual({ 'text/plain': '1' });
  expect(await interruptedBySigint('while (true) { n++ }')).toMatch(/interrupt/i);
  expect(kernel.child.exitCode).toBe(null);
});
