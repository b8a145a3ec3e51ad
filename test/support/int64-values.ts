// An int64 tensor's values as BigInts, after checking it is int64.
import { expect } from 'vitest';
import type { Tensor } from 'tpu-kernel/runtime';

export async function int64Values(t: Tensor): Promise<bigint[]> {
  expect(t.dtype).toBe('int64');
  return Array.from(await t.data() as BigInt64Array);
}
