// The work one thread does for each way of splitting a float32 GEMM over two threads, on one
// thread, as thread CPU time (a loaded machine stretches wall time, much less the work itself):
// oneDNN's dnnl_sgemm on half the rows or half the columns (as tpu_kernel.Sgemm splits), on
// 2x2 tiles, half of the whole product on one thread (what a split sharing its packed operands
// could reach), B pre-packed in two column panels (oneDNN's internal packed GEMM), and the
// whole product into a C just written (warm) or into one of 64 in turn (cold, as outputs of
// dropped tensors are). Built and run by gemm-split.bench.mjs: `gemm-split M K N rounds`.
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

using Sgemm = int (*)(char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t);
// oneDNN 2.x's dnnl::impl::cpu::sgemm_pack_get_size, sgemm_pack, sgemm_compute (column-major, sizes by pointer).
using PackSize = int (*)(const char*, const char*, const char*, const int64_t*, const int64_t*, const int64_t*, const int64_t*,
                         const int64_t*, size_t*, bool*);
using Pack = int (*)(const char*, const char*, const char*, const int64_t*, const int64_t*, const int64_t*, const int64_t*,
                     const int64_t*, const float*, float*);
using Compute = int (*)(const char*, const char*, const int64_t*, const int64_t*, const int64_t*, const float*, const int64_t*,
                        const float*, const int64_t*, const float*, float*, const int64_t*);

static double cpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  if (argc < 5) return 2;
  int64_t M = atoll(argv[1]), K = atoll(argv[2]), N = atoll(argv[3]);
  const int rounds = atoi(argv[4]);
  void* lib = dlopen("libdnnl.so.2", RTLD_NOW);
  if (!lib) return 3;
  auto sgemm = reinterpret_cast<Sgemm>(dlsym(lib, "dnnl_sgemm"));
  auto packSize = reinterpret_cast<PackSize>(dlsym(lib, "_ZN4dnnl4impl3cpu19sgemm_pack_get_sizeEPKcS3_S3_PKlS5_S5_S5_S5_PmPb"));
  auto pack = reinterpret_cast<Pack>(dlsym(lib, "_ZN4dnnl4impl3cpu10sgemm_packEPKcS3_S3_PKlS5_S5_S5_S5_PKfPf"));
  auto compute = reinterpret_cast<Compute>(dlsym(lib, "_ZN4dnnl4impl3cpu13sgemm_computeEPKcS3_PKlS5_S5_PKfS5_S7_S5_S7_PfS5_"));
  reinterpret_cast<void (*)(int)>(dlsym(lib, "omp_set_num_threads"))(1);  // each call on this thread alone

  std::vector<float> A(M * K), B(K * N);
  for (size_t i = 0; i < A.size(); i++) A[i] = float(i % 7) - 3.0f;
  for (size_t i = 0; i < B.size(); i++) B[i] = float(i % 5) - 2.0f;
  std::vector<std::vector<float>> C(65, std::vector<float>(M * N, 1.0f));
  const int64_t m = (M / 2 + 15) / 16 * 16, n = (N / 2 + 15) / 16 * 16, n2 = N - n;
  const float zero = 0.0f;
  // B's column panels packed as oneDNN's "A" (C' = B' A'), for products with any block of A's rows.
  size_t bytes0 = 0, bytes1 = 0;
  bool packs = packSize && pack && compute;
  if (packs) {
    bool copy = true;
    packs = packSize("A", "N", "N", &n, &M, &K, &N, &K, &bytes0, &copy) == 0 && packSize("A", "N", "N", &n2, &M, &K, &N, &K, &bytes1, &copy) == 0;
  }
  float* panel0 = packs ? static_cast<float*>(aligned_alloc(64, (bytes0 + 63) / 64 * 64)) : nullptr;
  float* panel1 = packs ? static_cast<float*>(aligned_alloc(64, (bytes1 + 63) / 64 * 64)) : nullptr;
  if (packs) pack("A", "N", "N", &n2, &M, &K, &N, &K, B.data() + n, panel1);
  int cold = 0;

  struct Variant {
    std::string name;
    double scale;
    std::function<void()> run;
  };
  std::vector<Variant> variants = {
      {"rows: half the rows", 1, [&] { sgemm('N', 'N', m, N, K, 1, A.data(), K, B.data(), N, 0, C[0].data(), N); }},
      {"columns: half the columns", 1, [&] { sgemm('N', 'N', M, n, K, 1, A.data(), K, B.data(), N, 0, C[0].data(), N); }},
      {"tiles: two of 2x2", 2, [&] { sgemm('N', 'N', m, n, K, 1, A.data(), K, B.data(), N, 0, C[0].data(), N); }},
      {"ideal: the whole product / 2", 0.5, [&] { sgemm('N', 'N', M, N, K, 1, A.data(), K, B.data(), N, 0, C[0].data(), N); }},
      {"warm C: the whole product", 1, [&] { sgemm('N', 'N', M, N, K, 1, A.data(), K, B.data(), N, 0, C[0].data(), N); }},
      {"cold C: the whole product", 1, [&] { sgemm('N', 'N', M, N, K, 1, A.data(), K, B.data(), N, 0, C[1 + cold++ % 64].data(), N); }},
  };
  if (packs) {
    variants.push_back({"packed B: pack a panel, half the rows x 2 panels", 1, [&] {
                          pack("A", "N", "N", &n, &M, &K, &N, &K, B.data(), panel0);
                          compute("P", "N", &n, &m, &K, panel0, &N, A.data(), &K, &zero, C[0].data(), &N);
                          compute("P", "N", &n2, &m, &K, panel1, &N, A.data(), &K, &zero, C[0].data() + n, &N);
                        }});
  }
  std::vector<std::vector<double>> ms(variants.size());
  for (int r = 0; r < rounds; r++) {
    for (size_t v = 0; v < variants.size(); v++) {
      const double t0 = cpuMs();
      variants[v].run();
      ms[v].push_back((cpuMs() - t0) * variants[v].scale);
    }
  }
  for (size_t v = 0; v < variants.size(); v++) {
    std::sort(ms[v].begin(), ms[v].end());
    printf("{\"name\":\"%s\",\"ms\":%.4f}\n", variants[v].name.c_str(), ms[v][ms[v].size() / 2]);
  }
  return 0;
}
