// Every cell ends with tpu.sync(). A sync that finds nothing queued since the last fence came
// back answers at once, without a message to the device thread (DeviceSession.fenced): the
// device would only confirm it is idle. Work queued since then still waits, and its errors
// still surface at that sync.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => {
  vi.restoreAllMocks();
  tpu.mode('strict');
});

describe('a sync with nothing queued', () => {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`${mode}: posts nothing to the device thread; work queued after it is waited for`, async () => {
      tpu.mode(mode);
      const a = tpu.tensor([1, 2, 3]);
      const b = a.mul(2).add(1);
      await tpu.sync();
      const posts = vi.spyOn(Worker.prototype, 'postMessage');
      await tpu.sync();
      await tpu.sync();
      tpu.syncBlocking();
      expect(posts).not.toHaveBeenCalled();
      const c = b.mul(b);
      await tpu.sync();
      expect(posts).toHaveBeenCalled();
      // [1, 2, 3] * 2 + 1 = [3, 5, 7], squared
      expect(Array.from(await c.data())).toEqual([9, 25, 49]);
    });
  }
});
