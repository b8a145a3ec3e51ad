// C source of the float32 math the generated loops call: written to vectorize (no branches,
// no libm calls) while keeping IEEE special values (NaN in -> NaN out, +-Inf, -0) without
// -ffast-math. Polynomial coefficients fitted here in float64 (relative least squares on
// Chebyshev nodes), evaluated by explicit fused multiply-adds (one rounding per step, fewer
// instructions; the program's own ops are never contracted). Error against float64 (libm's
// double erf, tanh, exp), measured over every 7th float bit pattern: tanh <= 1.52 ulp, exp on
// [-87, 0] <= 1.02 ulp, erf <= 1.06 ulp (test/runtime/row-loops.test.ts checks 2 ulp).

/**
 * C lines evaluating a polynomial in `x` by Horner's rule into `float acc`, one fused
 * multiply-add a step: acc = c[0], then acc = acc * x + c[k]. The coefficients (highest degree
 * first) are the literals as written, so the compiler rounds each to float32 from its digits.
 */
function horner(acc: string, x: string, coefficients: readonly string[]): string {
  const [first, ...rest] = coefficients;
  return [`  float ${acc} = ${first}f;`, ...rest.map((c) => `  ${acc} = __builtin_fmaf(${acc}, ${x}, ${c}f);`)].join('\n');
}

export const VECTOR_MATH_C = String.raw`
#include <stdint.h>
#include <string.h>
static inline float tk_bits_to_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t tk_f_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
/* e^y for y <= 0 (clamped at -87; NaN too: tanh routes NaN elsewhere): y = n ln2 + r,
   |r| <= ln2/2, e^r = 1 + r + r^2 p(r). n comes from the 1.5 * 2^23 shift (exact for |v| < 2^22,
   vectorizes everywhere): t's low mantissa bits hold n, so t's bits shifted left by 23 are n's
   exponent step without a float to int conversion. */
static inline float tk_exp_neg(float y) {
  y = y > -87.0f ? y : -87.0f;
  const float shift = 12582912.0f;
  float t = __builtin_fmaf(y, 1.44269504088896341f, shift);
  float n = t - shift;
  float r = __builtin_fmaf(-n, 0.693145751953125f, y);
  r = __builtin_fmaf(-n, 1.42860682030941723e-06f, r);
${horner('p', 'r', ['0.0013752965415985037', '0.008366139565405932', '0.04166920836327109', '0.1666654260712765', '0.49999991044115466'])}
  float e = 1.0f + __builtin_fmaf(r * r, p, r);
  return tk_bits_to_f(tk_f_to_bits(e) + (tk_f_to_bits(t) << 23));
}
/* tanh: odd polynomial below 0.55, (1 - e^-2a) / (1 + e^-2a) above; NaN fails a >= 0.55 and
   takes the polynomial, staying NaN; the sign is copied, so -0 stays -0. */
static inline float tk_tanh(float x) {
  float a = __builtin_fabsf(x);
  float s = x * x;
${horner('q', 's', ['-0.006287662851752727', '0.02108205947613865', '-0.05385511984901585', '0.13332616866543923', '-0.3333331865208111'])}
  float small = __builtin_copysignf(__builtin_fmaf(a * s, q, a), x);
  float t = tk_exp_neg(-2.0f * a);
  float big = __builtin_copysignf((1.0f - t) / (1.0f + t), x);
  return a >= 0.55f ? big : small;
}
/* erf: x + x p(x^2) below 1 (the leading 2/sqrt(pi) - 1 kept apart, so p's rounding is scaled
   down); above, 1 - q(a - 2.45), q a degree-14 polynomial fitted to erfc on [0.99, 3.95] for
   absolute error (0.13 ulp of erf): no exp, no reciprocal. a is clamped at 3.95 (erf rounds to
   1 beyond 3.92) by an integer min of the bits (one instruction; a >= 0). NaN fails a >= 1 and
   takes the first form, staying NaN; -0 stays -0. */
static inline float tk_erf(float x) {
  float a = __builtin_fabsf(x);
  float s = x * x;
${horner('p', 's', [
  '7.853857823647559e-05', '-0.0008010192541405559', '0.005188327748328447', '-0.026853810995817184',
  '0.1128358542919159', '-0.3761262595653534', '0.12837916709551257',
])}
  float small = __builtin_fmaf(x, p, x);
  uint32_t ab = tk_f_to_bits(a), cb = tk_f_to_bits(3.95f);
  float c = tk_bits_to_f(ab < cb ? ab : cb) - 2.450000047683716f;
${horner('q', 'c', [
  '-1.0389701401436469e-06', '1.1087728779557438e-07', '1.6935075109358877e-05', '-2.7124115149490535e-05',
  '-7.187604205682874e-05', '0.0003078873851336539', '-0.0003847409097943455', '-0.00043073378037661314',
  '0.0029693767428398132', '-0.006976183969527483', '0.01025823038071394', '-0.01023600623011589',
  '0.006835551466792822', '-0.002789908554404974', '0.0005305784288793802',
])}
  float big = __builtin_copysignf(1.0f - q, x);
  return a >= 1.0f ? big : small;
}
`;
