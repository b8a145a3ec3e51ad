// Recycles freed ArrayBuffers by byte size. A fresh large typed array costs a zero-fill
// and a page fault per 4 KiB; a loop that frees and reallocates the same sizes (every
// eager step) reuses memory instead, as a device allocator would. When full, the pool makes
// room by dropping the sizes asked for least recently: filled once with one workload's sizes
// (a training loop's dropped tensors, freed in a lump by a collection), it refused every
// buffer of the next workload, whose every output was then a fresh allocation.
import { isPooledSize } from '../pooled-size.js';

export const MAX_POOLED_BYTES = 512 * 2 ** 20;

export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private pooledBytes = 0;
  /** Buffers handed out again, and buffers made afresh (each a page fault per 4 KiB on first write). */
  reused = 0;
  fresh = 0;

  take(bytes: number): ArrayBuffer {
    const list = this.free.get(bytes);
    const reused = list?.pop();
    if (list) {
      // Most recently asked for last: evicted last.
      this.free.delete(bytes);
      this.free.set(bytes, list);
    }
    if (reused) {
      this.pooledBytes -= bytes;
      this.reused++;
      return reused;
    }
    this.fresh++;
    return new ArrayBuffer(bytes);
  }

  give(buffer: ArrayBuffer): void {
    const bytes = buffer.byteLength;
    if (!isPooledSize(bytes) || bytes > MAX_POOLED_BYTES) return;
    this.makeRoom(bytes);
    if (this.pooledBytes + bytes > MAX_POOLED_BYTES) return; // full of this very size
    let list = this.free.get(bytes);
    if (!list) this.free.set(bytes, (list = []));
    list.push(buffer);
    this.pooledBytes += bytes;
  }

  /** Drops buffers of the least recently asked-for other sizes until `bytes` more fit. */
  private makeRoom(bytes: number): void {
    for (const [size, list] of this.free) {
      if (this.pooledBytes + bytes <= MAX_POOLED_BYTES) return;
      if (size === bytes) continue;
      while (list.length && this.pooledBytes + bytes > MAX_POOLED_BYTES) {
        list.pop();
        this.pooledBytes -= size;
      }
      if (!list.length) this.free.delete(size);
    }
  }

  stats(): { reused: number; fresh: number; pooledBytes: number } {
    return { reused: this.reused, fresh: this.fresh, pooledBytes: this.pooledBytes };
  }
}
