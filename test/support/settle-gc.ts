// Tests that count live tensors run the garbage collector first: the runtime's
// FinalizationRegistry frees unreachable tensors whenever V8 collects them, so a count
// taken while earlier garbage is still pending changes under the test's feet.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tpu } from 'tpu-kernel/runtime';

setFlagsFromString('--expose-gc');
export const gc = runInNewContext('gc') as () => void;

/**
 * Live tensors once collection and the finalizers it schedules have settled: full
 * collections until the count stays the same over three of them (a finalizer that
 * frees a tensor can make more unreachable, and its callbacks run in a later task).
 */
export async function settledLiveTensors(): Promise<number> {
  await tpu.sync();
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 60 && stable < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
    const now = tpu.memory().liveTensors;
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
  return last;
}
