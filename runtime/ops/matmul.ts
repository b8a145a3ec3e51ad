// matmul with NumPy semantics: 1-D operands, batched and broadcast leading dims.
// Precision 'highest' (default) multiplies in full float32; 'default' reproduces a TPU's
// single bf16 pass (operands rounded to bfloat16, float32 accumulation).
import { broadcastShapes, formatShape, type Shape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { inShape, needsGrad, unbroadcast } from './grad-helpers.js';
import { installMethods } from '../install-methods.js';

export type MatmulPrecision = 'highest' | 'default';
let precision: MatmulPrecision = 'highest';

/**
 * Matmul precision: 'highest' (float32) or 'default' (bfloat16 passes) (torch.set_float32_matmul_precision).
 * @example tpu.setMatmulPrecision('highest')
 */
export function setMatmulPrecision(p: MatmulPrecision): void {
  if (p !== 'highest' && p !== 'default') {
    throw new RangeError(`tpu.setMatmulPrecision: precision must be 'highest' or 'default'; got ${JSON.stringify(p)}`);
  }
  precision = p;
}
export function matmulPrecision(): MatmulPrecision {
  return precision;
}

export function matmulShape(a: Shape, b: Shape): number[] {
  if (a.length === 0 || b.length === 0) {
    throw new RangeError(`matmul: both operands need at least 1 dimension; got input ${formatShape(a)} and other ${formatShape(b)}`);
  }
  const a2 = a.length === 1 ? [1, a[0]!] : a;
  const b2 = b.length === 1 ? [b[0]!, 1] : b;
  const k1 = a2[a2.length - 1]!;
  const k2 = b2[b2.length - 2]!;
  if (k1 !== k2) {
    throw new RangeError(
      `matmul: input ${formatShape(a)} and other ${formatShape(b)} cannot be multiplied: input dim -1 is ${k1} but other dim ${b.length === 1 ? 0 : -2} is ${k2}`,
    );
  }
  const batch = broadcastShapes('matmul', a2.slice(0, -2), b2.slice(0, -2));
  const out = [...batch, a2[a2.length - 2]!, b2[b2.length - 1]!];
  if (a.length === 1) out.splice(out.length - 2, 1);
  if (b.length === 1) out.splice(out.length - 1, 1);
  return out;
}

export const matmul = defineOp<{ precision: MatmulPrecision }>({
  name: 'matmul',
  infer([a, b]) {
    if (a!.dtype === 'bool' || b!.dtype === 'bool') throw new TypeError(`matmul: bool operands are not supported (input ${a!.dtype}, other ${b!.dtype})`);
    // PyTorch's matmul does not promote: a mixed pair is an error there, so it is here.
    if (a!.dtype !== b!.dtype) {
      throw new TypeError(`matmul: input and other must have the same dtype, as in PyTorch; got input ${a!.dtype} and other ${b!.dtype}. Cast one: other.to('${a!.dtype}')`);
    }
    return { shape: matmulShape(a!.shape, b!.shape), dtype: a!.dtype };
  },
  profilesAsMatmul: true,
  gradReads: 'operands',
  grad(g, [a, b]) {
    const x = a as Tensor;
    const y = b as Tensor;
    // Work with matrices: 1-D operands become a row (left) or a column (right).
    const x2 = x.ndim === 1 ? x.reshape([1, x.shape[0]!]) : x;
    const y2 = y.ndim === 1 ? y.reshape([y.shape[0]!, 1]) : y;
    const g2 = inShape(g, matmulShape(x2.shape, y2.shape));
    // Only for operands that require grad (a data batch does not: no wasted matmul).
    const gx = needsGrad(x) ? inShape(unbroadcast(g2.matmul(y2.mT), x2.shape), x.shape) : null;
    const gy = needsGrad(y) ? inShape(unbroadcast(x2.mT.matmul(g2), y2.shape), y.shape) : null;
    return [gx, gy];
  },
});

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Matrix product with broadcasting batch dims (torch.matmul; Python `@`).
     * @example x.matmul(w)
     */
    matmul(other: Tensor): Tensor;
  }
}
installMethods({
  matmul(other) {
    if (!(other instanceof Tensor)) throw new TypeError(`matmul: other must be a tensor; got ${typeof other}`);
    return apply(matmul, [this, other], { precision });
  },
});
