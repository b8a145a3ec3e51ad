// The FinalizationRegistry safety net frees tensors that are garbage-collected.
import { expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

it('frees device memory of unreachable tensors', async () => {
  await tpu.sync();
  const before = tpu.memory().liveBytes;
  (() => {
    for (let i = 0; i < 10; i++) tpu.zeros([1000]);
  })();
  expect(tpu.memory().liveBytes).toBe(before + 40_000);
  for (let i = 0; i < 20 && tpu.memory().liveBytes > before; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(tpu.memory().liveBytes).toBe(before);
});
