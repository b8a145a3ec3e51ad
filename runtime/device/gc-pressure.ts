// Tensors a program drops are freed when the GC finds them (FinalizationRegistry), but V8
// does not see device memory, and only its full collections clear finalization targets
// (a scavenge keeps them). A loop making large tensors grows its small JS heap slowly, so
// GBs of dead device buffers piled up between full collections and every output was a
// fresh allocation instead of a recycled one (W2 of the runtime bench: 4x slower). As V8
// paces collections by external memory, growth of live device bytes paces full collections
// here, the more spaced the larger the JS heap (a collection's cost grows with it).
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth of live device bytes that asks for a collection, whatever the heap's size. */
export const FLOOR_BYTES = 256 * 2 ** 20;
/** Growth of live device bytes per byte of JS heap between two collections. */
const HEAP_FACTOR = 4;

/** V8's gc function (--expose-gc): a full collection, or a scavenge of the young generation with { type: 'minor' }. */
type Collect = (options?: { type: 'minor' | 'major' }) => void;

interface Flagged {
  gc?: Collect;
  /** FinalizationRegistry with cleanupSome(): runs the callbacks of collected targets now. */
  Registry?: FinalizationRegistryConstructor;
}

function flaggedContext(): Flagged {
  try {
    // Worker threads refuse --expose-gc in execArgv; flags set at run time reach one new
    // context (its gc function; its FinalizationRegistry with V8's cleanupSome), then go off.
    setFlagsFromString('--expose-gc');
    setFlagsFromString('--harmony-weak-refs-with-cleanup-some');
    const [gc, Registry] = runInNewContext('[typeof gc === "function" ? gc : undefined, FinalizationRegistry]') as [Collect | undefined, FinalizationRegistryConstructor];
    setFlagsFromString('--no-expose-gc');
    setFlagsFromString('--no-harmony-weak-refs-with-cleanup-some');
    const existing = (globalThis as { gc?: Collect }).gc;
    return { gc: existing ?? gc, Registry: 'cleanupSome' in Registry.prototype ? Registry : undefined };
  } catch {
    return { gc: (globalThis as { gc?: Collect }).gc };
  }
}

const flagged = flaggedContext();
const collect = flagged.gc;

/** A full collection now, if the runtime can ask for one (it clears WeakRefs of dropped objects). */
export function collectGarbage(): boolean {
  collect?.();
  return collect !== undefined;
}

/** Whether the runtime can ask for collections (collectGarbage, collectYoung). */
export const canCollect = collect !== undefined;

/**
 * A scavenge of the young generation now (young-tensors.ts), if the runtime can ask for one.
 * On this thread alone: V8's parallel scavenge waits for its helper threads, which find no
 * free core beside the device thread and ONNX Runtime's pool (W2 fused at load ~6: 2.1-4 ms at
 * the 90th percentile against 0.4 alone); the young generation the sweep scans is small. The
 * flag is V8's, read per scavenge (toggling the parallel marking flags around a full
 * collection instead trips a V8 check: not done).
 */
export function collectYoung(): void {
  if (!collect) return;
  setFlagsFromString('--no-parallel-scavenge');
  try {
    collect({ type: 'minor' });
  } finally {
    setFlagsFromString('--parallel-scavenge');
  }
}

/**
 * A finalization registry whose callbacks can also run synchronously, after a full collection:
 * finalization callbacks otherwise wait for the end of the task, so a loop that never awaits
 * would go out of memory on tensors it dropped long ago.
 */
export class ReclaimingRegistry<T> {
  private readonly registry: FinalizationRegistry<T>;
  constructor(cleanup: (held: T) => void) {
    this.registry = new (flagged.Registry ?? FinalizationRegistry)(cleanup);
  }
  register(target: object, held: T): void {
    this.registry.register(target, held);
  }
  /** Collects garbage and runs the callbacks of targets found dead; false if it cannot. */
  reclaimNow(): boolean {
    const cleanupSome = (this.registry as { cleanupSome?: () => void }).cleanupSome;
    if (!collect || !cleanupSome) return false;
    collect();
    cleanupSome.call(this.registry);
    return true;
  }
}

/**
 * Paces full collections by the growth of live device bytes since the lowest point after the
 * last collection (dropped tensors keep their bytes live until collected), not by bytes
 * allocated alone: a loop that disposes its tensors (or uses tpu.scope) leaves nothing to
 * collect, and a forced full collection cost it ~7 ms every 256 MB (W2 in tpu.scope: every
 * other step). The collection itself waits for the session to
 * post its batch, so it runs while the device thread works instead of delaying that work.
 */
export class GcPressure {
  private low = 0;
  private live = 0;
  private allocated = 0;
  private threshold = FLOOR_BYTES;

  /** `collectNow`: a full collection (none when the runtime cannot ask for one); `heapBytes`: the JS heap in use. */
  constructor(
    private readonly collectNow: (() => void) | undefined = collect,
    private readonly heapBytes: () => number = () => getHeapStatistics().used_heap_size,
  ) {}

  /** `liveBytes`: the account's live bytes after an allocation (of `allocated` bytes) or a release. */
  changed(liveBytes: number, allocated = 0): void {
    this.allocated += allocated;
    this.live = liveBytes;
    if (liveBytes < this.low) this.low = liveBytes;
  }

  /**
   * Collects if the garbage grown since the last collection asks for it (after a batch went out).
   * Judged now, not at the allocation that crossed the line: the young tensors' sweep
   * (young-tensors.ts) may have freed a chain's temporaries since.
   */
  collectIfDue(): void {
    const growth = this.live - this.low;
    // Mostly disposed, partly dropped (a training loop): its garbage grows slowly, yet the pool
    // needs it back, else outputs are fresh allocations: every `threshold` allocated then.
    if (!this.collectNow || (growth < this.threshold && (growth < this.threshold / 2 || this.allocated < this.threshold))) return;
    this.low = this.live;
    this.allocated = 0;
    this.collectNow();
    this.threshold = Math.max(FLOOR_BYTES, HEAP_FACTOR * this.heapBytes());
  }
}
