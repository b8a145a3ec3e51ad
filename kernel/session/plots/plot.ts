// The `plot` cell global: line, scatter, hist and image charts from tensors or arrays,
// shown at once (no need to end the cell with them) and returning a handle whose
// update()/append() redraws the same output in place.
import { DisplayHandle, type DisplayFunction } from '../outputs/display.js';
import { ChartDisplay, shown, type Chart } from './chart-display.js';
import { imagePng, type ImageOptions } from './image-png.js';
import { isTensorLike, readMatrix, readScalar, readSeries } from './plot-values.js';
import {
  checkOptions, histogram, histSpec, lineSpec, scatterSpec,
  type HistOptions, type LineOptions, type Point, type ScatterOptions,
} from './vega-lite-specs.js';

type Track = (work: Promise<unknown>) => void;

/** A chart on screen; `update(...)` takes what the plot call took (without options) and redraws it. */
export class PlotHandle extends DisplayHandle {
  constructor(chart: ChartDisplay, update: (...args: unknown[]) => void) {
    super(chart.handle.displayId, async (...args: unknown[]) => {
      update(...args);
      chart.changed();
    });
  }
}

/** A line chart; `append(y)` adds the next point of a live curve (a loss per step). */
export class LinePlotHandle extends PlotHandle {
  constructor(chart: ChartDisplay, update: (...args: unknown[]) => void, private readonly appendPoint: (value: unknown) => void) {
    super(chart, update);
    this.append = (value: unknown) => (this.appendPoint(value), chart.changed());
  }

  /** Adds one point per series: a number or a one-element tensor, or `{ name: value }` for several lines. */
  readonly append: (value: unknown) => void;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !isTensorLike(value);

/** The points of `line(y)`, `line(x, y)` or `line({ name: y, ... })`. */
function linePoints(first: unknown, second: unknown): Point[] {
  if (second !== undefined) {
    const x = readSeries(first, 'plot.line x'), y = readSeries(second, 'plot.line y');
    if (x.length !== y.length) throw new TypeError(`plot.line: x has ${x.length} values and y ${y.length}`);
    return y.map((v, i) => ({ x: x[i]!, y: v }));
  }
  if (isPlainObject(first)) {
    return Object.entries(first).flatMap(([series, values]) => readSeries(values, `plot.line ${series}`).map((y, x) => ({ x, y, series })));
  }
  return readSeries(first, 'plot.line y').map((y, x) => ({ x, y }));
}

/** `(data..., options?)` of a plot call with `count` data arguments. */
function optionsAfter<O extends object>(kind: string, args: unknown[], count: number): O {
  if (args.length < count) throw new TypeError(`plot.${kind}: expected ${count} data argument${count > 1 ? 's' : ''}, got ${args.length}`);
  if (args.length > count + 1) throw new TypeError(`plot.${kind}: expected at most ${count} data arguments and an options object, got ${args.length} arguments`);
  const options = args[count] ?? {};
  if (!isPlainObject(options)) throw new TypeError(`plot.${kind}: the options must be an object, got ${typeof options}`);
  return options as O;
}

export type Plot = ReturnType<typeof createPlot>;

export function createPlot(display: DisplayFunction, track: Track) {
  const chart = (spec: Chart['spec'], summary: Chart['summary']) => new ChartDisplay(display, track, { spec, summary });

  return {
    /** `line(y)`, `line(x, y)`, `line({ train: a, test: b })`, each with options last. */
    line(...args: unknown[]): LinePlotHandle {
      // line(y, options) and line({ a, b }, options) vs line(x, y): the second argument is data unless it is a plain object.
      const hasX = args.length >= 2 && !isPlainObject(args[1]);
      const options = optionsAfter<LineOptions>('line', args, hasX ? 2 : 1);
      checkOptions('line', options);
      let points = linePoints(args[0], hasX ? args[1] : undefined);
      const perSeries = () => new Map<string | undefined, number>(points.map((p) => [p.series, p.x]));
      const view = chart(() => lineSpec(points, options), () => `<line plot: ${points.length} points>`);
      return new LinePlotHandle(view, (...next) => (points = linePoints(next[0], next[1])), (value) => {
        const last = perSeries();
        const add = (series: string | undefined, y: unknown) =>
          points.push({ x: (last.get(series) ?? -1) + 1, y: readScalar(y, 'append'), ...(series === undefined ? {} : { series }) });
        if (isPlainObject(value)) for (const [series, y] of Object.entries(value)) add(series, y);
        else add(undefined, value);
      });
    },

    /** `scatter(x, y, { color: labels })`. */
    scatter(...args: unknown[]): PlotHandle {
      const options = optionsAfter<ScatterOptions>('scatter', args, 2);
      checkOptions('scatter', options);
      const pointsOf = (xs: unknown, ys: unknown, colors: unknown) => {
        const x = readSeries(xs, 'plot.scatter x'), y = readSeries(ys, 'plot.scatter y');
        const labels = colors === undefined ? undefined : Array.isArray(colors) && typeof colors[0] === 'string' ? colors.map(String) : readSeries(colors, 'plot.scatter color').map(String);
        if (x.length !== y.length || (labels && labels.length !== x.length)) {
          throw new TypeError(`plot.scatter: x, y${labels ? ' and color' : ''} differ in length (${x.length}, ${y.length}${labels ? `, ${labels.length}` : ''})`);
        }
        return x.map((xi, i): Point => ({ x: xi, y: y[i]!, ...(labels ? { series: labels[i]! } : {}) }));
      };
      let points = pointsOf(args[0], args[1], options.color);
      const view = chart(() => scatterSpec(points, options), () => `<scatter plot: ${points.length} points>`);
      return new PlotHandle(view, (x, y, color) => (points = pointsOf(x, y, color ?? options.color)));
    },

    /** `hist(values, { bins: 30 })`: counts in equal-width bins. */
    hist(values: unknown, options: HistOptions = {}): PlotHandle {
      checkOptions('hist', options);
      const binsOf = (v: unknown) => histogram(readSeries(v, 'plot.hist values'), options.bins ?? 30);
      let bins = binsOf(values);
      const view = chart(() => histSpec(bins, options), () => `<histogram: ${bins.reduce((n, b) => n + b.count, 0)} values in ${bins.length} bins>`);
      return new PlotHandle(view, (next) => (bins = binsOf(next)));
    },

    /** `image(t)`: a 2-D tensor as a heatmap, or [H, W, 3 | 4] as an RGB(A) image (PNG). */
    image(values: unknown, options: ImageOptions = {}): DisplayHandle {
      checkOptions('image', options);
      const bundleOf = (v: unknown) => {
        const matrix = readMatrix(v, 'plot.image');
        return shown(imagePng(matrix, options).then((png) => ({
          'image/png': Buffer.from(png).toString('base64'),
          'text/plain': `<image ${matrix.rows}x${matrix.cols}${matrix.channels > 1 ? `x${matrix.channels}` : ''}>`,
        })));
      };
      const handle = display(bundleOf(values));
      return new DisplayHandle(handle.displayId, (next) => handle.update(bundleOf(next)));
    },
  };
}
