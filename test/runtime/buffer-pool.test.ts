// The device thread's pool of freed buffers (device/onnx/buffer-pool.ts): when full it drops
// the sizes asked for least recently, so a new workload's sizes are pooled again.
import { expect, it } from 'vitest';
import { BufferPool, MAX_POOLED_BYTES } from '../../dist/runtime/device/onnx/buffer-pool.js';

const MB = 2 ** 20;

it('a full pool makes room for a new size by dropping the least recently asked-for sizes', () => {
  const pool = new BufferPool();
  const old = Array.from({ length: MAX_POOLED_BYTES / MB }, () => pool.take(MB));
  old.forEach((b) => pool.give(b));
  expect(pool.stats().pooledBytes).toBe(MAX_POOLED_BYTES);
  const big = pool.take(16 * MB); // fresh: nothing of this size yet
  pool.give(big);
  expect(pool.stats().pooledBytes).toBe(MAX_POOLED_BYTES);
  expect(pool.take(16 * MB)).toBe(big); // pooled, not refused
  expect(pool.stats()).toMatchObject({ reused: 1, fresh: MAX_POOLED_BYTES / MB + 1 });
  // 16 of the 1 MiB buffers went to make room; the rest are still handed out
  for (let k = 0; k < MAX_POOLED_BYTES / MB - 16; k++) expect(old).toContain(pool.take(MB));
  expect(pool.stats().reused).toBe(1 + MAX_POOLED_BYTES / MB - 16);
});

it('keeps the size asked for most recently when room is needed', () => {
  const pool = new BufferPool();
  const half = MAX_POOLED_BYTES / 2;
  const a = pool.take(half);
  const b = pool.take(half / 2);
  const c = pool.take(half / 2);
  pool.give(a);
  pool.give(b);
  pool.give(c);
  expect(pool.take(half)).toBe(a); // asked for after the quarter size: the quarters go first
  pool.give(a);
  const d = pool.take(half - MB); // a third size: room is made from the quarters, not from a
  pool.give(d);
  expect(pool.take(half)).toBe(a);
  expect(pool.take(half - MB)).toBe(d);
});
