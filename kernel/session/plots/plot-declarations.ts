// The types of the `plot` cell global, for completion and Shift+Tab in cells.
export const plotDeclarations = `
/** Data a plot reads: a tensor (read from the device), an array or a typed array of numbers. */
type PlotSeries = { readonly shape: readonly number[] } | ArrayLike<number>;
interface PlotOptions {
  title?: string;
  xLabel?: string;
  yLabel?: string;
  /** Plot area width in pixels (default 400). */
  width?: number;
  /** Plot area height in pixels (default 250). */
  height?: number;
}
/** A chart on screen; update(...) takes the plot call's data arguments and redraws it in place. */
interface PlotHandle extends DisplayHandle {
  update(...data: unknown[]): Promise<void>;
}
interface LinePlotHandle extends PlotHandle {
  /**
   * Adds the next point of a live curve: a number or a one-element tensor, or { train: a, test: b } for several lines.
   * The display updates in place at most every 250 ms, and once more with the last point before the cell ends.
   * @example const curve = plot.line([], { title: 'loss', logY: true });
   * for (const [x, y] of batches) curve.append(step(x, y));
   */
  append(value: number | { readonly shape: readonly number[] } | Record<string, number | { readonly shape: readonly number[] }>): void;
}
interface Plot {
  /**
   * A line chart (Vega-Lite, with an SVG fallback), shown at once.
   * @example plot.line(losses); plot.line(steps, losses, { logY: true }); plot.line({ train, test }, { title: 'loss' })
   */
  line(y: PlotSeries | Record<string, PlotSeries>, options?: PlotOptions & { logY?: boolean }): LinePlotHandle;
  line(x: PlotSeries, y: PlotSeries, options?: PlotOptions & { logY?: boolean }): LinePlotHandle;
  /**
   * A scatter plot; color takes one label per point (class ids) and colors the points by it.
   * @example plot.scatter(xs, ys, { color: labels })
   */
  scatter(x: PlotSeries, y: PlotSeries, options?: PlotOptions & { color?: PlotSeries | readonly string[]; size?: number }): PlotHandle;
  /**
   * A histogram: counts in equal-width bins between the smallest and largest finite value.
   * @example plot.hist(tpu.randn([10000]), { bins: 50 })
   */
  hist(values: PlotSeries, options?: PlotOptions & { bins?: number }): PlotHandle;
  /**
   * A 2-D tensor as a heatmap PNG (colormap: a Vega scheme such as viridis, magma, greys, or 'gray'),
   * or an [H, W, 3 | 4] tensor as an RGB(A) image (values 0..1, or integers 0..255).
   * @example plot.image(weights, { colormap: 'magma' })
   */
  image(values: PlotSeries | readonly (readonly number[])[], options?: { colormap?: string; min?: number; max?: number; scale?: number }): DisplayHandle;
}
/** Charts of tensors and arrays: plot.line, plot.scatter, plot.hist, plot.image. */
declare const plot: Plot;
`;
