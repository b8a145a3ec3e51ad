// The host's picture of the device's buffer pool (onnx/buffer-pool.ts): a buffer the host
// frees goes to the pool, an allocation of a size the pool holds takes one back, any other
// allocation is fresh memory, a page fault per 4 KiB on its first write (W4's 1 MiB output:
// 0.45 ms more device time per step than a pooled one, test/bench/strict-cpu.bench.mjs). GC
// pacing counts these fresh bytes. A picture, not the pool: it misses the pool's evictions and
// the backend's own temporaries, so it can only err towards collecting later.
import { BufferPool, MAX_POOLED_BYTES } from './onnx/buffer-pool.js';

export class PoolMirror {
  private readonly free = new Map<number, number>();
  private bytes = 0;

  /** Whether an allocation of `bytes` is fresh memory (else it takes a pooled buffer). */
  take(bytes: number): boolean {
    if (!BufferPool.pools(bytes)) return false;
    const n = this.free.get(bytes) ?? 0;
    if (n === 0) return true;
    this.free.set(bytes, n - 1);
    this.bytes -= bytes;
    return false;
  }

  give(bytes: number): void {
    if (!BufferPool.pools(bytes) || this.bytes + bytes > MAX_POOLED_BYTES) return;
    this.free.set(bytes, (this.free.get(bytes) ?? 0) + 1);
    this.bytes += bytes;
  }
}
