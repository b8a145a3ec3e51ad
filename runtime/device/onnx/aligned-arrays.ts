// The backend's arrays start on a 64-byte cache line. Node takes an ArrayBuffer's memory from
// malloc, 16-byte aligned (a 16 MiB one lies 16 bytes past a page), so every 64-byte vector load
// or store of a generated loop, or of ONNX Runtime's AVX-512 kernels, would straddle two lines.
// W5's fused row loop run through the loop addon on one thread (2026-11-28 03:55 UTC, load ~1.5):
// 2.55 ms with its arrays 16 bytes past a line, 1.49 ms with all on a line, as in a C harness
// (1.50). The ortc addon tells where a buffer's memory starts; without it arrays stay as malloc
// placed them.
import type { StorageArray } from '../../dtype.js';
import { isPooledSize } from '../pooled-size.js';
import type { BufferPool } from './buffer-pool.js';

const LINE = 64;
/** Smaller arrays are left where malloc put them: a few vector loads, and no pad to pay. */
const ALIGN_FROM_BYTES = 1024;

type StorageType = { new (buffer: ArrayBuffer, byteOffset: number, length: number): StorageArray; readonly BYTES_PER_ELEMENT: number };

export class AlignedArrays {
  constructor(private readonly pool: BufferPool, private readonly lineOffset: ((buffer: ArrayBuffer) => number) | undefined) {}

  /** A new array of n elements off V8's heap, starting on a line; from the pool at pooled sizes. */
  make(Type: StorageType, n: number): StorageArray {
    const bytes = n * Type.BYTES_PER_ELEMENT;
    const pad = this.padding(bytes);
    const buffer = isPooledSize(bytes) ? this.pool.take(bytes + pad) : new ArrayBuffer(bytes + pad);
    return new Type(buffer, pad && (LINE - this.lineOffset!(buffer)) % LINE, n);
  }

  /** `data` (an upload from the host) when it starts on a line or is small, else a copy that does. */
  placed(data: StorageArray): StorageArray {
    if (!this.padding(data.byteLength) || (this.lineOffset!(data.buffer as ArrayBuffer) + data.byteOffset) % LINE === 0) return data;
    const copy = this.make(data.constructor as StorageType, data.length);
    (copy as Float32Array).set(data as Float32Array); // one type: the copy is made by data's constructor
    return copy;
  }

  /** Gives a freed array's memory back to the pool, if it came from make (an upload's own buffer would never fit a take). */
  recycle(data: StorageArray): void {
    // Reading .buffer would move a small on-heap array off the heap: only pooled sizes are looked at.
    if (!isPooledSize(data.byteLength)) return;
    const buffer = data.buffer as ArrayBuffer;
    if (buffer.byteLength === data.byteLength + this.padding(data.byteLength)) this.pool.give(buffer);
  }

  /** Bytes allocated beyond an array of `bytes` so that a line starts within them. */
  private padding(bytes: number): number {
    return this.lineOffset && bytes >= ALIGN_FROM_BYTES ? LINE : 0;
  }
}
