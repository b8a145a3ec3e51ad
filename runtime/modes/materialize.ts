// Bringing one tensor into device memory, whatever the mode that recorded it.
import { bindProgram } from '../compiler/bind-program.js';
import type { Tensor } from '../tensor.js';
import { flushRegion, inRegion } from './fused.js';
import { launch } from './launch.js';

export function materialize(t: Tensor, reason: string): void {
  if (t._buf) return;
  if (inRegion(t)) flushRegion(reason, [t]);
  // A value used only inside an earlier region: recompute it from its recipe.
  if (!t._buf) launch(bindProgram([t]));
}
