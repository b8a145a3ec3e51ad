// C source of the float32 math the generated loops call: written to vectorize (no branches,
// no libm calls) while keeping IEEE special values (NaN in -> NaN out, +-Inf, -0) without
// -ffast-math. Polynomial coefficients fitted here in float64 (relative least squares on
// Chebyshev nodes), evaluated by explicit fused multiply-adds (one rounding per step, fewer
// instructions; the program's own ops are never contracted). Error against float64,
// measured over every 61st float bit pattern: tanh <= 1.52 ulp, exp on [-87, 0] <= 1.01 ulp,
// erf <= 1.27 ulp (test/runtime/row-loops.test.ts checks 2 ulp).
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
/* erf: x + x p(x^2) below 1 (the leading 2/sqrt(pi) - 1 kept apart, so p's rounding is scaled
   down); above, 1 - e^-a^2 q(1/a) with q fitted to erfc(a) e^(a^2) on [0.95, 3.95], a clamped at
   3.95 (erf rounds to 1 beyond 3.92). NaN takes the second branch and stays NaN; -0 stays -0. */
static inline float tk_erf(float x) {
  float a = __builtin_fabsf(x);
  float s = x * x;
  float p = 7.853857823647559e-05f;
  p = __builtin_fmaf(p, s, -0.0008010192541405559f);
  p = __builtin_fmaf(p, s, 0.005188327748328447f);
  p = __builtin_fmaf(p, s, -0.026853810995817184f);
  p = __builtin_fmaf(p, s, 0.1128358542919159f);
  p = __builtin_fmaf(p, s, -0.3761262595653534f);
  p = __builtin_fmaf(p, s, 0.12837916709551257f);
  float small = __builtin_fmaf(x, p, x);
  float b = a > 3.95f ? 3.95f : a;
  /* 1/b without the divider, which a loop's own divisions and square roots share: Newton's
     method from the exponent-flipping estimate (at most 12% off), three steps to float32's
     precision (b < 1 gives a discarded value, b = 0 a NaN that the select drops) */
  float t = tk_bits_to_f(0x7EF311C3u - tk_f_to_bits(b));
  t = t * __builtin_fmaf(-b, t, 2.0f);
  t = t * __builtin_fmaf(-b, t, 2.0f);
  t = t * __builtin_fmaf(-b, t, 2.0f);
  float q = -0.006215981207787991f;
  q = __builtin_fmaf(q, t, 0.013236543163657188f);
  q = __builtin_fmaf(q, t, 0.05463622137904167f);
  q = __builtin_fmaf(q, t, -0.27649328112602234f);
  q = __builtin_fmaf(q, t, 0.5204467177391052f);
  q = __builtin_fmaf(q, t, -0.481523334980011f);
  q = __builtin_fmaf(q, t, 0.04451166093349457f);
  q = __builtin_fmaf(q, t, 0.5586943626403809f);
  q = __builtin_fmaf(q, t, 0.0002906743611674756f);
  float big = __builtin_copysignf(1.0f - tk_exp_neg(-b * b) * q, x);
  return a < 1.0f ? small : big;
}
`;
