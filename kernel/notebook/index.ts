// Headless notebook runs (`tpu-kernel run`) with the kernel's own session.
export { runCommand } from './run-command.js';
export { runNotebook, type RunOptions, type RunResult, type CellFailure } from './run-notebook.js';
export { readNotebook, writeNotebook, type Notebook, type Cell, type CodeCell, type Output } from './nbformat.js';
