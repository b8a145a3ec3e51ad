// Recycles freed ArrayBuffers by byte size. A fresh large typed array costs a zero-fill
// and a page fault per 4 KiB; a loop that frees and reallocates the same sizes (every
// eager step) reuses memory instead, as a device allocator would. When full, the pool makes
// room by dropping the sizes asked for least recently: filled once with one workload's sizes
// (a training loop's dropped tensors, freed in a lump by a collection), it refused every
// buffer of the next workload, whose every output was then a fresh allocation.
// A size that keeps being taken fresh (a training step's activations: natural code drops them
// undisposed, so their buffers come back only after a full collection) is made ahead when the
// device thread is idle (refill), off the program's critical path.
export const MAX_POOLED_BYTES = 512 * 2 ** 20;
const MIN_POOLED_BYTES = 64 * 1024;
/** A size is made ahead once taken fresh this many times. */
const RECURRING_MISSES = 2;
/**
 * Bytes made ahead per idle moment, and the largest buffer made ahead: a fresh 64 KiB costs
 * 10-50 µs of allocation and page faults here, so a refill delays a command arriving meanwhile
 * by well under a millisecond.
 */
const REFILL_BYTES = 2 * 2 ** 20;

/** Reuse counts and free bytes of a pool (deviceStats().pool). */
export interface PoolStats {
  /** Buffers handed out again. */
  readonly reused: number;
  /** Buffers an output had to make afresh (a page fault per 4 KiB while its program ran). */
  readonly fresh: number;
  /** Buffers made ahead in idle time for sizes that kept being taken fresh (handed out as pooled ones). */
  readonly madeAhead: number;
  readonly pooledBytes: number;
}

export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private pooledBytes = 0;
  /** Buffers handed out again, and buffers made afresh (each a page fault per 4 KiB on first write). */
  reused = 0;
  fresh = 0;
  madeAhead = 0;
  /** Times each size was taken fresh. */
  private readonly misses = new Map<number, number>();
  /** Buffers of each size taken since the last refill: what a refill makes sure is free. */
  private takenSinceRefill = new Map<number, number>();

  take(bytes: number): ArrayBuffer {
    this.takenSinceRefill.set(bytes, (this.takenSinceRefill.get(bytes) ?? 0) + 1);
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
    this.misses.set(bytes, (this.misses.get(bytes) ?? 0) + 1);
    return new ArrayBuffer(bytes);
  }

  /**
   * For each size taken fresh again and again: makes ahead, pages touched, the buffers that
   * bring its free ones up to as many as were taken since the last refill (within
   * REFILL_BYTES), so the next outputs of that size take them from the pool. For the device
   * thread's idle moments.
   */
  refill(): void {
    if (this.takenSinceRefill.size === 0) return;
    const taken = this.takenSinceRefill;
    this.takenSinceRefill = new Map();
    let budget = REFILL_BYTES;
    for (const [bytes, count] of taken) {
      if ((this.misses.get(bytes) ?? 0) < RECURRING_MISSES) continue;
      for (let k = this.free.get(bytes)?.length ?? 0; k < count && bytes <= budget && this.pooledBytes + bytes <= MAX_POOLED_BYTES; k++) {
        const buffer = allocateOrNull(bytes);
        if (!buffer) return; // memory is short: outputs will allocate (and fail) on their own
        // The allocator hands out untouched zero pages: writing one byte per page faults it in now.
        const view = new Uint8Array(buffer);
        for (let i = 0; i < bytes; i += 4096) view[i] = 0;
        this.give(buffer);
        this.madeAhead++;
        budget -= bytes;
      }
    }
  }

  /** Whether buffers of this size are pooled (smaller ones are left to the garbage collector). */
  static pools(bytes: number): boolean {
    return bytes >= MIN_POOLED_BYTES;
  }

  give(buffer: ArrayBuffer): void {
    const bytes = buffer.byteLength;
    if (bytes < MIN_POOLED_BYTES || bytes > MAX_POOLED_BYTES) return;
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

  stats(): PoolStats {
    return { reused: this.reused, fresh: this.fresh, madeAhead: this.madeAhead, pooledBytes: this.pooledBytes };
  }
}

/** A new ArrayBuffer, or null when the allocation fails (work ahead of need must not fail the device thread). */
function allocateOrNull(bytes: number): ArrayBuffer | null {
  try {
    return new ArrayBuffer(bytes);
  } catch {
    return null;
  }
}
