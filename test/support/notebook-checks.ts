// Checks on an executed notebook file, shared by the nbconvert and
// `tpu-kernel run` tests: every code cell ran, and none failed unless tagged.
import { readFileSync } from 'node:fs';

interface ExecutedCell {
  cell_type: string;
  source: string | string[];
  execution_count?: number | null;
  metadata: { tags?: string[] };
  outputs?: { output_type: string; ename?: string; evalue?: string }[];
}

/** Problems found in an executed notebook; empty when every code cell ran cleanly. */
export function executionProblems(path: string): string[] {
  const nb = JSON.parse(readFileSync(path, 'utf8')) as { cells: ExecutedCell[] };
  const problems: string[] = [];
  nb.cells.forEach((cell, index) => {
    if (cell.cell_type !== 'code') return;
    const source = [cell.source].flat().join('').split('\n')[0];
    if (typeof cell.execution_count !== 'number') problems.push(`cell ${index} (${source}) did not run`);
    const allowed = cell.metadata.tags?.includes('raises-exception');
    for (const out of cell.outputs ?? []) {
      if (out.output_type === 'error' && !allowed) problems.push(`cell ${index} (${source}) failed: ${out.ename}: ${out.evalue}`);
    }
  });
  return problems;
}
