#include "dnnl-sgemm.h"

#include <dlfcn.h>
#include <strings.h>

#include <cstdlib>
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
int onThisThread(char ta, char tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
                 const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  thread_local bool alone = false;
  if (!alone && ompSetNumThreads) ompSetNumThreads(1);
  alone = true;
  return dnnlSgemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

int inTeam(int threads, char ta, char tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
           const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  ompSetNumThreads(threads);
  const int status = dnnlSgemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  ompSetNumThreads(1);
  return status;
}

/**
 * Whether OpenMP's threads sleep when idle: libgomp reads OMP_WAIT_POLICY once, when it loads,
 * so only when it loads with oneDNN (not before, under a policy we cannot see). A team spinning
 * at its barriers and after each product took 1.7-4.6x the split's time on 2 loaded cores.
 */
bool teamSleeps() {
  if (void* loaded = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD)) {
    dlclose(loaded);
    return false;
  }
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  return policy && strcasecmp(policy, "passive") == 0;
}

Sgemm open(const std::string& library) {
  Sgemm gemm;
  if (library.empty()) {
    gemm.description = "turned off (TPU_KERNEL_DNNL=0)";
    return gemm;
  }
  const bool sleeping = teamSleeps();
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
  if (sleeping && ompSetNumThreads) gemm.team = inTeam;
  gemm.description = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
                     (gemm.team ? ", OpenMP team" : ", split over the node's threads");
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
