// C source of the float32 math the generated loops call: written to vectorize (no branches,
// no libm calls) while keeping IEEE special values (NaN in -> NaN out, +-Inf, -0) without
// -ffast-math. Polynomial coefficients fitted here in float64 (relative least squares on
// Chebyshev nodes), evaluated by explicit fused multiply-adds (one rounding per step, fewer
// instructions; the program's own ops are never contracted). Error against float64 (libm's
// double erf, tanh, exp), measured over every 7th float bit pattern: tanh <= 1.52 ulp, exp on
// [-87, 0] <= 1.02 ulp, erf <= 1.06 ulp (test/runtime/row-loops.test.ts checks 2 ulp); the
// AVX-512 block erf (tk_erf_block) <= 0.69 ulp over every float32.

/**
 * C lines evaluating a polynomial in `x` by Horner's rule into `float acc`, one fused
 * multiply-add a step: acc = c[0], then acc = acc * x + c[k]. The coefficients (highest degree
 * first) are the literals as written, so the compiler rounds each to float32 from its digits.
 */
function horner(acc: string, x: string, coefficients: readonly string[]): string {
  const [first, ...rest] = coefficients;
  return [`  float ${acc} = ${first}f;`, ...rest.map((c) => `  ${acc} = __builtin_fmaf(${acc}, ${x}, ${c}f);`)].join('\n');
}

/**
 * The block erf's coefficients: row j holds the degree-j coefficient of P for each interval
 * [k/4, (k+1)/4), k = 0..15, in u = a - k/4 (P = erf(a)/min(a, 1) - 1). Fitted in float64 by
 * least squares weighted by the result's ulp on Chebyshev nodes, then rounded to float32 one
 * degree at a time from the constant, the higher ones refitted to what the rounding left.
 */
const ERF_TABLE: readonly (readonly string[])[] = [
  ['0.128379166', '0.10530556', '0.0409997553', '-0.0517924912', '-0.157299206', '-0.0770998746', '-0.0338948555', '-0.0133283297', '-0.0046777348', '-0.00146271626', '-0.00040695176', '-0.000100621786', '-2.20904421e-05', '-4.30276168e-06', '-7.43093437e-07', '-1.13726969e-07'],
  ['-5.37748633e-07', '-0.181165963', '-0.324434102', '-0.407034576', '0.415107757', '0.2365219', '0.118930824', '0.0527751818', '0.0206669308', '0.00714221597', '0.00217820634', '0.000586236711', '0.000139236698', '2.91836732e-05', '5.3979561e-06', '8.81320773e-07'],
  ['-0.376093328', '-0.335336268', '-0.229925975', '-0.100247368', '-0.415124983', '-0.295687258', '-0.178420186', '-0.09236449', '-0.0413315073', '-0.0160653237', '-0.0054420121', '-0.00161033391', '-0.000416978466', '-9.46075452e-05', '-1.88273661e-05', '-3.29847921e-06'],
  ['-0.000625254586', '0.104432948', '0.167096838', '0.169833466', '0.138695315', '0.168145031', '0.139178023', '0.0902996883', '0.0481836796', '0.0216404684', '0.00828590058', '0.00272669294', '0.000775377324', '0.000191267682', '4.1041123e-05', '7.81272865e-06'],
  ['0.117954746', '0.0915128365', '0.0310038589', '-0.0285360757', '0.0666828007', '-0.0108453827', '-0.047963962', '-0.0492672771', '-0.0341804028', '-0.0184337776', '-0.00811546668', '-0.00298849959', '-0.00093341904', '-0.0002494785', '-5.73915349e-05', '-1.21951161e-05'],
  ['-0.0190725047', '-0.046112854', '-0.0464309491', '-0.0253869332', '-0.0613273121', '-0.030621754', '-0.00226982427', '0.0113634365', '0.0124437902', '0.00836400222', '0.00423742598', '0.0017278567', '0.000584285182', '0.000166605809', '4.04583661e-05', '9.98846917e-06'],
];

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
/* indices per buffer of the generated loops' block erfs: 4 KB, in L1 */
#define TK_ERF_BLOCK 1024
/* erf of n floats in place (generated loops gather an erf's arguments a block at a time, erf-blocks.ts),
   with AVX-512: a = min(|x|, 3.95) (vminps gives its second operand for a NaN: NaN stays), its
   interval k = floor(4a) (a rounded-down fma onto 1.5 * 2^23: k is the low bits, the permutes'
   index), u = a - k/4 exact, P a degree-5 polynomial in u whose 6 coefficients are permutes of
   16-entry register tables, erf = A + A P with A = min(a, 1): erf(a)/a - 1 below 1 keeps the
   relative accuracy near 0, -erfc(a) above it the absolute accuracy near 1. About 19 vector
   instructions against the two-branch tk_erf's ~31; <= 0.69 ulp against double erf over every
   float32 (0.693 over every 7th bit pattern). The sign bit of x is or-ed back: -0 stays -0, +-inf give +-1.
   Without AVX-512: tk_erf on each. */
#ifdef __AVX512F__
#include <immintrin.h>
static const float tk_erf_table[6][16] __attribute__((aligned(64))) = {
${ERF_TABLE.map((row) => `  {${row.map((c) => `${c}f`).join(', ')}},`).join('\n')}
};
static inline __m512 tk_erf16(__m512 x) {
  const __m512 sign = _mm512_castsi512_ps(_mm512_set1_epi32((int)0x80000000u));
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(3.95f), _mm512_andnot_ps(sign, x));
  const __m512 shift = _mm512_set1_ps(12582912.0f);
  const __m512 t = _mm512_fmadd_round_ps(a, _mm512_set1_ps(4.0f), shift, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512i k = _mm512_castps_si512(t);
  const __m512 u = _mm512_fnmadd_ps(_mm512_sub_ps(t, shift), _mm512_set1_ps(0.25f), a);
  __m512 p = _mm512_permutexvar_ps(k, _mm512_load_ps(tk_erf_table[5]));
  for (int j = 4; j >= 0; j--) p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(k, _mm512_load_ps(tk_erf_table[j])));
  const __m512 A = _mm512_min_ps(_mm512_set1_ps(1.0f), a);
  const __m512 e = _mm512_fmadd_ps(A, p, A);
  // e | (x & sign)
  return _mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(e), _mm512_castps_si512(x), _mm512_castps_si512(sign), 0xF8));
}
static inline void tk_erf_block(float* b, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(b + i, tk_erf16(_mm512_loadu_ps(b + i)));
  const __mmask16 m = (__mmask16)((1u << (n - i)) - 1);
  if (m) _mm512_mask_storeu_ps(b + i, m, tk_erf16(_mm512_maskz_loadu_ps(m, b + i)));
}
#else
static inline void tk_erf_block(float* b, int64_t n) {
  for (int64_t i = 0; i < n; i++) b[i] = tk_erf(b[i]);
}
#endif
`;
