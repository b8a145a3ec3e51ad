// A row position (x.at(i), select's index, narrow's start) given as a tpu.compile number
// argument stays a program input: the slice's start is fed at run time (ops/slice.ts `fed`),
// as JAX's dynamic_slice takes a traced start, so one trace serves every row, as one program
// serves every row eagerly. The trace holds only while the position is valid for it: a replay
// with a position out of range (or not an integer) traces again, and that trace throws the
// error eager execution gives (a device slice would clamp it silently).
import { LiveNumber, liveMap } from './live-number.js';
import { guard } from './trace-record.js';

/**
 * The start to feed for position `p` of a dim of size n (negative: from the end), valid as the
 * caller checked with `fits`: a live number's start is read at each call, under a guard that
 * the position still fits.
 */
export function fedStart(p: number, n: number, what: string, fits: (position: number) => boolean): number {
  const live: unknown = p;
  if (live instanceof LiveNumber) guard(`${what} fits a dim of size ${n}`, () => fits(live.read()));
  return liveMap(p, (v) => (v < 0 ? v + n : v));
}
