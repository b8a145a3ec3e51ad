// The `progress` cell global: `for (const b of progress(batches))`, `progress(100)` for
// 0..99, or a manual bar `const bar = progress({ total }); bar.update(n)`. The bar is an
// HTML display updated in place by display id (text/plain: the tqdm line, which nbconvert
// and `tpu-kernel run` keep); `output: 'stream'` (or TPU_KERNEL_PROGRESS=stream) writes
// `\r` lines to stderr instead, for terminals such as jupyter console, which do not apply
// display updates.
import { JUPYTER_DISPLAY } from '../../language-session.js';
import type { DisplayFunction, DisplayHandle } from '../outputs/display.js';
import { progressHtml, progressLine, type ProgressState } from './progress-text.js';

export const REDRAW_INTERVAL_MS = 100;

export type ProgressOutput = 'display' | 'stream';

export interface ProgressOptions {
  /** Number of steps; default the length or size of what is iterated, else unknown. */
  total?: number;
  /** Text before the bar. */
  label?: string;
  /** Where the bar goes: an HTML display updated in place, or `\r` lines on stderr. */
  output?: ProgressOutput;
}

const OPTION_NAMES = ['total', 'label', 'output'];
const MANUAL_NOT_ITERABLE = 'progress: a manual bar (progress({ total })) is not iterable: call bar.update(n)';

type Write = (name: 'stdout' | 'stderr', text: string) => void;

export class ProgressBar<T = number> {
  private readonly state: ProgressState;
  private readonly started = performance.now();
  private lastDrawn = -Infinity;
  private handle: DisplayHandle | undefined;
  private closed = false;

  constructor(
    private readonly source: Iterable<T> | AsyncIterable<T> | undefined,
    options: ProgressOptions,
    private readonly show: DisplayFunction,
    private readonly write: Write,
    private readonly output: ProgressOutput,
  ) {
    this.state = { label: options.label ?? '', count: 0, total: options.total ?? sizeOf(source), elapsedMs: 0, postfix: {} };
    this.draw(true);
  }

  /** Counts `n` more steps done (tqdm's update). */
  update(n = 1): void {
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new TypeError(`progress: update(n) takes a number of steps, got ${String(n)}`);
    this.state.count += n;
    this.draw(this.state.total !== undefined && this.state.count >= this.state.total);
  }

  /** Figures shown after the counts, e.g. `bar.postfix({ loss })` (numbers or one-element tensors). */
  postfix(values: Record<string, unknown>): void {
    this.state.postfix = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, scalarOf(v)]));
    this.draw(false);
  }

  /** Draws the final state; a loop over the bar closes it when it ends or breaks. */
  close(): void {
    if (this.closed) return;
    this.draw(true);
    this.closed = true;
    if (this.output === 'stream') this.write('stderr', '\n');
  }

  *[Symbol.iterator](): Iterator<T> {
    if (!this.source) throw new TypeError(MANUAL_NOT_ITERABLE);
    if (!(Symbol.iterator in this.source)) throw new TypeError('progress: this bar wraps an async iterable: use for await');
    try {
      for (const item of this.source) {
        yield item;
        this.update();
      }
    } finally {
      this.close();
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (!this.source) throw new TypeError(MANUAL_NOT_ITERABLE);
    try {
      for await (const item of this.source) {
        yield item;
        this.update();
      }
    } finally {
      this.close();
    }
  }

  private draw(now: boolean): void {
    if (this.closed) return;
    const time = performance.now();
    if (!now && time - this.lastDrawn < REDRAW_INTERVAL_MS) return;
    this.lastDrawn = time;
    this.state.elapsedMs = time - this.started;
    if (this.output === 'stream') return this.write('stderr', `\r${progressLine(this.state)}`);
    const bundle = { 'text/html': progressHtml(this.state), 'text/plain': progressLine(this.state) };
    const shown = { [JUPYTER_DISPLAY]: () => bundle };
    if (this.handle) void this.handle.update(shown);
    else this.handle = this.show(shown);
  }
}

function sizeOf(source: unknown): number | undefined {
  const sized = source as { length?: unknown; size?: unknown } | undefined;
  if (typeof sized?.length === 'number') return sized.length;
  if (typeof sized?.size === 'number') return sized.size;
  return undefined;
}

function scalarOf(value: unknown): unknown {
  const t = value as { shape?: unknown; dataSync?: () => ArrayLike<number> } | null;
  if (t && Array.isArray(t.shape) && typeof t.dataSync === 'function' && t.shape.reduce((a: number, b: number) => a * b, 1) === 1) return Number(t.dataSync()[0]);
  return value;
}

function* range(n: number): Iterable<number> {
  for (let i = 0; i < n; i++) yield i;
}

export function defaultProgressOutput(env: NodeJS.ProcessEnv = process.env): ProgressOutput {
  return env.TPU_KERNEL_PROGRESS === 'stream' ? 'stream' : 'display';
}

export function createProgress(display: DisplayFunction, write: Write, output = defaultProgressOutput()) {
  function progress<T>(source: Iterable<T> | AsyncIterable<T>, options?: ProgressOptions): ProgressBar<T>;
  function progress(steps: number, options?: Omit<ProgressOptions, 'total'>): ProgressBar<number>;
  function progress(options: ProgressOptions & { total: number }): ProgressBar<never>;
  function progress(first: unknown, options: ProgressOptions = {}): ProgressBar<unknown> {
    const isOptions = typeof first === 'object' && first !== null && !(Symbol.iterator in first) && !(Symbol.asyncIterator in first);
    const opts = (isOptions ? first : options) as ProgressOptions;
    for (const name of Object.keys(opts)) {
      if (!OPTION_NAMES.includes(name)) throw new TypeError(`progress: unknown option '${name}' (options: ${OPTION_NAMES.join(', ')})`);
    }
    if (opts.output !== undefined && opts.output !== 'display' && opts.output !== 'stream') {
      throw new TypeError(`progress: output must be 'display' or 'stream', got ${JSON.stringify(opts.output)}`);
    }
    if (typeof first === 'number') {
      if (!Number.isInteger(first) || first < 0) throw new TypeError(`progress(n): n must be a non-negative integer, got ${first}`);
      return new ProgressBar(range(first), { total: first, ...opts }, display, write, opts.output ?? output);
    }
    if (isOptions) return new ProgressBar(undefined, opts, display, write, opts.output ?? output);
    if (typeof first !== 'object' || first === null) throw new TypeError(`progress: expected an iterable, a number of steps or { total }, got ${first === null ? 'null' : typeof first}`);
    return new ProgressBar(first as Iterable<unknown>, opts, display, write, opts.output ?? output);
  }
  return progress;
}
