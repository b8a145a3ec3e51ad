// A 2-D grid as a heatmap PNG (values through a color scheme) or an [H, W, 3 | 4]
// image as RGB(A), enlarged by whole pixels so a 28x28 digit is not a speck.
import type { Matrix } from './plot-values.js';
import { colorScheme } from './svg-fallback.js';

export interface ImageOptions {
  /** A Vega color scheme for 2-D grids (viridis, magma, inferno, plasma, greys, blues, ...) or 'gray' (black to white). */
  colormap?: string;
  /** Value range mapped to the ends of the color scheme; default the data's min and max. */
  min?: number;
  max?: number;
  /** Whole-pixel enlargement; default makes the longer side at least 256 pixels. */
  scale?: number;
}

const LEVELS = 256;

/** 256 RGB entries of a color scheme, from its CSS colors ('#rrggbb' or 'rgb(r, g, b)'). */
async function palette(name: string): Promise<Uint8Array> {
  const table = new Uint8Array(LEVELS * 3);
  if (name === 'gray') {
    for (let i = 0; i < LEVELS; i++) table.fill(i, i * 3, i * 3 + 3);
    return table;
  }
  const interpolate = await colorScheme(name);
  if (!interpolate) throw new TypeError(`plot.image: unknown colormap '${name}' (Vega's continuous schemes, e.g. viridis, magma, greys, or 'gray')`);
  for (let i = 0; i < LEVELS; i++) table.set(cssRgb(interpolate(i / (LEVELS - 1))), i * 3);
  return table;
}

function cssRgb(color: string): number[] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (hex) return hex.slice(1).map((h) => parseInt(h, 16));
  const rgb = /^rgb\((\d+), ?(\d+), ?(\d+)\)$/.exec(color);
  if (rgb) return rgb.slice(1).map(Number);
  throw new Error(`plot.image: unexpected color '${color}' from the color scheme`);
}

/** RGBA bytes of the grid at one pixel per value. */
async function pixels(m: Matrix, options: ImageOptions): Promise<Uint8Array> {
  const n = m.rows * m.cols;
  const out = new Uint8Array(n * 4).fill(255);
  if (m.channels === 1) {
    let lo = options.min ?? Infinity, hi = options.max ?? -Infinity;
    if (options.min === undefined || options.max === undefined) {
      for (let i = 0; i < n; i++) {
        const v = m.values[i]!;
        if (!Number.isFinite(v)) continue;
        if (options.min === undefined) lo = Math.min(lo, v);
        if (options.max === undefined) hi = Math.max(hi, v);
      }
    }
    const table = await palette(options.colormap ?? 'viridis');
    const span = hi > lo ? hi - lo : 1;
    for (let i = 0; i < n; i++) {
      const v = m.values[i]!;
      if (Number.isNaN(v)) { out[i * 4 + 3] = 0; continue; } // NaN is transparent
      const level = Math.round(Math.min(1, Math.max(0, (v - lo) / span)) * (LEVELS - 1));
      out.set(table.subarray(level * 3, level * 3 + 3), i * 4);
    }
    return out;
  }
  // Colors: integers above 1 are 0..255 bytes, anything else 0..1 (matplotlib's imshow rule).
  let bytes = true;
  for (let i = 0; i < m.values.length && bytes; i++) bytes = Number.isInteger(m.values[i]);
  let max = 0;
  for (let i = 0; i < m.values.length; i++) max = Math.max(max, m.values[i]!);
  const unit = bytes && max > 1 ? 1 : 255;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < m.channels; c++) out[i * 4 + c] = Math.round(Math.min(255, Math.max(0, m.values[i * m.channels + c]! * unit)));
  }
  return out;
}

/** PNG bytes of the grid, each value drawn as a scale x scale block. */
export async function imagePng(m: Matrix, options: ImageOptions): Promise<Uint8Array> {
  const scale = options.scale ?? Math.max(1, Math.floor(256 / Math.max(m.rows, m.cols)));
  if (!Number.isInteger(scale) || scale < 1) throw new TypeError(`plot.image: scale must be a positive integer, got ${scale}`);
  const small = await pixels(m, options);
  const width = m.cols * scale, height = m.rows * scale;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (Math.floor(y / scale) * m.cols + Math.floor(x / scale)) * 4;
      data.set(small.subarray(from, from + 4), (y * width + x) * 4);
    }
  }
  const { encode } = await import('fast-png');
  return encode({ width, height, data, channels: 4, depth: 8 });
}
