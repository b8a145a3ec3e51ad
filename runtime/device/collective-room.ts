// Before any chip's part of a collective is enqueued, every chip of the call must have room:
// memory for its part's result and a slot in its device queue. A chip out of memory (or whose
// wait for a queue slot was interrupted) after its peers were enqueued would leave them
// waiting on the interconnect for a part that never comes. Forward collectives and backward's
// collective rules both make room this way. Nothing is held: reserve() only checks that the
// bytes fit now (each part's output is allocated by its launch), so an error after this leaks nothing.
import { formatShape, numel, type Shape } from '../shape.js';
import { ITEMSIZE, type DType } from '../dtype.js';
import { chipSession } from './current.js';

/** One chip's part of a collective call: the chip, and the shape and dtype of its result. */
export interface CollectivePart {
  readonly chip: number;
  readonly shape: Shape;
  readonly dtype: DType;
}

/** Throws out-of-memory (nothing enqueued) unless every part's result fits; then waits for a queue slot on every chip. */
export function makeCollectiveRoom(parts: readonly CollectivePart[], who: string): void {
  for (const p of parts) chipSession(p.chip).reserve(numel(p.shape) * ITEMSIZE[p.dtype], `${formatShape(p.shape)} ${p.dtype}`, who);
  for (const p of parts) chipSession(p.chip).makeRoom();
}
