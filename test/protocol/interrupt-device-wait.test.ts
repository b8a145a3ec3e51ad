// interrupt_request while a cell blocks the main thread in a synchronous device wait
// (dataSync after an `await` inside a function: that continuation runs outside vm's
// breakOnSigint, which covers the cell's top-level steps only, and the SIGINT listener
// cannot run while the thread waits). The IO worker wakes the runtime's wait through its
// interrupt buffer; the cell stops within 2 s, the queued device work is dropped, and the
// kernel and the tensors made before are intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastText, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
});
afterAll(async () => {
  await kernel?.close();
});


// 4000 strict matmuls of 512 x 512 (268 MFLOP each, ~1 TFLOP): seconds of device work here
// even at oneDNN's ~350 GFLOP/s, queued at once, then a blocking read of the last one.
const longDeviceWait = [
  '%mode strict',
  'async function chain() {',
  '  const a = tpu.ones([512, 512]).mul(1 / 512);',
  '  await tpu.sync();',
  '  let y = a;',
  '  for (let i = 0; i < 4000; i++) y = y.matmul(a);',
  '  globalThis.reached = true;',
  "  console.log('waiting on the device');",
  '  y.dataSync();',
  "  globalThis.finished = 'the wait ran to its end';",
  '}',
  'await chain();',
].join('\n');

describe('an interrupt during a blocking device wait', () => {
  it('wakes the wait: the cell stops within 2 s; the kernel, the session and earlier tensors stay', async () => {
    const before = await kernel.execute('const kept = tpu.tensor([1, 2, 3]).mul(2);\nawait kept.data()', {}, 20_000);
    expect(before.reply.content.status).toBe('ok');
    // The language service is built now, not by the cell below (its `1 / 512` after a tensor
    // cell would build it, seconds here): that cell must be waiting on the device after 1 s.
    await kernel.request('shell', 'complete_request', { code: 'kep', cursor_pos: 3 }, 30_000);

    const cell = kernel.startExecute(longDeviceWait);
    // The line before the wait is printed (the stream leaves through the IO thread), then the main thread blocks.
    await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'stream' && m.parent_header.msg_id === cell && String(m.content.text).includes('waiting on the device')), 20_000);
    await new Promise((r) => setTimeout(r, 200));
    const interruptedAt = Date.now();
    const interrupt = await kernel.request('control', 'interrupt_request', {}, 2000);
    expect(interrupt.reply.content.status).toBe('ok');
    const reply = await kernel.reply(cell, 2000);
    expect(Date.now() - interruptedAt).toBeLessThan(2000);
    expect(reply.content.status).toBe('error');
    expect(reply.content.evalue).toMatch(/interrupt/i);
    expect(kernel.child.exitCode).toBe(null);

    // The cell got as far as the wait, not past it; the queued matmuls were dropped, so
    // new work runs at once and the tensor of the earlier cell reads back unchanged.
    const state = await kernel.execute('[globalThis.reached, globalThis.finished]', {}, 5000);
    expect(lastText(state.outputs)).toBe('[ true, undefined ]');
    const after = await kernel.execute('Array.from(await kept.add(1).data())', {}, 5000);
    expect(after.reply.content.status).toBe('ok');
    expect(lastText(after.outputs)).toBe('[ 3, 5, 7 ]');
  }, 30_000);
});
