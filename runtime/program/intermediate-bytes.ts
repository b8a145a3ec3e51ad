// Device memory a program needs beyond its inputs and outputs: the values it computes and
// does not write out live from their op to their last use (an eager run would have
// allocated each of them), so a fused program counts against HBM as the same ops would.
import { ITEMSIZE } from '../dtype.js';
import { numel } from '../shape.js';
import type { Program } from './program.js';

/** The peak bytes of intermediate values alive at once, ops run in program order. */
export function intermediatePeakBytes(p: Program): number {
  const base = p.inputs.length + p.scalars.length;
  const n = p.nodes.length;
  if (n <= p.outputs.length) return 0;
  const isOutput = new Uint8Array(n);
  for (const o of p.outputs) if (o >= base) isOutput[o - base] = 1;
  const lastUse = new Int32Array(n).fill(-1);
  p.nodes.forEach((node, i) => {
    for (const v of node.inputs) if (v >= base) lastUse[v - base] = i;
  });
  const bytes = (i: number) => numel(p.nodes[i]!.shape) * ITEMSIZE[p.nodes[i]!.dtype];
  let live = 0;
  let peak = 0;
  for (let i = 0; i < n; i++) {
    if (!isOutput[i]) live += bytes(i);
    if (live > peak) peak = live;
    for (const v of p.nodes[i]!.inputs) {
      const j = v - base;
      if (j >= 0 && lastUse[j] === i && !isOutput[j]) {
        live -= bytes(j);
        lastUse[j] = -2; // freed once, even when an op reads it twice
      }
    }
    if (!isOutput[i] && lastUse[i] === -1) live -= bytes(i); // computed, never read
  }
  return peak;
}
