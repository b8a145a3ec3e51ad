// Launching a bound program: cache lookup, output allocation and the room its intermediates
// need (memory accounting: may throw out-of-memory before anything is enqueued), then the
// execution command.
import { chipSession, postAllChips } from '../device/current.js';
import { programCache, type CompiledEntry } from '../program/program-cache.js';
import type { DeviceBuffer } from '../device/memory.js';
import type { BoundProgram } from '../program/bind-program.js';
import { ITEMSIZE } from '../dtype.js';
import { numel } from '../shape.js';

export function launch(bp: BoundProgram, check = false): number | undefined {
  const chip = bp.outputs[0]!.chip;
  const session = chipSession(chip);
  const cache = programCache();
  const id = cache.lookup(bp);
  // Program ids are shared by the chips: the chip of the cache miss compiled it, others do on first use.
  session.ensureCompiled(id, cache, bp);
  const outputs = bp.outputs;
  const outs: DeviceBuffer[] = new Array(outputs.length);
  let allocated = 0;
  let entry: CompiledEntry | undefined;
  try {
    for (; allocated < outputs.length; allocated++) {
      const t = outputs[allocated]!;
      // A replayed tpu.compile plan's outputs are fresh tensors without recipes.
      outs[allocated] = session.allocate(t.dtype, t.shape, t._node?.op.name ?? 'tpu.compile');
    }
    // A fused program's intermediates are device memory too, for as long as it runs.
    entry = cache.get(id);
    const intermediates = entry?.intermediateBytes ?? 0;
    if (intermediates > 0) session.memory.reserve(intermediates, 'the intermediate values of its program', entry!.label);
  } catch (e) {
    for (let i = 0; i < allocated; i++) session.memory.release(outs[i]!);
    throw e;
  }
  const reply = session.execute(id, bp.inputs, outs, bp.scalars, bp.site, check);
  // Its peers wait for this chip on the interconnect: no chip may keep its commands on the host.
  if (entry?.collectives) postAllChips();
  for (let i = 0; i < outputs.length; i++) outputs[i]!._materialized(outs[i]!);
  return reply;
}

/**
 * Several chips' programs launched together: every chip's outputs must fit before any starts (a
 * chip out of memory after its peers were enqueued would leave them waiting at a collective).
 */
export function launchAll(parts: readonly BoundProgram[]): void {
  for (const bp of parts) {
    let bytes = 0;
    for (const t of bp.outputs) bytes += numel(t.shape) * ITEMSIZE[t.dtype];
    chipSession(bp.outputs[0]!.chip).reserve(bytes, `the ${bp.outputs.length} outputs of its program`, bp.label());
  }
  for (const bp of parts) launch(bp);
}
