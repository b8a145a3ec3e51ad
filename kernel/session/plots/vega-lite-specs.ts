// Vega-Lite v5 specs of the plot kinds: data inline (each output is self-contained),
// PyTorch-notebook defaults (matplotlib's look is not the goal, a readable chart is).
import type { TopLevelSpec } from 'vega-lite';

export const VEGA_LITE_MIME = 'application/vnd.vegalite.v5+json';
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

export interface ChartOptions {
  title?: string;
  xLabel?: string;
  yLabel?: string;
  /** Plot area size in pixels. */
  width?: number;
  height?: number;
}

export interface LineOptions extends ChartOptions {
  /** A log-scaled y axis (loss curves). */
  logY?: boolean;
}

export interface ScatterOptions extends ChartOptions {
  /** One label per point (class ids, names): points are colored by it. */
  color?: unknown;
  /** Point area in square pixels. */
  size?: number;
}

export interface HistOptions extends ChartOptions {
  /** Number of equal-width bins between the smallest and largest value. */
  bins?: number;
}

/** One row per point; `series` names the line a point belongs to when there are several. */
export interface Point {
  x: number;
  y: number;
  series?: string;
}

const OPTION_NAMES = {
  line: ['title', 'xLabel', 'yLabel', 'width', 'height', 'logY'],
  scatter: ['title', 'xLabel', 'yLabel', 'width', 'height', 'color', 'size'],
  hist: ['title', 'xLabel', 'yLabel', 'width', 'height', 'bins'],
  image: ['colormap', 'min', 'max', 'scale'],
} as const;

/** Options are checked by name so a typo is an error, not a silently ignored setting. */
export function checkOptions(kind: keyof typeof OPTION_NAMES, options: object | undefined): void {
  const known: readonly string[] = OPTION_NAMES[kind];
  for (const name of Object.keys(options ?? {})) {
    if (!known.includes(name)) throw new TypeError(`plot.${kind}: unknown option '${name}' (options: ${known.join(', ')})`);
  }
}

function frame(options: ChartOptions): { $schema: string; title?: string; width: number; height: number } {
  return {
    $schema: SCHEMA,
    ...(options.title === undefined ? {} : { title: options.title }),
    width: options.width ?? 400,
    height: options.height ?? 250,
  };
}

export function lineSpec(points: Point[], options: LineOptions): TopLevelSpec {
  const several = points.some((p) => p.series !== undefined);
  return {
    ...frame(options),
    data: { values: points.slice() },
    mark: { type: 'line', point: points.length <= 30, tooltip: true },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: options.xLabel ?? 'x' },
      y: { field: 'y', type: 'quantitative', title: options.yLabel ?? 'y', scale: options.logY ? { type: 'log' } : { zero: false } },
      ...(several ? { color: { field: 'series', type: 'nominal', title: null } } : {}),
    },
  };
}

export function scatterSpec(points: Point[], options: ScatterOptions): TopLevelSpec {
  const colored = points.some((p) => p.series !== undefined);
  return {
    ...frame(options),
    data: { values: points.slice() },
    mark: { type: 'point', filled: true, size: options.size ?? 30, tooltip: true },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: options.xLabel ?? 'x', scale: { zero: false } },
      y: { field: 'y', type: 'quantitative', title: options.yLabel ?? 'y', scale: { zero: false } },
      ...(colored ? { color: { field: 'series', type: 'nominal', title: null } } : {}),
    },
  };
}

export interface Bin {
  start: number;
  end: number;
  count: number;
}

export function histSpec(bins: Bin[], options: HistOptions): TopLevelSpec {
  return {
    ...frame(options),
    data: { values: bins.slice() },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'start', type: 'quantitative', bin: { binned: true }, title: options.xLabel ?? 'value' },
      x2: { field: 'end' },
      y: { field: 'count', type: 'quantitative', title: options.yLabel ?? 'count' },
    },
  };
}

/**
 * Equal-width bins from the smallest to the largest finite value, the last one closed
 * (numpy.histogram, torch.histc); non-finite values are left out.
 */
export function histogram(values: readonly number[], binCount: number): Bin[] {
  if (!Number.isInteger(binCount) || binCount < 1) throw new TypeError(`plot.hist: bins must be a positive integer, got ${binCount}`);
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [];
  let lo = finite[0]!, hi = lo;
  for (const v of finite) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
  if (lo === hi) (lo -= 0.5), (hi += 0.5);
  const width = (hi - lo) / binCount;
  const counts = new Array<number>(binCount).fill(0);
  for (const v of finite) counts[Math.min(binCount - 1, Math.floor((v - lo) / width))]! += 1;
  return counts.map((count, i) => ({ start: lo + i * width, end: i === binCount - 1 ? hi : lo + (i + 1) * width, count }));
}
