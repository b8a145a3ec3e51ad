export { runCommand, RUN_USAGE } from './run-command.js';
export { runNotebook, RAISES_EXCEPTION_TAG, type RunOptions, type RunResult, type CellFailure, type RunObserver } from './run-notebook.js';
export { readNotebook, writeNotebook, type Notebook, type Cell, type CodeCell, type Output } from './nbformat.js';
export { OutputRecorder, type OutputObserver } from './output-recorder.js';
