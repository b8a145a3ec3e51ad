// A pad's negative amounts crop the input first: the slice they keep. Pure (no tensor
// imports), so the pad gradient and each backend's pad lowering share it.
import type { SliceAttrs } from './slice.js';

export interface PadAttrs {
  /** [before, after] for every dim, first dim first. */
  readonly pads: readonly (readonly number[])[];
}

export function cropOf(shape: readonly number[], pads: PadAttrs['pads']): SliceAttrs {
  return {
    begin: pads.map(([b]) => Math.max(-b!, 0)),
    step: pads.map(() => 1),
    count: shape.map((n, d) => n - Math.max(-pads[d]![0]!, 0) - Math.max(-pads[d]![1]!, 0)),
  };
}
