// lgamma, digamma and trigamma (polygamma(1, x)) in float32. lgamma: a fitted polynomial on
// [1, 3) (reached from (0, 4) by one step of Γ(x + 1) = x·Γ(x)), Stirling's series from 4;
// digamma and trigamma: the recurrence moves x below 6 up to where their asymptotic series is
// exact to float32. x < 0 goes through the reflection formula with sin(πx) / tan(πx) of
// x − round(x) (exact), so large negative x keep their digits.
import type { FloatExpressions } from './float-expressions.js';

type E<V> = FloatExpressions<unknown, V>;

const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** The argument shifted up by `steps` where it is below that (z), and the shift's terms f(x + k) summed. */
function shifted<V>(e: E<V>, x: V, steps: number, term: (v: V) => V): { z: V; small: V; sum: V } {
  const small = e.lt(x, steps);
  let sum = term(x);
  for (let k = 1; k < steps; k++) sum = e.add(sum, term(e.add(x, k)));
  return { z: e.where(small, e.add(x, steps), x), small, sum };
}

/** x − round(x) times π: sin and tan of it are those of πx up to sign (period 1 and 2). */
const reducedPi = <V>(e: E<V>, x: V): V => e.mul(e.sub(x, e.unary('round', x)), Math.PI);

/** Where x is 0 or a negative integer (the poles), and −inf. */
const nonPositiveInteger = <V>(e: E<V>, x: V): V => e.and(e.le(x, 0), e.eq(e.unary('floor', x), x));

/**
 * log Γ(2 + t) / ((1 + t) t) for t in [-1, 1]: a degree-12 polynomial (Chebyshev interpolation
 * of the float64 function, fitted for this file), so log Γ keeps its relative precision at its
 * zeros 1 and 2, where a difference of two Stirling values would not.
 */
const LGAMMA_NEAR_ONE_TWO = [0.42278432846069336, -0.10031727701425552, 0.03296498954296112, -0.012384943664073944, 0.0049989959225058556, -0.0021022423170506954,
  0.000912594492547214, -0.00042515413952060044, 0.00019173968757968396, -5.283973951009102e-05, 2.3881611923570745e-05, -3.858047421090305e-05, 1.809151035558898e-05];

/** log |Γ(x)|: +inf at the poles and at ±inf, as PyTorch. */
export function lgamma<V>(e: E<V>, x: V): V {
  const positive = (y: V): V => {
    // below 4: u = y + 1, y or y − 1 in [1, 3), and log Γ(y) = log Γ(u) − log y, + 0, + log(y − 1)
    const below1 = e.lt(y, 1);
    const below3 = e.lt(y, 3);
    const u = e.where(below1, e.add(y, 1), e.where(below3, y, e.sub(y, 1)));
    const t = e.sub(u, 2);
    const nearOneTwo = e.mul(e.polynomial(t, LGAMMA_NEAR_ONE_TWO), e.mul(e.sub(u, 1), t));
    const shift = e.where(below1, e.sub(0, e.unary('log', y)), e.where(below3, 0, e.unary('log', e.sub(y, 1))));
    // Stirling's series from 4 on, z (log z − 1) first: it overflows only where log Γ itself does
    const logY = e.unary('log', y);
    const r = e.div(1, y);
    const stirling = e.add(e.sub(e.mul(y, e.sub(logY, 1)), e.mul(logY, 0.5)), HALF_LOG_TWO_PI);
    const series = e.mul(r, e.polynomial(e.mul(r, r), [1 / 12, -1 / 360, 1 / 1260, -1 / 1680]));
    return e.where(e.lt(y, 4), e.add(nearOneTwo, shift), e.add(stirling, series));
  };
  const reflect = e.lt(x, 0);
  const y = positive(e.where(reflect, e.sub(1, x), x));
  // log Γ(x) = log(π / |sin πx|) − log Γ(1 − x)
  const reflected = e.sub(e.sub(Math.log(Math.PI), e.unary('log', e.unary('abs', e.unary('sin', reducedPi(e, x))))), y);
  const value = e.where(reflect, reflected, y);
  return e.where(e.or(nonPositiveInteger(e, x), e.isinf(x)), Infinity, value);
}

/** ψ(x) = Γ'(x)/Γ(x): ∓inf at ±0 (copysign(inf, −x)), NaN at negative integers and −inf, as PyTorch. */
export function digamma<V>(e: E<V>, x: V): V {
  const positive = (y: V): V => {
    const { z, small, sum } = shifted(e, y, 6, (v) => e.div(1, v));
    const r = e.div(1, z);
    const r2 = e.mul(r, r);
    const series = e.sub(e.sub(e.unary('log', z), e.mul(r, 0.5)), e.mul(r2, e.polynomial(r2, [1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132])));
    return e.sub(series, e.where(small, sum, 0));
  };
  const reflect = e.lt(x, 0);
  const y = positive(e.where(reflect, e.sub(1, x), x));
  // ψ(x) = ψ(1 − x) − π / tan(πx)
  const value = e.where(reflect, e.sub(y, e.div(Math.PI, e.unary('tan', reducedPi(e, x)))), y);
  const atZero = e.where(e.lt(e.div(1, x), 0), Infinity, -Infinity);
  return e.where(e.eq(x, 0), atZero, e.where(e.and(reflect, e.eq(e.unary('floor', x), x)), NaN, value));
}

/** ψ'(x), polygamma(1, x): +inf at 0 and the negative integers. */
export function trigamma<V>(e: E<V>, x: V): V {
  const positive = (y: V): V => {
    const { z, small, sum } = shifted(e, y, 6, (v) => e.div(1, e.mul(v, v)));
    const r = e.div(1, z);
    const r2 = e.mul(r, r);
    const series = e.add(e.add(r, e.mul(r2, 0.5)), e.mul(e.mul(r, r2), e.polynomial(r2, [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66])));
    return e.add(series, e.where(small, sum, 0));
  };
  const reflect = e.lt(x, 0);
  const y = positive(e.where(reflect, e.sub(1, x), x));
  // ψ'(x) = π² / sin²(πx) − ψ'(1 − x)
  const s = e.unary('sin', reducedPi(e, x));
  const value = e.where(reflect, e.sub(e.div(Math.PI * Math.PI, e.mul(s, s)), y), y);
  return e.where(e.and(nonPositiveInteger(e, x), e.lt(-Infinity, x)), Infinity, value);
}
