// Tensors a program drops are freed when the GC finds them (FinalizationRegistry), but V8
// does not see device memory, and only its full collections clear finalization targets
// (a scavenge keeps them). A loop making large tensors grows its small JS heap slowly, so
// GBs of dead device buffers piled up between full collections and every output was a
// fresh allocation instead of a recycled one (W2 of the runtime bench: 4x slower). As V8
// paces collections by external memory, device bytes allocated pace full collections here,
// the more spaced the larger the JS heap (a collection's cost grows with it).
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const FLOOR_BYTES = 256 * 2 ** 20;
/** Device bytes allocated per byte of JS heap between two collections. */
const HEAP_FACTOR = 4;

function exposeGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  try {
    // Worker threads refuse --expose-gc in execArgv; the flag set at run time for one new
    // context gives its gc function, then goes off again.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (() => void) | undefined;
    setFlagsFromString('--no-expose-gc');
    return gc;
  } catch {
    return undefined;
  }
}

const collect = exposeGc();

/** A full collection now, if the runtime can ask for one (it clears WeakRefs of dropped objects). */
export function collectGarbage(): boolean {
  collect?.();
  return collect !== undefined;
}

export class GcPressure {
  private sinceCollect = 0;
  private threshold = FLOOR_BYTES;

  allocated(bytes: number): void {
    this.sinceCollect += bytes;
    if (this.sinceCollect < this.threshold || !collect) return;
    this.sinceCollect = 0;
    collect();
    this.threshold = Math.max(FLOOR_BYTES, HEAP_FACTOR * getHeapStatistics().used_heap_size);
  }
}
