// qr (torch.linalg.qr) by Householder reflections, unrolled over min(m, n) columns, with
// LAPACK's sign convention (geqrf's dlarfg: R's diagonal element is -sign(α)·‖x‖, and a column
// already zero below the diagonal is not reflected), so Q and R are PyTorch's where the
// signs are decided. Autograd differentiates the steps.
import { formatShape } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { readOptions } from '../../options.js';
import { composite } from '../../modes/composite.js';
import { eye } from '../../creation-computed.js';
import { concat } from '../concat.js';
import { filled } from '../constant.js';
import { pad } from '../pad.js';
import { where } from '../where.js';
import { floatingArg } from './matrix-args.js';
import { QR } from './named-results.js';

export type QrMode = 'reduced' | 'complete' | 'r';

export interface QrOptions {
  /** 'reduced' (default): Q [..., m, k], R [..., k, n] with k = min(m, n); 'complete': Q [..., m, m], R [..., m, n]; 'r': R only (Q empty). */
  mode?: QrMode;
}

interface Reflector {
  /** v with v₀ = 1: [..., m - j, 1]. */
  readonly v: Tensor;
  /** [..., 1, 1]. */
  readonly tau: Tensor;
}

/** H·x = x - τ·v·(vᵀx) for x [..., m - j, w]. */
function reflect(x: Tensor, { v, tau }: Reflector): Tensor {
  return x.sub(tau.mul(v).mul(v.mul(x).sum(-2, true)));
}

/** The reflectors and R's rows of A [..., m, n]: row j is [..., 1, n - j] (R from column j on). */
function householder(a: Tensor, m: number, n: number): { reflectors: Reflector[]; rows: Tensor[] } {
  const reflectors: Reflector[] = [];
  const rows: Tensor[] = [];
  let s = a;
  for (let j = 0; j < Math.min(m, n); j++) {
    const alpha = s.narrow(-2, 0, 1).narrow(-1, 0, 1);
    if (j === m - 1) { // one row left: nothing below to zero (LAPACK: τ = 0)
      rows.push(s);
      break;
    }
    const below = s.narrow(-2, 1, m - j - 1).narrow(-1, 0, 1);
    const tail = below.square().sum(-2, true);
    const flat = tail.eq(0);
    const beta = where(alpha.lt(0), 1, -1).mul(alpha.square().add(tail).sqrt());
    const safeBeta = where(flat, 1, beta);
    const head = alpha.sub(safeBeta);
    const v = concat([filled('linalg.qr', alpha.shape, 1, a.dtype, a.chip).expand(alpha.shape), below.div(where(flat, 1, head))], -2);
    const reflector = { v, tau: where(flat, 0, safeBeta.sub(alpha).div(safeBeta)) };
    reflectors.push(reflector);
    const diagonal = where(flat, alpha, beta);
    if (j === n - 1) { // the last column: nothing right of it
      rows.push(diagonal);
      break;
    }
    const rest = reflect(s.narrow(-1, 1, n - j - 1), reflector);
    rows.push(concat([diagonal, rest.narrow(-2, 0, 1)], -1));
    s = rest.narrow(-2, 1, m - j - 1);
  }
  return { reflectors, rows };
}

/** Q's first `cols` columns: H₀·H₁·…·I[:, :cols], the reflections applied last to first, on `chip`. */
function formQ(reflectors: readonly Reflector[], m: number, cols: number, batch: readonly number[], chip: number): Tensor {
  let q = eye(m, cols, { chip }).expand([...batch, m, cols]);
  for (let j = reflectors.length - 1; j >= 0; j--) {
    const lower = reflect(q.narrow(-2, j, m - j), reflectors[j]!);
    q = j === 0 ? lower : concat([q.narrow(-2, 0, j), lower], -2);
  }
  return q;
}

/**
 * An orthonormal basis of m-space whose first n columns are A's [..., m, n] (m ≥ n) where
 * these are orthonormal: Q of A's QR, its first n columns signed as A's (R's diagonal + or 0
 * keeps the sign). Columns of zeros, placed last, are completed to an orthonormal set.
 */
export function orthonormalBasis(a: Tensor, cols: number): Tensor {
  const [m, n] = a.shape.slice(-2) as [number, number];
  const { reflectors, rows } = householder(a, m, n);
  const signs = concat(rows.map((r) => where(r.narrow(-1, 0, 1).lt(0), -1, 1)), -1);
  const q = formQ(reflectors, m, cols, a.shape.slice(0, -2), a.chip);
  return cols === n ? q.mul(signs) : concat([q.narrow(-1, 0, n).mul(signs), q.narrow(-1, n, cols - n)], -1);
}

/** R [..., rows, n] from its rows, each padded with zeros on the left (rows past the last are zero). */
function upper(rows: readonly Tensor[], rowCount: number, n: number, batch: readonly number[], a: Tensor): Tensor {
  const padded = rows.map((r, j) => (j === 0 ? r : pad(r, [j, 0])));
  if (rowCount > rows.length) padded.push(filled('linalg.qr', [...batch, rowCount - rows.length, n], 0, a.dtype, a.chip));
  return concat(padded, -2);
}

/** Q and R of A [..., m, n] in one composed op: [Q | R] side by side, then taken apart. */
export function qrParts(a: Tensor, mode: QrMode): { q: Tensor | null; r: Tensor } {
  const [m, n] = a.shape.slice(-2) as [number, number];
  const batch = a.shape.slice(0, -2);
  const k = Math.min(m, n);
  const rRows = mode === 'complete' ? m : k;
  const qCols = mode === 'complete' ? m : k;
  if (k === 0) {
    return { q: mode === 'r' ? null : eye(m, qCols, { chip: a.chip }).expand([...batch, m, qCols]).contiguous(), r: filled('linalg.qr', [...batch, rRows, n], 0, a.dtype, a.chip) };
  }
  if (mode === 'r') return { q: null, r: composite('linalg.qr', () => upper(householder(a, m, n).rows, rRows, n, batch, a)) };
  // R has rRows ≤ m rows: padded to m, it sits beside Q
  const both = composite('linalg.qr', () => {
    const { reflectors, rows } = householder(a, m, n);
    return concat([formQ(reflectors, m, qCols, batch, a.chip), upper(rows, m, n, batch, a)], -1);
  });
  return { q: both.narrow(-1, 0, qCols), r: both.narrow(-1, qCols, n).narrow(-2, 0, rRows) };
}

/**
 * The QR decomposition A = Q·R of each matrix [..., m, n], Q with orthonormal columns and R upper
 * triangular (torch.linalg.qr); `mode` 'reduced' (default), 'complete' or 'r' (Q is then empty, as PyTorch's).
 * @example const { Q, R } = tpu.linalg.qr(tpu.tensor([[3, 1], [4, 2]])) // R [[-5, -2.2], [0, 0.4]]
 */
export function qr(a: Tensor, options?: QrMode | QrOptions): QR {
  const op = 'linalg.qr';
  floatingArg(op, 'A', a, false);
  if (a.ndim < 2) throw new RangeError(`${op}: A must have at least 2 dimensions (a batch of matrices [..., m, n]); got ${formatShape(a.shape)}`);
  const { mode = 'reduced' } = typeof options === 'string' ? { mode: options } : readOptions<QrOptions>(op, options, ['mode']);
  if (mode !== 'reduced' && mode !== 'complete' && mode !== 'r') throw new RangeError(`${op}: mode must be 'reduced', 'complete' or 'r'; got ${JSON.stringify(mode)}`);
  const { q, r } = qrParts(a, mode);
  return new QR(q ?? filled(op, [0], 0, a.dtype, a.chip), r);
}
