// Matrix products of the decompositions as products and a sum rather than matmul: full
// float32 whatever tpu.setMatmulPrecision says (as solve's back substitution).
import type { Tensor } from '../../tensor.js';

/** a [..., m, k] times b [..., k, n], batch dims broadcast. */
export function exactMatmul(a: Tensor, b: Tensor): Tensor {
  return a.unsqueeze(-1).mul(b.unsqueeze(-3)).sum(-2);
}
