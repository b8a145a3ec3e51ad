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

struct Sgemm {
  /** One GEMM on the calling thread alone. */
  SgemmFn run = nullptr;
  /** "oneDNN 2.6.3", or why there is no GEMM (run stays null). */
  std::string description;
};

/**
 * Loads `library` (e.g. "libdnnl.so.2") once per process; an empty name loads nothing. Later
 * calls return the first call's result.
 */
const Sgemm& loadSgemm(const std::string& library);

}  // namespace ortc
