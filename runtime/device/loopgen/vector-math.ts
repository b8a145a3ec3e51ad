// C source of the float32 math the generated loops call: written to vectorize (no branches,
// no libm calls) while keeping IEEE special values (NaN in -> NaN out, +-Inf, -0) without
// -ffast-math. Polynomial coefficients fitted here in float64 (relative least squares on
// Chebyshev nodes), evaluated by explicit fused multiply-adds (one rounding per step, fewer
// instructions; the program's own ops are never contracted). Error against float64,
// measured over every 61st float bit pattern: tanh <= 1.52 ulp, exp on [-87, 0] <= 1.01 ulp
// (test/runtime/loopgen.test.ts checks 2 ulp).
export const VECTOR_MATH_C = String.raw`
#include <stdint.h>
#include <string.h>
static inline float tk_bits_to_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t tk_f_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
/* e^y for y <= 0 (clamped at -87): y = n ln2 + r, |r| <= ln2/2, e^r = 1 + r + r^2 p(r). */
static inline float tk_exp_neg(float y) {
  y = y < -87.0f ? -87.0f : y;
  /* round to nearest by the 1.5 * 2^23 shift: exact for |v| < 2^22, vectorizes everywhere */
  float n = (y * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  float r = __builtin_fmaf(-n, 0.693145751953125f, y);
  r = __builtin_fmaf(-n, 1.42860682030941723e-06f, r);
  float p = 0.0013752965415985037f;
  p = __builtin_fmaf(p, r, 0.008366139565405932f);
  p = __builtin_fmaf(p, r, 0.04166920836327109f);
  p = __builtin_fmaf(p, r, 0.1666654260712765f);
  p = __builtin_fmaf(p, r, 0.49999991044115466f);
  float e = 1.0f + __builtin_fmaf(r * r, p, r);
  return tk_bits_to_f(tk_f_to_bits(e) + ((uint32_t)(int32_t)n << 23));
}
/* tanh: odd polynomial below 0.55, (1 - e^-2a) / (1 + e^-2a) above; NaN takes the second
   branch (the compare is false) and stays NaN; the sign is copied, so -0 stays -0. */
static inline float tk_tanh(float x) {
  float a = __builtin_fabsf(x);
  float s = x * x;
  float q = -0.006287662851752727f;
  q = __builtin_fmaf(q, s, 0.02108205947613865f);
  q = __builtin_fmaf(q, s, -0.05385511984901585f);
  q = __builtin_fmaf(q, s, 0.13332616866543923f);
  q = __builtin_fmaf(q, s, -0.3333331865208111f);
  float small = __builtin_copysignf(__builtin_fmaf(a * s, q, a), x);
  float t = tk_exp_neg(-2.0f * a);
  float big = __builtin_copysignf((1.0f - t) / (1.0f + t), x);
  return a < 0.55f ? small : big;
}
`;
