// The symmetric matrix eigh and cholesky read from one triangle of A, as PyTorch's (the other
// triangle is never read). Its gradient reaches A symmetrized, (G + Gᵀ)/2, as PyTorch's
// gradients of eigh and cholesky are symmetric matrices.
import type { Tensor } from '../../tensor.js';
import { gradEnabled } from '../../autograd/grad-mode.js';
import { tril, triu } from '../triangular.js';

/** Whether a decomposition of x must carry a gradient. */
export function tracked(x: Tensor): boolean {
  return x.requiresGrad && gradEnabled();
}

/** A's lower (upper with `upper`) triangle mirrored onto the other. */
export function symmetricFromTriangle(a: Tensor, upper: boolean): Tensor {
  const s = upper ? triu(a).add(triu(a, 1).mT) : tril(a).add(tril(a, -1).mT);
  if (!tracked(a)) return s;
  // the value of s, the gradient of (A + Aᵀ)/2: h - h.detach() is exactly 0
  const h = a.add(a.mT).mul(0.5);
  return s.detach().add(h.sub(h.detach()));
}
