// Executes the code cells of a notebook in order with the same language
// session the kernel uses (createSession), recording nbformat outputs into the
// cells, as nbclient does for `jupyter nbconvert --execute`.
import type { ErrorInfo, SessionFactory } from '../language-session.js';
import { createSession } from '../session/index.js';
import { createHeadlessComms } from './headless-comms.js';
import { joinLines, type CodeCell, type Notebook } from './nbformat.js';
import { OutputRecorder, type OutputObserver } from './output-recorder.js';

/** Cells with this tag may fail without stopping the run (nbclient's convention). */
const RAISES_EXCEPTION_TAG = 'raises-exception';

export interface RunObserver extends OutputObserver {
  cellFinished?(index: number, cell: CodeCell): void;
}

export interface RunOptions {
  /** Folder the notebook lives in; cells resolve relative paths there. */
  cwd: string;
  observer?: RunObserver;
  /** Defaults to the kernel's own session factory. */
  createSession?: SessionFactory;
  /** Called with an interrupt function while a cell runs (SIGINT handling). */
  onInterruptible?(interrupt: (() => void) | undefined): void;
}

export interface CellFailure extends ErrorInfo {
  /** Index of the cell in notebook.cells (markdown cells included), from 0. */
  cellIndex: number;
  /** Its execution count: In [n] in the notebook, cell-n.ts in tracebacks. */
  executionCount: number;
  source: string;
  interrupted: boolean;
}

export interface RunResult {
  executedCells: number;
  /** The first cell that failed (and stopped the run), if any. */
  failure?: CellFailure;
}

const hasTag = (cell: CodeCell, tag: string) => Array.isArray(cell.metadata.tags) && cell.metadata.tags.includes(tag);

/**
 * Runs every code cell of `notebook` in place: outputs and execution counts of
 * all code cells are cleared first, so that a run stopped by an error leaves
 * no stale outputs below the failing cell.
 */
export async function runNotebook(notebook: Notebook, options: RunOptions): Promise<RunResult> {
  const codeCells = notebook.cells.flatMap((cell, index) => (cell.cell_type === 'code' ? [{ cell, index }] : []));
  for (const { cell } of codeCells) {
    cell.outputs = [];
    cell.execution_count = null;
  }
  const session = (options.createSession ?? createSession)({ cwd: options.cwd, comms: createHeadlessComms() });
  const recorder = new OutputRecorder(options.observer);
  let executionCount = 0;
  try {
    for (const { cell, index } of codeCells) {
      const source = joinLines(cell.source);
      executionCount += 1;
      cell.execution_count = executionCount;
      const publisher = recorder.publisherFor(cell.outputs);
      options.onInterruptible?.(() => session.interrupt());
      const outcome = await session
        .execute(source, { executionCount, silent: false, storeHistory: true, allowStdin: false, publisher })
        .finally(() => options.onInterruptible?.(undefined));
      if (outcome.status === 'ok') {
        if (outcome.result) recorder.result(cell.outputs, executionCount, outcome.result.data, outcome.result.metadata);
        options.observer?.cellFinished?.(index, cell);
        continue;
      }
      const { ename, evalue, traceback } = outcome;
      cell.outputs.push({ output_type: 'error', ename, evalue, traceback });
      options.observer?.cellFinished?.(index, cell);
      if (!hasTag(cell, RAISES_EXCEPTION_TAG) || outcome.interrupted) {
        return { executedCells: executionCount, failure: { cellIndex: index, executionCount, source, ename, evalue, traceback, interrupted: outcome.interrupted ?? false } };
      }
    }
    return { executedCells: executionCount };
  } finally {
    await session.shutdown(false);
  }
}
