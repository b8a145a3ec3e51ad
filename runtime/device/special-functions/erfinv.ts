// erfinv in float32: M. Giles' single-precision approximation ("Approximating the erfinv
// function", GPU Computing Gems, 2011): a polynomial in w = −log(1 − x²), central (w < 5)
// or in √w (the tails); ±inf at ±1, NaN beyond, as PyTorch.
import type { FloatExpressions } from './float-expressions.js';

const CENTRAL = [1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087, -4.39150654e-6, -3.5233877e-6, 3.43273939e-7, 2.81022636e-8];
const TAIL = [2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773, -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257];

export function erfinv<V>(e: FloatExpressions<unknown, V>, x: V): V {
  // (1 − x)(1 + x): 1 − x is exact near 1, where 1 − x² would lose it
  const w = e.sub(0, e.unary('log', e.mul(e.sub(1, x), e.add(1, x))));
  const central = e.polynomial(e.sub(w, 2.5), CENTRAL);
  const tail = e.polynomial(e.sub(e.unary('sqrt', w), 3), TAIL);
  const value = e.mul(e.where(e.lt(w, 5), central, tail), x);
  return e.where(e.eq(e.unary('abs', x), 1), e.mul(x, Infinity), value);
}
