// oneDNN's float32 GEMM, loaded at run time when the system has the library (Debian's libdnnl2).
// Each call runs on the calling thread alone: the Sgemm node (sgemm-op.cc) splits a product
// over ONNX Runtime's own pool, so no OpenMP team of oneDNN's competes with that pool for the
// cores (node test/bench/gemm.bench.mjs measures it against MLAS).
#pragma once

#include <cstdint>
#include <string>

namespace ortc {

/**
 * dnnl_sgemm as oneDNN's include/oneapi/dnnl/dnnl.h declares it (facts from oneDNN's API
 * reference): C = alpha * op(A) * op(B) + beta * C with every matrix row-major, op(X) = X or
 * its transpose for 'N' or 'T', dnnl_dim_t = int64_t; returns dnnl_status_t (0 = success).
 */
using SgemmFn = int (*)(char transa, char transb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                        int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

/**
 * oneDNN's packed GEMM over row-major operands, each call on the calling thread alone: B's
 * columns packed once into oneDNN's blocked layout, then read by the products of any block of
 * op(A)'s rows. Returns dnnl_status_t (0 = success).
 */
struct PackedGemm {
  /**
   * Bytes that columns [0, n) of B [K, ldb] take packed, for products with `rows` rows of
   * op(A) (lda: A's row stride as stored), or 0 when oneDNN says it cannot pack them.
   */
  size_t (*bytes)(int64_t rows, int64_t n, int64_t K, int64_t ldb, bool transA, int64_t lda) = nullptr;
  /** Packs columns [0, n) of `b` into `packed` (bytes() long, 64-byte aligned). */
  int (*pack)(int64_t rows, int64_t n, int64_t K, const float* b, int64_t ldb, bool transA, int64_t lda, float* packed) = nullptr;
  /** C [m, n] (row stride ldc) = op(A)'s m rows from `a` times the packed columns. */
  int (*multiply)(bool transA, int64_t m, int64_t n, int64_t K, const float* packed, int64_t ldb, const float* a, int64_t lda,
                  float* c, int64_t ldc) = nullptr;
};

struct Sgemm {
  /** One GEMM on the calling thread alone. */
  SgemmFn run = nullptr;
  /** Set when the library exports oneDNN's packed GEMM (its pack stays null otherwise). */
  PackedGemm packed;
  /** "oneDNN 2.6.3", or why there is no GEMM (run stays null). */
  std::string description;
};

/**
 * Loads `library` (e.g. "libdnnl.so.2") once per process; an empty name loads nothing. Later
 * calls return the first call's result.
 */
const Sgemm& loadSgemm(const std::string& library);

}  // namespace ortc
