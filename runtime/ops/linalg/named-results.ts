// The named tuples of torch.linalg's results (slogdet, eigh, qr, svd, lstsq, the _ex forms): fields by name,
// `const [a, b] = ...` and r[0] as in PyTorch. Their tensor parts make tpu.scope keep them
// when returned, and tpu.compile rebuild them on a replay (tensor-parts.ts).
import type { Tensor } from '../../tensor.js';
import { TENSOR_PARTS, type TensorParts } from '../../tensor-parts.js';

export abstract class TensorTuple implements Iterable<Tensor> {
  readonly [index: number]: Tensor;

  constructor(private readonly parts: readonly Tensor[]) {
    parts.forEach((t, i) => Object.defineProperty(this, i, { value: t }));
  }

  get length(): number {
    return this.parts.length;
  }

  *[Symbol.iterator](): Iterator<Tensor> {
    yield* this.parts;
  }

  [TENSOR_PARTS](): TensorParts {
    const made = this.constructor as new (...ts: Tensor[]) => TensorTuple;
    return { tensors: this.parts, key: made.name, rebuild: (ts) => new made(...ts) };
  }
}

/** slogdet's result: `const { sign, logabsdet } = ...` or `const [sign, logabsdet] = ...`. */
export class SignLogAbsDet extends TensorTuple {
  constructor(readonly sign: Tensor, readonly logabsdet: Tensor) {
    super([sign, logabsdet]);
  }
}

/** eigh's result: eigenvalues ascending [..., n], eigenvectors as columns [..., n, n]. */
export class Eigh extends TensorTuple {
  constructor(readonly eigenvalues: Tensor, readonly eigenvectors: Tensor) {
    super([eigenvalues, eigenvectors]);
  }
}

/** qr's result. */
export class QR extends TensorTuple {
  constructor(readonly Q: Tensor, readonly R: Tensor) {
    super([Q, R]);
  }
}

/** svd's result: A = U·diag(S)·Vh, S descending. */
export class SVD extends TensorTuple {
  constructor(readonly U: Tensor, readonly S: Tensor, readonly Vh: Tensor) {
    super([U, S, Vh]);
  }
}

/** lstsq's result, as PyTorch's CPU driver 'gelsy' gives it: residuals and singularValues empty. */
export class Lstsq extends TensorTuple {
  constructor(readonly solution: Tensor, readonly residuals: Tensor, readonly rank: Tensor, readonly singularValues: Tensor) {
    super([solution, residuals, rank, singularValues]);
  }
}

/** inv_ex's result: info 0, or the first zero pivot (1-based) of each singular matrix. */
export class InvEx extends TensorTuple {
  constructor(readonly inverse: Tensor, readonly info: Tensor) {
    super([inverse, info]);
  }
}

/** solve_ex's result: info 0, or the first zero pivot (1-based) of each singular A. */
export class SolveEx extends TensorTuple {
  constructor(readonly result: Tensor, readonly info: Tensor) {
    super([result, info]);
  }
}

/** cholesky_ex's result: info 0, or the order of the first leading minor that is not positive-definite. */
export class CholeskyEx extends TensorTuple {
  constructor(readonly L: Tensor, readonly info: Tensor) {
    super([L, info]);
  }
}
