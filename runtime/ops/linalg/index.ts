// torch.linalg's functions as tpu.linalg, and the Tensor methods and top-level names PyTorch
// gives some of them (x.det(), x.inverse(), tpu.cross, tpu.kron, ...).
import { installMethods } from '../../install-methods.js';
import { det, slogdet } from './determinant.js';
import type { SignLogAbsDet } from './named-results.js';
import { inv, invEx, solve, solveEx } from './solve.js';
import { cholesky, choleskyEx } from './cholesky.js';
import { qr } from './householder.js';
import { eigh, eigvalsh } from './eigh.js';
import { svd, svdvals } from './svd.js';
import { lstsq, matrixRank, pinv } from './pseudo-inverse.js';
import { matrixNorm, norm, vectorNorm } from './norms.js';
import { cross, kron, linalgCross, type CrossOptions } from './products.js';

// Picked from the modules, so each member keeps its doc comment where a cell's Shift+Tab reads it.
type Linalg = Pick<typeof import('./determinant.js'), 'det' | 'slogdet'> & Pick<typeof import('./solve.js'), 'inv' | 'invEx' | 'solve' | 'solveEx'>
  & Pick<typeof import('./norms.js'), 'vectorNorm' | 'matrixNorm' | 'norm'> & Pick<typeof import('./cholesky.js'), 'cholesky' | 'choleskyEx'>
  & Pick<typeof import('./householder.js'), 'qr'> & Pick<typeof import('./eigh.js'), 'eigh' | 'eigvalsh'> & Pick<typeof import('./svd.js'), 'svd' | 'svdvals'>
  & Pick<typeof import('./pseudo-inverse.js'), 'pinv' | 'lstsq' | 'matrixRank'> & {
  /**
   * Cross product of 3-vectors along dim (-1 by default), batch dims broadcast (torch.linalg.cross).
   * @example tpu.linalg.cross(tpu.tensor([1, 0, 0]), tpu.tensor([0, 1, 0])) // [0, 0, 1]
   */
  cross: typeof linalgCross;
};

/** torch.linalg's names in camelCase. */
export const linalg: Linalg = {
  det, slogdet, inv, invEx, solve, solveEx, vectorNorm, matrixNorm, norm, cross: linalgCross,
  cholesky, choleskyEx, qr, eigh, eigvalsh, svd, svdvals, pinv, lstsq, matrixRank,
};

declare module '../../tensor.js' {
  interface Tensor {
    /**
     * Determinant of each square matrix [..., n, n] (torch.det).
     * @example tpu.tensor([[1, 2], [3, 4]]).det() // -2
     */
    det(): Tensor;
    /**
     * Sign and log|det| of each square matrix (torch.slogdet).
     * @example const { sign, logabsdet } = a.slogdet()
     */
    slogdet(): SignLogAbsDet;
    /**
     * Inverse of each square matrix [..., n, n] (torch.inverse).
     * @example tpu.tensor([[2, 0], [0, 4]]).inverse() // [[0.5, 0], [0, 0.25]]
     */
    inverse(): Tensor;
    /**
     * Cross product of 3-vectors along dim (torch.cross; without a dim the last, as torch.linalg.cross).
     * @example tpu.tensor([1, 0, 0]).cross(tpu.tensor([0, 1, 0])) // [0, 0, 1]
     * @example tpu.tensor([[1, 0, 0]]).cross(tpu.tensor([[0, 1, 0]]), 1) // [[0, 0, 1]]
     */
    cross(other: Tensor, ...args: [dim?: number] | [CrossOptions]): Tensor;
    /**
     * Kronecker product (torch.kron).
     * @example tpu.tensor([1, 2]).kron(tpu.tensor([1, 10])) // [1, 10, 2, 20]
     */
    kron(other: Tensor): Tensor;
  }
}
installMethods({
  det() { return det(this); },
  slogdet() { return slogdet(this); },
  inverse() { return inv(this); },
  cross(other, ...args) { return cross(this, other, ...args); },
  kron(other) { return kron(this, other); },
});
