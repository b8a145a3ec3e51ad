// The types of the `progress` cell global, for completion and Shift+Tab in cells.
export const progressDeclarations = `
interface ProgressOptions {
  /** Number of steps; default the length or size of what is iterated, else unknown. */
  total?: number;
  /** Text before the bar. */
  label?: string;
  /** 'display' (default): an HTML bar updated in place; 'stream': \\r lines on stderr, for terminals (TPU_KERNEL_PROGRESS=stream). */
  output?: 'display' | 'stream';
}
/** A progress bar; iterating it iterates what it wraps and counts each step. */
interface ProgressBar<T> extends Iterable<T>, AsyncIterable<T> {
  /** Counts n more steps done (default 1). */
  update(n?: number): void;
  /** Figures shown after the counts: bar.postfix({ loss }) (numbers or one-element tensors). */
  postfix(values: Record<string, unknown>): void;
  /** Draws the final state (a loop over the bar does it when it ends or breaks). */
  close(): void;
}
interface Progress {
  /**
   * Shows a progress bar while iterating (count, percent, elapsed, remaining, rate), redrawn in place at most every 100 ms.
   * @example for (const [x, y] of progress(batches, { label: 'epoch 1' })) step(x, y);
   */
  <T>(source: Iterable<T> | AsyncIterable<T>, options?: ProgressOptions): ProgressBar<T>;
  /**
   * Iterates 0 .. steps - 1 with a progress bar.
   * @example for (const i of progress(100)) train();
   */
  (steps: number, options?: Omit<ProgressOptions, 'total'>): ProgressBar<number>;
  /**
   * A manual bar: call bar.update(n) as work gets done.
   * @example const bar = progress({ total: files.length }); for (const f of files) { load(f); bar.update(); }
   */
  (options: ProgressOptions & { total: number }): ProgressBar<never>;
}
/** Progress bars: for (const b of progress(batches)) ..., or progress({ total }).update(n). */
declare const progress: Progress;
`;
