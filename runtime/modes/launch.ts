// Launching a bound program: cache lookup, output allocation (memory accounting, which may
// throw out-of-memory before anything is enqueued), then the execution command.
import { currentSession, programCache } from '../device/current.js';
import type { DeviceBuffer } from '../device/memory.js';
import type { BoundProgram } from '../compiler/bind-program.js';

export function launch(bp: BoundProgram, check = false): number | undefined {
  const session = currentSession();
  const id = programCache().lookup(bp);
  const outs: DeviceBuffer[] = [];
  try {
    for (const t of bp.outputs) outs.push(session.allocate(t.dtype, t.shape, t._node?.op.name ?? 'tpu.compile'));
  } catch (e) {
    for (const b of outs) session.memory.release(b);
    throw e;
  }
  const site = bp.site;
  const record = site ? { label: () => bp.label(), site } : null;
  const reply = session.execute(id, bp.inputs, outs, bp.scalars as number[], record, check);
  bp.outputs.forEach((t, i) => t._materialized(outs[i]!));
  return reply;
}
