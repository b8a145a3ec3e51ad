// Our float32 GEMM, C = A·B for row-major A [M, K] and B [K, N], as C for the loop addon
// (compiled once per machine, like the generated loops); which programs take it: gemm-kernel.ts.
// MLAS splits a matmul into one fixed part per thread and waits for a thread the scheduler has
// not run on a loaded machine; these row blocks are taken one by one by whichever thread is
// free (addon-source.ts).
// Register blocking: 12 rows x 32 columns of C stay in 24 AVX-512 registers over a 256-deep
// slice of K; B is read in place (a 256 x 32 slice stays in L1 across the row blocks), A by
// broadcasts. Sums are fused multiply-adds in order of k, as float32 (precision 'highest').
// Without AVX-512 the same loops are plain C the compiler vectorizes as it can.

/** Rows of C per index of a run (the kernel computes rows [ROWS*begin, ROWS*end)). */
export const GEMM_ROWS = 12;

export const GEMM_C = String.raw`
#include <stdint.h>
#include <string.h>
#define MR ${GEMM_ROWS}
#define KC 256
#define NR 32
#ifdef __AVX512F__
#include <immintrin.h>
/* acc[r] += a[r, k] * b[k, 0..32) for k < kc; first: start from zero, else from c */
static inline __attribute__((always_inline)) void tk_tile(int64_t kc, const float* a, int64_t lda, const float* b, int64_t ldb,
                                                           float* c, int64_t ldc, int first, int64_t width) {
  __mmask16 m0 = width >= 16 ? 0xFFFF : (__mmask16)((1u << width) - 1);
  __mmask16 m1 = width >= 32 ? 0xFFFF : width <= 16 ? 0 : (__mmask16)((1u << (width - 16)) - 1);
  __m512 acc[MR][2];
  for (int r = 0; r < MR; r++) {
    acc[r][0] = first ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(m0, c + r * ldc);
    acc[r][1] = first ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(m1, c + r * ldc + 16);
  }
  for (int64_t k = 0; k < kc; k++) {
    __m512 b0 = _mm512_maskz_loadu_ps(m0, b + k * ldb), b1 = _mm512_maskz_loadu_ps(m1, b + k * ldb + 16);
#pragma GCC unroll 12
    for (int r = 0; r < MR; r++) {
      __m512 av = _mm512_set1_ps(a[r * lda + k]);
      acc[r][0] = _mm512_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(av, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < MR; r++) {
    _mm512_mask_storeu_ps(c + r * ldc, m0, acc[r][0]);
    _mm512_mask_storeu_ps(c + r * ldc + 16, m1, acc[r][1]);
  }
}
#else
static inline void tk_tile(int64_t kc, const float* a, int64_t lda, const float* b, int64_t ldb,
                           float* c, int64_t ldc, int first, int64_t width) {
  for (int r = 0; r < MR; r++) {
    float acc[NR];
    for (int64_t j = 0; j < width; j++) acc[j] = first ? 0.0f : c[r * ldc + j];
    for (int64_t k = 0; k < kc; k++)
      for (int64_t j = 0; j < width; j++) acc[j] = __builtin_fmaf(a[r * lda + k], b[k * ldb + j], acc[j]);
    for (int64_t j = 0; j < width; j++) c[r * ldc + j] = acc[j];
  }
}
#endif
/* in: A, B; sc: M, K, N; out: C; rows [MR*begin, MR*end) of C */
void tk_kernel(const float* const* in, const float* sc, float* const* out, int64_t begin, int64_t end) {
  const float* A = in[0]; const float* B = in[1]; float* C = out[0];
  const int64_t M = (int64_t)sc[0], K = (int64_t)sc[1], N = (int64_t)sc[2];
  /* the last block's missing rows: zero rows of A in, a scratch tile out */
  float a_tail[MR * KC], c_tail[MR * NR];
  for (int64_t k0 = 0; k0 < K; k0 += KC) {
    int64_t kc = K - k0 < KC ? K - k0 : KC;
    for (int64_t j = 0; j < N; j += NR) {
      int64_t width = N - j < NR ? N - j : NR;
      for (int64_t blk = begin; blk < end; blk++) {
        int64_t i = blk * MR, rows = M - i < MR ? M - i : MR;
        if (rows == MR) {
          tk_tile(kc, A + i * K + k0, K, B + k0 * N + j, N, C + i * N + j, N, k0 == 0, width);
          continue;
        }
        memset(a_tail, 0, sizeof a_tail);
        for (int64_t r = 0; r < rows; r++) {
          memcpy(a_tail + r * KC, A + (i + r) * K + k0, kc * sizeof(float));
          memcpy(c_tail + r * NR, C + (i + r) * N + j, width * sizeof(float));
        }
        tk_tile(kc, a_tail, KC, B + k0 * N + j, N, c_tail, NR, k0 == 0, width);
        for (int64_t r = 0; r < rows; r++) memcpy(C + (i + r) * N + j, c_tail + r * NR, width * sizeof(float));
      }
    }
  }
}
`;
