// Which nodes a generated loop must compute for some values: a walk up the program's inputs.
import type { Program } from '../../program/program.js';

/**
 * The value ids computing `targets`, in program order: a walk up each node's inputs through the
 * ids `member` accepts (the others are read as they are), not past the ids in `stop` (those
 * still included).
 */
export function nodeClosure(program: Program, targets: readonly number[], member: (id: number) => boolean, stop: ReadonlySet<number> = new Set()): number[] {
  const base = program.inputs.length + program.scalars.length;
  const needed = new Set<number>();
  const visit = (id: number) => {
    if (!member(id) || needed.has(id)) return;
    needed.add(id);
    if (!stop.has(id)) program.nodes[id - base]!.inputs.forEach(visit);
  };
  targets.forEach(visit);
  return [...needed].sort((a, b) => a - b);
}
