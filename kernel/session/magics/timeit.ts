import { UsageError } from '../cells/cell-errors.js';
import { formatDuration } from './format-duration.js';
import type { Magic } from './magic.js';

/** Loops per run are raised until one run takes at least this long. */
const MIN_RUN_MS = 50;
const DEFAULT_RUNS = 5;

export const timeit: Magic = {
  name: 'timeit',
  summary: 'Time code over many loops: mean ± std. dev. per loop.',
  help: [
    '%timeit [-n LOOPS] [-r RUNS] <code>',
    '%timeit [-n LOOPS] [-r RUNS]      (alone on a line) time the rest of the cell',
    '',
    'Compiles the code once, then makes RUNS runs (default 5) of LOOPS loops',
    `(default: raised 1, 2, 5, 10, ... until a run takes ${MIN_RUN_MS} ms). Each loop waits for`,
    'the device work it queued (tpu.sync()). Prints mean ± std. dev. per loop.',
  ].join('\n'),
  argsAreCode: true,
  codeOffset: (args) => leadingOptions(args).length,
  takesCellBody: true,
  async run(context) {
    const { loops, runs, code } = parseOptions(context.args);
    const compiled = context.compileArgs(context.args.length - code.length);
    const loop = async () => {
      await compiled();
      await context.syncDevice();
    };
    const timeRun = async (n: number) => {
      const start = performance.now();
      for (let i = 0; i < n; i++) {
        if (context.signal.aborted) throw context.signal.reason;
        await loop();
      }
      return performance.now() - start;
    };
    let perRun = loops;
    if (perRun === undefined) {
      perRun = 1;
      for (let step = 0; (await timeRun(perRun)) < MIN_RUN_MS; step++) perRun = [1, 2, 5][(step + 1) % 3] * 10 ** Math.floor((step + 1) / 3);
    }
    const perLoop: number[] = [];
    for (let r = 0; r < runs; r++) perLoop.push((await timeRun(perRun)) / perRun);
    const mean = perLoop.reduce((a, b) => a + b, 0) / perLoop.length;
    const std = Math.sqrt(perLoop.reduce((a, b) => a + (b - mean) ** 2, 0) / perLoop.length);
    context.write('stdout', `${formatDuration(mean)} ± ${formatDuration(std)} per loop (mean ± std. dev. of ${runs} run${runs > 1 ? 's' : ''}, ${perRun} loop${perRun > 1 ? 's' : ''} each)\n`);
  },
};

const OPTION = /^\s*-([nr])\s+(\S+)\s*/;

/** The `-n N -r R` text the args start with (unchecked). */
function leadingOptions(args: string): string {
  let length = 0;
  for (let match; (match = OPTION.exec(args.slice(length))); ) length += match[0].length;
  return args.slice(0, length);
}

function parseOptions(args: string): { loops?: number; runs: number; code: string } {
  let rest = args;
  let loops: number | undefined;
  let runs = DEFAULT_RUNS;
  for (let match; (match = OPTION.exec(rest)); rest = rest.slice(match[0].length)) {
    const value = Number(match[2]);
    if (!Number.isInteger(value) || value < 1) throw new UsageError(`%timeit: -${match[1]} must be a positive integer, got '${match[2]}'`);
    if (match[1] === 'n') loops = value;
    else runs = value;
  }
  if (!rest.trim()) throw new UsageError('%timeit: no code to time (write it after the options, or on the next lines)');
  return { loops, runs, code: rest };
}
