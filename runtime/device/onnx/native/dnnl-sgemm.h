// oneDNN's float32 GEMM, loaded at run time when the system has the library (Debian's libdnnl2).
// A product runs on oneDNN's own OpenMP team when OpenMP's idle threads sleep
// (OMP_WAIT_POLICY=passive, which the runtime sets while oneDNN loads unless the user set a
// policy; docs/runtime.md has the measurements): the team shares its
// packed operands between the threads, which a split of the product cannot. Otherwise the
// Sgemm node (sgemm-op.cc) splits it over ONNX Runtime's own pool, each block on one thread
// alone, so no spinning OpenMP thread takes a core from that pool, the device thread or the
// host (node test/bench/gemm.bench.mjs measures it against MLAS).
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

/** One GEMM on the calling thread and `threads` - 1 threads of oneDNN's OpenMP team. */
using TeamSgemmFn = int (*)(int threads, char transa, char transb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                            int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

struct Sgemm {
  /** One GEMM on the calling thread alone. */
  SgemmFn run = nullptr;
  /** Set when OpenMP's idle threads sleep (else the node splits a product over its own threads). */
  TeamSgemmFn team = nullptr;
  /** "oneDNN 2.6.3, OpenMP team", or why there is no GEMM (run stays null). */
  std::string description;
};

/**
 * Loads `library` (e.g. "libdnnl.so.2") once per process; an empty name loads nothing. Later
 * calls return the first call's result.
 */
const Sgemm& loadSgemm(const std::string& library);

}  // namespace ortc
