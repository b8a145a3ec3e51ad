// Launching a bound program: cache lookup, output allocation and the room its intermediates
// need (memory accounting: may throw out-of-memory before anything is enqueued), then the
// execution command.
import { chipSession, postAllChips } from '../device/current.js';
import { programCache, type CompiledEntry } from '../program/program-cache.js';
import type { DeviceBuffer } from '../device/memory.js';
import type { BoundProgram } from '../program/bind-program.js';

export function launch(bp: BoundProgram, check = false): number | undefined {
  return enqueue(prepare(bp), check);
}

/** A program ready to run: its id on its chip's session, and its output buffers allocated. */
interface Prepared {
  readonly bp: BoundProgram;
  readonly id: number;
  readonly outs: DeviceBuffer[];
  readonly collectives: boolean;
}

/** Cache lookup, output allocation and the room its intermediates need: may throw out-of-memory, then nothing is held. */
function prepare(bp: BoundProgram): Prepared {
  const session = chipSession(bp.outputs[0]!.chip);
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
  return { bp, id, outs, collectives: entry?.collectives === true };
}

function enqueue(p: Prepared, check = false): number | undefined {
  const { bp, outs } = p;
  const reply = chipSession(bp.outputs[0]!.chip).execute(p.id, bp.inputs, outs, bp.scalars, bp.site, check);
  // Its peers wait for this chip on the interconnect: no chip may keep its commands on the host.
  if (p.collectives) postAllChips();
  for (let i = 0; i < bp.outputs.length; i++) bp.outputs[i]!._materialized(outs[i]!);
  return reply;
}

/**
 * Several chips' programs launched together: every chip's program is prepared (outputs and
 * intermediates fit, room in its queue) before any is enqueued; a chip out of memory, or an
 * interrupt, after its peers were enqueued would leave them waiting at a collective.
 */
export function launchAll(parts: readonly BoundProgram[]): void {
  const ready: Prepared[] = [];
  try {
    for (const bp of parts) ready.push(prepare(bp));
    for (const p of ready) chipSession(p.bp.outputs[0]!.chip).makeRoom();
  } catch (e) {
    for (const p of ready) for (const b of p.outs) chipSession(b.chip).memory.release(b);
    throw e;
  }
  for (const p of ready) enqueue(p);
}
