// Recycles freed ArrayBuffers by byte size. A fresh large typed array costs a zero-fill
// and a page fault per 4 KiB; a loop that frees and reallocates the same sizes (every
// eager step) reuses memory instead, as a device allocator would.
const MAX_POOLED_BYTES = 512 * 2 ** 20;
const MIN_POOLED_BYTES = 64 * 1024;

export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private pooledBytes = 0;
  /** Buffers handed out again, and buffers made afresh (each a page fault per 4 KiB on first write). */
  reused = 0;
  fresh = 0;

  take(bytes: number): ArrayBuffer {
    const list = this.free.get(bytes);
    const reused = list?.pop();
    if (reused) {
      this.pooledBytes -= bytes;
      this.reused++;
      return reused;
    }
    this.fresh++;
    return new ArrayBuffer(bytes);
  }

  /** Whether buffers of this size are pooled (smaller ones are left to the garbage collector). */
  static pools(bytes: number): boolean {
    return bytes >= MIN_POOLED_BYTES;
  }

  give(buffer: ArrayBuffer): void {
    const bytes = buffer.byteLength;
    if (bytes < MIN_POOLED_BYTES || this.pooledBytes + bytes > MAX_POOLED_BYTES) return;
    let list = this.free.get(bytes);
    if (!list) this.free.set(bytes, (list = []));
    list.push(buffer);
    this.pooledBytes += bytes;
  }

  stats(): { reused: number; fresh: number; pooledBytes: number } {
    return { reused: this.reused, fresh: this.fresh, pooledBytes: this.pooledBytes };
  }
}
