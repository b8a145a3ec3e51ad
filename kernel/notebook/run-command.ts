// `tpu-kernel run NOTEBOOK.ipynb [--output OUT.ipynb] [--mode MODE]`: executes a
// notebook headless, without Jupyter, with the kernel's own session code.
import { dirname, resolve } from 'node:path';
import { readNotebook, writeNotebook } from './nbformat.js';
import { runNotebook, type CellFailure } from './run-notebook.js';
import { createTerminalEcho } from './terminal-echo.js';

const MODES = ['debug', 'strict', 'fused'];

const RUN_USAGE = `usage: tpu-kernel run NOTEBOOK.ipynb [--output OUT.ipynb] [--mode debug|strict|fused]

Executes every code cell in order with the kernel's session, writes the outputs
into the notebook (in place, like nbconvert --inplace; or into --output), echoes
text outputs to the terminal, and exits non-zero on the first failing cell
(cells tagged "raises-exception" may fail).`;

interface RunArguments {
  notebook: string;
  output?: string;
  mode?: string;
}

class UsageError extends Error {}

function parseArguments(args: string[]): RunArguments {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.split(/=(.*)/s, 2);
    if (flag === '--output' || flag === '--mode') {
      const value = inline ?? args[++i];
      if (value === undefined || value === '') throw new UsageError(`${flag}: expected a value, got nothing`);
      options[flag.slice(2)] = value;
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}: expected --output or --mode`);
    } else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError(`expected one notebook path, got ${positional.length}${positional.length ? `: ${positional.join(' ')}` : ''}`);
  if (options.mode !== undefined && !MODES.includes(options.mode)) {
    throw new UsageError(`--mode: expected one of ${MODES.join(', ')}, got '${options.mode}'`);
  }
  return { notebook: positional[0], output: options.output, mode: options.mode };
}

function excerpt(source: string, maxLines = 8): string {
  const lines = source.split('\n');
  const shown = lines.slice(0, maxLines).map((line) => `    ${line}`);
  if (lines.length > maxLines) shown.push(`    ... (${lines.length - maxLines} more lines)`);
  return shown.join('\n');
}

function describeFailure(path: string, failure: CellFailure): string {
  const what = failure.interrupted ? 'was interrupted' : 'failed';
  // Tracebacks may carry ANSI colors for frontends; keep them for terminals.
  return [
    // Numbered as a user sees the cell: its place in the notebook from 1 (markdown cells count)
    // and its prompt In [n], which tracebacks name cell-n.ts (nbconvert shows the traceback's In [n]).
    `\ntpu-kernel run: ${path}: cell ${failure.cellIndex + 1} (In [${failure.executionCount}]) ${what}:`,
    excerpt(failure.source),
    failure.traceback.length ? failure.traceback.join('\n') : `${failure.ename}: ${failure.evalue}`,
    '',
  ].join('\n');
}

/** Runs the `run` subcommand; resolves to the process exit code. */
export async function runCommand(args: string[]): Promise<number> {
  let parsed: RunArguments;
  try {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(RUN_USAGE + '\n');
      return 0;
    }
    parsed = parseArguments(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`tpu-kernel run: ${e.message}\n${RUN_USAGE}\n`);
    return 2;
  }
  const input = resolve(parsed.notebook);
  const output = resolve(parsed.output ?? parsed.notebook);
  let notebook;
  try {
    notebook = readNotebook(input);
  } catch (e) {
    process.stderr.write(`tpu-kernel run: ${(e as Error).message}\n`);
    return 2;
  }
  // The runtime reads its default mode from the environment when the session starts.
  if (parsed.mode !== undefined) process.env.TPU_KERNEL_MODE = parsed.mode;

  let interrupt: (() => void) | undefined;
  const onSigint = () => (interrupt ? interrupt() : process.exit(130));
  process.on('SIGINT', onSigint);
  try {
    const result = await runNotebook(notebook, {
      cwd: dirname(input),
      observer: createTerminalEcho(process.stdout, process.stderr),
      onInterruptible: (fn) => (interrupt = fn),
    });
    writeNotebook(output, notebook);
    if (result.failure) {
      process.stderr.write(describeFailure(parsed.notebook, result.failure));
      process.stderr.write(`outputs up to the failing cell written to ${output}\n`);
      return result.failure.interrupted ? 130 : 1;
    }
    process.stderr.write(`tpu-kernel run: ${result.executedCells} cells executed, outputs written to ${output}\n`);
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
