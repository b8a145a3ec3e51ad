// tpu.cancelPending() while the device thread is busy running a long queue: the commands it
// has not started are dropped (the backend's calls are synchronous, so the device thread must
// still turn its event loop to see the cancel message).
import { expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

it('drops the work still queued on a busy device thread', async () => {
  tpu.mode('strict');
  const x = tpu.rand([1 << 22]);
  await tpu.sync();
  let y = x;
  for (let i = 0; i < 100; i++) y = y.mul(1.0001); // 100 ops of 4M floats: far beyond 20 ms
  await new Promise((r) => setTimeout(r, 20)); // the device thread is inside the queue now
  tpu.cancelPending();
  await expect(y.data()).rejects.toThrow(/cancelled before it ran/);
  expect((await x.data()).length).toBe(1 << 22); // the session goes on
});

it('a tensor whose in-place update was dropped keeps its value from before it', async () => {
  tpu.mode('strict');
  const x = tpu.rand([1 << 22]);
  const w = tpu.tensor([1, 2, 3]);
  await tpu.sync();
  let y = x;
  for (let i = 0; i < 100; i++) y = y.mul(1.0001); // keeps the device thread busy
  w.copy_(w.add(10)); // queued behind it: dropped below
  await new Promise((r) => setTimeout(r, 20));
  tpu.cancelPending();
  await expect(y.data()).rejects.toThrow(/cancelled before it ran/);
  expect(Array.from(await w.data())).toEqual([1, 2, 3]);
});
