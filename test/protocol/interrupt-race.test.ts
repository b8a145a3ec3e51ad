// Interrupts that arrive while a cell is still being compiled, before its code
// enters vm's breakOnSigint scope (JupyterLab users press stop right after
// running a cell). The main thread cannot read the interrupt message while it
// compiles, and no SIGINT may be raised before cell code runs in a claimed run:
// the cell must stop anyway, and nothing of that interrupt may touch the next cell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStatus, lastText, sleep, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
  await kernel.execute('globalThis.kept = 41');
});
afterAll(async () => {
  await kernel?.close();
});

// A cell that takes tens of ms (V8) to a second (TypeScript) to compile, then spins forever.
const slowToCompileSpin = `globalThis.bigCell = [${Array.from({ length: 200_000 }, (_, i) => i).join(',')}].length;\nwhile (true) {}`;

describe('an interrupt that arrives before the cell code runs', () => {
  it.each([0, 5, 20])('stops the cell when interrupt_request follows busy by %i ms', async (delay) => {
    const spin = kernel.startExecute(slowToCompileSpin);
    await kernel.waitFor(() => kernel.iopub.some((m) => isStatus(m, spin, 'busy')));
    await sleep(delay);
    const interrupt = await kernel.request('control', 'interrupt_request', {}, 2000);
    expect(interrupt.reply.content.status).toBe('ok');
    const reply = await kernel.reply(spin, 8000);
    expect(reply.content.status).toBe('error');
    expect(reply.content.evalue).toMatch(/interrupt/i);
    expect(kernel.child.exitCode).toBe(null);
  }, 15_000);

  it('leaves the cell queued behind it alone: it runs to its end with the state kept', async () => {
    const spin = kernel.startExecute(slowToCompileSpin, { stop_on_error: false });
    await kernel.waitFor(() => kernel.iopub.some((m) => isStatus(m, spin, 'busy')));
    void kernel.send('control', 'interrupt_request', {});
    // Queued now, it starts as soon as the spin stops: the interrupt aimed at the spin must not stop this cell.
    kernel.inputHandler = (_content: unknown, parent: unknown) => {
      setTimeout(() => kernel.send('stdin', 'input_reply', { value: 'late' }, { parent }), 500);
      return undefined;
    };
    const next = kernel.startExecute("globalThis.answer = await input('wait: ')", { allow_stdin: true });
    expect((await kernel.reply(spin, 8000)).content.evalue).toMatch(/interrupt/i);
    const reply = await kernel.reply(next, 8000);
    kernel.inputHandler = undefined;
    expect(reply.content, JSON.stringify(reply.content)).toMatchObject({ status: 'ok' });
    expect(lastText((await kernel.execute('answer + (kept + 1)')).outputs)).toBe("'late42'");
  }, 15_000);

  it('still stops a cell on an external SIGINT after its own interrupts', async () => {
    const wait = kernel.startExecute('await new Promise(() => {})');
    await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'execute_input' && m.parent_header.msg_id === wait));
    await sleep(100);
    kernel.child.kill('SIGINT');
    const reply = await kernel.reply(wait, 2000);
    expect(reply.content.evalue).toMatch(/interrupt/i);
    expect(lastText((await kernel.execute('kept')).outputs)).toBe('41');
  });
});
