// Errors of a cell as Jupyter error content (ename, evalue, traceback): runtime
// errors with source-mapped frames, syntax and type errors at a line and
// column, interrupts. Tracebacks are plain text lines, one frame per line,
// ending with the offending cell line and a caret.
import { inspect } from 'node:util';
import type { ErrorInfo } from '../../language-session.js';
import type { CellSourceMaps } from './cell-source-maps.js';

/** Thrown into a cell that is interrupted while it awaits. */
export class CellInterruptedError extends Error {
  override readonly name = 'InterruptedError';
  constructor() {
    super('the cell was interrupted');
  }
}

/** Thrown by magics on bad usage; shown without a stack. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A cell that could not be compiled; carries the error content to show. */
export class CellCompileError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.evalue);
    this.name = info.ename;
  }
}

/** Lines `cell-3.ts:2:5`, `  2 | code`, `    |     ^` pointing at one place of a cell. */
export function codeFrame(displayName: string, source: string, line: number, column: number): string[] {
  const text = source.split('\n')[line - 1] ?? '';
  const gutter = String(line);
  return [`${displayName}:${line}:${column}`, `${gutter} | ${text}`, `${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, column - 1))}^`];
}

/** Error-like values from any realm (the cell's context has its own Error). */
function isErrorLike(value: unknown): value is { name: string; message: string; stack?: string; code?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

export function isInterrupt(error: unknown): boolean {
  return error instanceof CellInterruptedError || (isErrorLike(error) && error.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') || isCancelledDeviceWait(error);
}

/** The tensor runtime's CancelledError: a blocking device wait woken by an interrupt (or work dropped by one). */
export function isCancelledDeviceWait(error: unknown): boolean {
  return isErrorLike(error) && error.name === 'CancelledError';
}

/** Frames that belong to the kernel's own machinery, not to the user's code. */
const INTERNAL_FRAME = /\(node:|at node:|tpu-kernel-step|at Generator\.(next|throw) \(<anonymous>\)|[\\/]kernel[\\/]session[\\/]|^\s+at new Promise \(<anonymous>\)$/;

const CELL_FRAME = /[( ](cell-\d+|expression)\.ts:\d+:\d+\)?$/;

export function runtimeErrorInfo(error: unknown, maps: CellSourceMaps): ErrorInfo {
  if (!isErrorLike(error)) {
    return { ename: 'Error', evalue: `Uncaught ${inspect(error)}`, traceback: [`Uncaught ${inspect(error)}`] };
  }
  const ename = error.name || 'Error';
  if (error instanceof CellCompileError) return error.info;
  if (error instanceof UsageError) return { ename, evalue: error.message, traceback: [`${ename}: ${error.message}`] };
  // A message may name where cell code called (the runtime's errors do): in cell coordinates, like the frames.
  const message = maps.mapStack(error.message).stack;
  const { stack, first } = maps.mapStack(error.stack ?? '');
  const traceback = [`${ename}: ${message}`, ...userFrames(stack)];
  if (first) traceback.push('', ...codeFrame(first.displayName, first.source, first.line, first.column));
  return { ename, evalue: message, traceback };
}

/**
 * The frames of the user's code and the libraries it called: not the kernel's
 * machinery, not the cell wrapper's own call (the frame before
 * Script.runInContext), nothing below the outermost cell frame.
 */
function userFrames(stack: string): string[] {
  const lines = stack.split('\n').filter((line) => /^\s+at /.test(line));
  const frames = lines.filter((line, i) => !INTERNAL_FRAME.test(line) && !/Script\.runInContext/.test(lines[i + 1] ?? ''));
  const lastCellFrame = frames.findLastIndex((line) => CELL_FRAME.test(line));
  return lastCellFrame < 0 ? frames : frames.slice(0, lastCellFrame + 1);
}

export function interruptedErrorInfo(): ErrorInfo & { interrupted: true } {
  const error = new CellInterruptedError();
  return { ename: error.name, evalue: error.message, traceback: [`${error.name}: ${error.message}`], interrupted: true };
}

/** One error outcome for several problems found at compile time (syntax or type errors). */
export function sourceErrorInfo(
  ename: string, displayName: string, source: string,
  problems: { message: string; line: number; column: number }[],
): ErrorInfo {
  const [first] = problems;
  const evalue = `${first.message} (${displayName}:${first.line}:${first.column})`;
  const traceback = problems.flatMap((p) => [`${ename}: ${p.message}`, ...codeFrame(displayName, source, p.line, p.column), '']);
  return { ename, evalue, traceback: traceback.slice(0, -1) };
}
