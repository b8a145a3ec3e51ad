// The generated loop of a program, if it has one: elementwise (generate-c.ts) or with per-row
// reductions (generate-rows-c.ts), with how its run is indexed.
import { valueOf, type Program } from '../../program/program.js';
import { numel } from '../../shape.js';
import { generateC } from './generate-c.js';
import { generateRowsC } from './generate-rows-c.js';

export interface GeneratedLoop {
  source: string;
  /** Indices a run covers: elements, or rows. */
  count: number;
  /** Elements of work per index (1, or a row's length). */
  unit: number;
}

export function generateLoop(program: Program): GeneratedLoop | undefined {
  const elementwise = generateC(program);
  if (elementwise !== undefined) return { source: elementwise, count: numel(valueOf(program, program.outputs[0]!).shape), unit: 1 };
  const rows = generateRowsC(program);
  return rows && { source: rows.source, count: rows.rows, unit: rows.cols };
}
