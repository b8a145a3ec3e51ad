// The taps of interpolate along one dim: for each output position, the source indices it
// reads and their weights, by PyTorch's rules for each mode (its source-index arithmetic,
// its bicubic A = -0.75 with indices clamped to the border, its antialias filters).

export type InterpolateMode = 'nearest' | 'nearest-exact' | 'linear' | 'bilinear' | 'bicubic';

/** Taps of one dim: taps[k] holds the k-th source index and weight of every output position. */
export interface Taps {
  readonly index: number[][];
  /** undefined for the nearest modes: one tap of weight 1. */
  readonly weight: number[][] | undefined;
}

/** Source index per output index of size/scale; PyTorch's area_pixel_compute_scale. */
function ratio(inSize: number, outSize: number, scale: number | undefined, alignCorners: boolean): number {
  if (alignCorners) return outSize > 1 ? (inSize - 1) / (outSize - 1) : 0;
  return scale !== undefined ? 1 / scale : inSize / outSize;
}

// PyTorch's cubic convolution kernel, |x| ≤ 1 and 1 < |x| < 2
const cubic1 = (x: number, a: number) => ((a + 2) * x - (a + 3)) * x * x + 1;
const cubic2 = (x: number, a: number) => ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;

function nearest(inSize: number, outSize: number, r: number, exact: boolean): Taps {
  const index = Array.from({ length: outSize }, (_, i) => Math.min(Math.floor((i + (exact ? 0.5 : 0)) * r), inSize - 1));
  return { index: [index], weight: undefined };
}

function linear(inSize: number, outSize: number, r: number, alignCorners: boolean): Taps {
  const src = Array.from({ length: outSize }, (_, i) => (alignCorners ? i * r : Math.max((i + 0.5) * r - 0.5, 0)));
  const lo = src.map(Math.floor);
  return {
    index: [lo, lo.map((l) => Math.min(l + 1, inSize - 1))],
    weight: [src.map((s, k) => 1 - (s - lo[k]!)), src.map((s, k) => s - lo[k]!)],
  };
}

function bicubic(inSize: number, outSize: number, r: number, alignCorners: boolean): Taps {
  const A = -0.75;
  // unlike linear, the half-pixel source position is not clamped at 0
  const src = Array.from({ length: outSize }, (_, i) => (alignCorners ? i * r : (i + 0.5) * r - 0.5));
  const lo = src.map(Math.floor);
  const t = src.map((s, k) => s - lo[k]!);
  const clamp = (i: number) => Math.min(Math.max(i, 0), inSize - 1);
  return {
    index: [-1, 0, 1, 2].map((d) => lo.map((l) => clamp(l + d))),
    weight: [t.map((v) => cubic2(v + 1, A)), t.map((v) => cubic1(v, A)), t.map((v) => cubic1(1 - v, A)), t.map((v) => cubic2(2 - v, A))],
  };
}

/** PyTorch's antialiased resampling (its _upsample_*_aa): a filter widened by the downscale, weights normalized over the taps inside the input. */
function antialiased(inSize: number, outSize: number, r: number, cubic: boolean): Taps {
  const filter = cubic
    ? (x: number) => { x = Math.abs(x); return x < 1 ? cubic1(x, -0.5) : x < 2 ? cubic2(x, -0.5) : 0; }
    : (x: number) => Math.max(1 - Math.abs(x), 0);
  const halfWidth = cubic ? 2 : 1;
  const support = r >= 1 ? halfWidth * r : halfWidth;
  const invScale = r >= 1 ? 1 / r : 1;
  const rows = Array.from({ length: outSize }, (_, i) => {
    const center = r * (i + 0.5);
    const min = Math.max(Math.trunc(center - support + 0.5), 0);
    const size = Math.min(Math.trunc(center + support + 0.5), inSize) - min;
    const w = Array.from({ length: size }, (_, j) => filter((j + min - center + 0.5) * invScale));
    const total = w.reduce((a, b) => a + b, 0);
    return { min, w: total === 0 ? w : w.map((v) => v / total) };
  });
  const width = Math.max(...rows.map((row) => row.w.length));
  // positions with fewer taps read their first source with weight 0 in the spare ones
  return {
    index: Array.from({ length: width }, (_, k) => rows.map((row) => row.min + (k < row.w.length ? k : 0))),
    weight: Array.from({ length: width }, (_, k) => rows.map((row) => row.w[k] ?? 0)),
  };
}

/** The taps of one dim of interpolate from inSize to outSize (scale: the scale factor PyTorch's kernel is given, if any). */
export function interpolateTaps(inSize: number, outSize: number, scale: number | undefined, mode: InterpolateMode, alignCorners: boolean, antialias: boolean): Taps {
  if (mode === 'nearest' || mode === 'nearest-exact') return nearest(inSize, outSize, scale !== undefined ? 1 / scale : inSize / outSize, mode === 'nearest-exact');
  const r = ratio(inSize, outSize, scale, alignCorners);
  if (antialias) return antialiased(inSize, outSize, r, mode === 'bicubic');
  return mode === 'bicubic' ? bicubic(inSize, outSize, r, alignCorners) : linear(inSize, outSize, r, alignCorners);
}
