// Printing tensors like PyTorch: values aligned, floats with 4 decimals or scientific
// notation, summarised with "..." past 1000 elements (3 items at each edge).
import type { DType, HostArray } from './dtype.js';
import { formatShape, numel, type Shape } from './shape.js';

const THRESHOLD = 1000;
const EDGE = 3;

function numberFormatter(values: HostArray, dtype: DType): (v: number | bigint) => string {
  if (dtype === 'bool') return (v) => (v ? 'True' : 'False');
  if (dtype === 'int32' || dtype === 'int64') return (v) => String(v);
  let maxAbs = 0;
  let minAbs = Infinity;
  let integral = true;
  for (const v of values as Float32Array) {
    if (!Number.isFinite(v)) continue;
    const a = Math.abs(v);
    if (a > maxAbs) maxAbs = a;
    if (a > 0 && a < minAbs) minAbs = a;
    if (!Number.isInteger(v)) integral = false;
  }
  const special = (v: number) => (Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf');
  // JS formats -0 as 0; PyTorch prints its sign (-0.0000, -0.)
  const float = (f: (v: number) => string) => (v: number | bigint) =>
    (Object.is(v, -0) ? `-${f(0)}` : Number.isFinite(v) ? f(v as number) : special(v as number));
  if (integral && maxAbs < 1e8) return float((v) => `${v}.`);
  const sci = maxAbs >= 1e8 || minAbs < 1e-4 || maxAbs / minAbs > 1000;
  if (sci) return float((v) => v.toExponential(4).replace(/e([+-])(\d)$/, 'e$10$2'));
  return float((v) => v.toFixed(4));
}

/** The indices shown along one dimension (all, or EDGE at each end around an ellipsis). */
function shown(n: number, summarise: boolean): (number | null)[] {
  if (!summarise || n <= 2 * EDGE) return Array.from({ length: n }, (_, i) => i);
  return [...Array.from({ length: EDGE }, (_, i) => i), null, ...Array.from({ length: EDGE }, (_, i) => n - EDGE + i)];
}

export function formatTensorText(values: HostArray, shape: Shape, dtype: DType, device: string): string {
  const summarise = numel(shape) > THRESHOLD;
  const fmt = numberFormatter(values, dtype);
  let width = 0;
  const prefix = 'tensor(';
  const render = (dim: number, offset: number, indent: number): string => {
    if (dim === shape.length) {
      const v = values[offset]!;
      const s = fmt(v);
      // PyTorch measures the column over nonzero values: a -0 is not padded for its sign
      if (!Object.is(v, -0)) width = Math.max(width, s.length);
      return s.padStart(width);
    }
    const stride = numel(shape.slice(dim + 1));
    const parts = shown(shape[dim]!, summarise).map((i) => (i === null ? '...' : render(dim + 1, offset + i * stride, indent + 1)));
    const sep = dim === shape.length - 1 ? ', ' : ',' + '\n'.repeat(shape.length - dim - 1) + ' '.repeat(indent + 1);
    return `[${parts.join(sep)}]`;
  };
  render(0, 0, prefix.length); // first pass measures the column width
  const body = render(0, 0, prefix.length);
  return `${prefix}${body}, shape=${formatShape(shape)}, dtype=${dtype}, device='${device}')`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An HTML table of the last two dims (leading dims flattened into row groups), summarised. */
export function formatTensorHtml(values: HostArray, shape: Shape, dtype: DType, device: string): string {
  const fmt = numberFormatter(values, dtype);
  // nowrap: a caption is as wide as its table, and a one-column table would break it into words.
  const caption = `<caption style="text-align:left;white-space:nowrap">tensor ${escapeHtml(formatShape(shape))} ${dtype} on ${device}</caption>`;
  const cols = shape.length === 0 ? 1 : shape[shape.length - 1]!;
  const rows = cols === 0 ? 0 : numel(shape) / cols;
  const summarise = numel(shape) > THRESHOLD;
  const cell = (s: string) => `<td style="text-align:right;font-family:monospace">${escapeHtml(s)}</td>`;
  const trs = shown(rows, summarise).map((r) => {
    if (r === null) return `<tr>${shown(cols, summarise).map(() => cell('⋮')).join('')}</tr>`;
    return `<tr>${shown(cols, summarise).map((c) => cell(c === null ? '…' : fmt(values[r * cols + c]!))).join('')}</tr>`;
  });
  return `<table>${caption}<tbody>${trs.join('')}</tbody></table>`;
}
