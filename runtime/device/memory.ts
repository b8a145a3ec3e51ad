// Host-side accounting of device memory. Every buffer's size is known when it is allocated
// (static shapes), so going over the HBM capacity throws right at the allocating call.
import { ITEMSIZE, type DType } from '../dtype.js';
import { formatShape, type Shape } from '../shape.js';
import { GcPressure } from './gc-pressure.js';

export interface MemoryInfo {
  readonly liveBytes: number;
  readonly peakBytes: number;
  readonly liveTensors: number;
  readonly capacityBytes: number;
}

/** A device buffer as the host knows it. The id names it on the device thread. */
export class DeviceBuffer {
  freed = false;
  /** Recipes of unmaterialized values that read this buffer (modes/recipes.ts). */
  pins = 0;
  /** Its tensor was disposed while pinned: freed when the last pin goes. */
  disposeRequested = false;
  /** Set when the buffer went away with its session (tpu.reset()). */
  lostWithSession = false;
  /** Neighbours in the account's list of live buffers. */
  prev: DeviceBuffer | null = null;
  next: DeviceBuffer | null = null;
  constructor(
    readonly id: number,
    readonly dtype: DType,
    readonly shape: Shape,
    readonly bytes: number,
    /** What made it, for out-of-memory reports ("matmul", "randn", ...). */
    readonly origin: string,
    /** The chip whose HBM holds it. */
    readonly chip: number,
  ) {}
}

export class OutOfMemoryError extends Error {
  override name = 'OutOfMemoryError';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

export class MemoryAccount {
  liveBytes = 0;
  peakBytes = 0;
  liveCount = 0;
  // Live buffers as a list linked through the buffers: a strict op allocates and frees one
  // each, and a Set's hashing cost a tenth of the dispatch.
  private head: DeviceBuffer | null = null;
  /** Peaks of open windows (the profiler's peak during one cell). */
  private windows: { peakBytes: number }[] = [];
  private readonly gcPressure = new GcPressure();

  /**
   * `reclaim`: frees the buffers of tensors already collected, now (false if it cannot); asked
   * before an out-of-memory error, as a loop that never awaits gets no finalization callbacks.
   */
  constructor(public capacityBytes: number, public capacityLabel: () => string, readonly chip = 0, private readonly reclaim: () => boolean = () => false) {}

  allocate(id: number, dtype: DType, shape: Shape, n: number, origin: string): DeviceBuffer {
    const bytes = n * ITEMSIZE[dtype];
    if (!this.fits(bytes)) this.throwOutOfMemory(bytes, `${formatShape(shape)} ${dtype}`, origin);
    const b = new DeviceBuffer(id, dtype, shape, bytes, origin, this.chip);
    b.next = this.head;
    if (this.head) this.head.prev = b;
    this.head = b;
    this.liveCount++;
    this.liveBytes += bytes;
    if (this.liveBytes > this.peakBytes) this.peakBytes = this.liveBytes;
    for (let i = 0; i < this.windows.length; i++) if (this.liveBytes > this.windows[i]!.peakBytes) this.windows[i]!.peakBytes = this.liveBytes;
    this.gcPressure.changed(this.liveBytes, bytes);
    return b;
  }

  /** Runs a full collection if dropped tensors' bytes have grown enough to ask for one (gc-pressure.ts). */
  collectIfDue(): void {
    this.gcPressure.collectIfDue();
  }

  /** Throws out-of-memory unless `bytes` more fit for a moment (a program's intermediate values). */
  reserve(bytes: number, what: string, origin: string): void {
    if (!this.fits(bytes)) this.throwOutOfMemory(bytes, what, origin);
  }

  private fits(bytes: number): boolean {
    if (this.liveBytes + bytes <= this.capacityBytes) return true;
    return this.reclaim() && this.liveBytes + bytes <= this.capacityBytes;
  }

  release(b: DeviceBuffer): boolean {
    if (b.freed) return false;
    b.freed = true;
    if (b.prev) b.prev.next = b.next;
    else this.head = b.next;
    if (b.next) b.next.prev = b.prev;
    b.prev = b.next = null;
    this.liveCount--;
    this.liveBytes -= b.bytes;
    this.gcPressure.changed(this.liveBytes);
    return true;
  }

  /** The session is gone: every live buffer with it. */
  loseAll(): void {
    for (const b of this.liveBuffers()) {
      b.freed = true;
      b.lostWithSession = true;
    }
    this.head = null;
    this.liveCount = 0;
    this.liveBytes = 0;
  }

  private liveBuffers(): DeviceBuffer[] {
    const out: DeviceBuffer[] = [];
    for (let b = this.head; b; b = b.next) out.push(b);
    return out;
  }

  /** Tracks the peak of live bytes from now on, until `close()`. */
  watchPeak(): { readonly peakBytes: number; close(): void } {
    const window = { peakBytes: this.liveBytes };
    this.windows.push(window);
    return { get peakBytes() { return window.peakBytes; }, close: () => void (this.windows = this.windows.filter((w) => w !== window)) };
  }

  /** The n largest live buffers (for %memory and out-of-memory reports). */
  largest(n: number): { bytes: number; shape: Shape; dtype: DType; origin: string }[] {
    return this.liveBuffers()
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, n)
      .map((b) => ({ bytes: b.bytes, shape: b.shape, dtype: b.dtype, origin: b.origin }));
  }

  info(): MemoryInfo {
    return { liveBytes: this.liveBytes, peakBytes: this.peakBytes, liveTensors: this.liveCount, capacityBytes: this.capacityBytes };
  }

  private throwOutOfMemory(bytes: number, what: string, origin: string): never {
    const largest = this.largest(5);
    const lines = largest.map((b) => `  ${formatBytes(b.bytes).padStart(10)}  ${formatShape(b.shape)} ${b.dtype} (${b.origin})`);
    throw new OutOfMemoryError(
      `out of device memory: ${origin} needs ${formatBytes(bytes)} for ${what}, ` +
        `but ${formatBytes(this.liveBytes)} of ${this.capacityLabel()}${this.chip ? ` on chip ${this.chip}` : ''} are live in ${this.liveCount} tensors.\n` +
        (lines.length ? `Largest live tensors:\n${lines.join('\n')}\n` : '') +
        'Free tensors with t.dispose() or tpu.scope(fn); the session and its tensors are unchanged.',
    );
  }
}
