#include "dnnl-sgemm.h"

#include <dlfcn.h>

#include <mutex>

namespace ortc {

namespace {

/** dnnl_version_t's leading members (dnnl_types.h): the version numbers. */
struct DnnlVersion {
  int major, minor, patch;
};
using VersionFn = const DnnlVersion* (*)();

SgemmFn dnnlSgemm = nullptr;
/** libgomp's omp_set_num_threads (null if oneDNN came without OpenMP). */
void (*ompSetNumThreads)(int) = nullptr;

/**
 * oneDNN sizes its OpenMP team by the calling thread's setting; at 1 it runs the GEMM inline.
 * The setting is per thread, so each pool thread sets it before its first GEMM.
 */
void alone() {
  thread_local bool set = false;
  if (!set && ompSetNumThreads) ompSetNumThreads(1);
  set = true;
}

int onThisThread(char ta, char tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
                 const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  alone();
  return dnnlSgemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

// oneDNN's packed GEMM: dnnl::impl::cpu::sgemm_pack_get_size, sgemm_pack and sgemm_compute,
// exported by libdnnl.so.2 (2.x) under their C++ names and declared in no public header.
// Column-major as BLAS, every size by pointer. A row-major C = op(A) B is the column-major
// C' = B' op(A)': B is their "A" (identifier "A", packed), op(A) their "B" ('T' when transposed).
using PackSizeFn = int (*)(const char* which, const char* transa, const char* transb, const int64_t* M, const int64_t* N,
                           const int64_t* K, const int64_t* lda, const int64_t* ldb, size_t* size, bool* pack);
using PackFn = int (*)(const char* which, const char* transa, const char* transb, const int64_t* M, const int64_t* N,
                       const int64_t* K, const int64_t* lda, const int64_t* ldb, const float* src, float* dst);
using ComputeFn = int (*)(const char* transa, const char* transb, const int64_t* M, const int64_t* N, const int64_t* K,
                          const float* A, const int64_t* lda, const float* B, const int64_t* ldb, const float* beta, float* C,
                          const int64_t* ldc);
PackSizeFn dnnlPackSize = nullptr;
PackFn dnnlPack = nullptr;
ComputeFn dnnlCompute = nullptr;

size_t packedBytes(int64_t rows, int64_t n, int64_t K, int64_t ldb, bool transA, int64_t lda) {
  alone();
  size_t size = 0;
  bool pack = true;
  if (dnnlPackSize("A", "N", transA ? "T" : "N", &n, &rows, &K, &ldb, &lda, &size, &pack) != 0) return 0;
  return size;
}

int packB(int64_t rows, int64_t n, int64_t K, const float* b, int64_t ldb, bool transA, int64_t lda, float* packed) {
  alone();
  return dnnlPack("A", "N", transA ? "T" : "N", &n, &rows, &K, &ldb, &lda, b, packed);
}

int multiplyPacked(bool transA, int64_t m, int64_t n, int64_t K, const float* packed, int64_t ldb, const float* a, int64_t lda,
                   float* c, int64_t ldc) {
  alone();
  const float zero = 0.0f;
  return dnnlCompute("P", transA ? "T" : "N", &n, &m, &K, packed, &ldb, a, &lda, &zero, c, &ldc);
}

Sgemm open(const std::string& library) {
  Sgemm gemm;
  if (library.empty()) {
    gemm.description = "turned off (TPU_KERNEL_DNNL=0)";
    return gemm;
  }
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    gemm.description = std::string("not loaded (") + dlerror() + "): matmuls run on ONNX Runtime's MLAS";
    return gemm;
  }
  auto run = reinterpret_cast<SgemmFn>(dlsym(handle, "dnnl_sgemm"));
  auto version = reinterpret_cast<VersionFn>(dlsym(handle, "dnnl_version"));
  ompSetNumThreads = reinterpret_cast<void (*)(int)>(dlsym(handle, "omp_set_num_threads"));
  if (!run || !version) {
    gemm.description = library + " exports no dnnl_sgemm/dnnl_version: matmuls run on ONNX Runtime's MLAS";
    return gemm;
  }
  const DnnlVersion* v = version();
  dnnlSgemm = run;
  gemm.run = onThisThread;
  dnnlPackSize = reinterpret_cast<PackSizeFn>(dlsym(handle, "_ZN4dnnl4impl3cpu19sgemm_pack_get_sizeEPKcS3_S3_PKlS5_S5_S5_S5_PmPb"));
  dnnlPack = reinterpret_cast<PackFn>(dlsym(handle, "_ZN4dnnl4impl3cpu10sgemm_packEPKcS3_S3_PKlS5_S5_S5_S5_PKfPf"));
  dnnlCompute = reinterpret_cast<ComputeFn>(dlsym(handle, "_ZN4dnnl4impl3cpu13sgemm_computeEPKcS3_PKlS5_S5_PKfS5_S7_S5_S7_PfS5_"));
  if (dnnlPackSize && dnnlPack && dnnlCompute) gemm.packed = {packedBytes, packB, multiplyPacked};
  gemm.description = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
  return gemm;
}

}  // namespace

const Sgemm& loadSgemm(const std::string& library) {
  static std::once_flag once;
  static Sgemm gemm;
  std::call_once(once, [&] { gemm = open(library); });
  return gemm;
}

}  // namespace ortc
