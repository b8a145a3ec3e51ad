#include "axpy-op.h"

#include <algorithm>

#include "custom-op-kit.h"

namespace ortc {

namespace {

struct Kernel {
  const void* const* api;
  bool subtract;
};

/** Elements per task: an update of 64K (~30 µs) outweighs waking a pool thread for it. */
constexpr int64_t kBlock = 1 << 16;

struct Update {
  const float *x, *g;
  float s;
  float* y;
  int64_t n;
  bool subtract;
};

// One block, read from locals (through the struct, gcc reloaded s from memory each element and
// kept the loop scalar: 8.5% of W6 compiled's CPU). ivdep: y is x itself or apart from it,
// never shifted, so vector lanes are safe; a clone per vector width, chosen at load time.
__attribute__((target_clones("avx512f", "avx2", "default")))
void update(const float* x, const float* g, float s, float* y, int64_t n, bool subtract) {
  if (subtract) {
#pragma GCC ivdep
    for (int64_t j = 0; j < n; j++) y[j] = x[j] - g[j] * s;
  } else {
#pragma GCC ivdep
    for (int64_t j = 0; j < n; j++) y[j] = x[j] + g[j] * s;
  }
}

void runBlock(void* raw, size_t i) {
  const auto& u = *static_cast<const Update*>(raw);
  const int64_t begin = static_cast<int64_t>(i) * kBlock, end = std::min(u.n, begin + kBlock);
  update(u.x + begin, u.g + begin, u.s, u.y + begin, end - begin, u.subtract);
}

int64_t count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

Status* compute(void* raw, KernelContext* context) {
  const auto& k = *static_cast<Kernel*>(raw);
  const void* const* api = k.api;
  try {
    const Value *x = nullptr, *g = nullptr, *s = nullptr;
    check(api, fn<KernelContext_GetInput>(api)(context, 0, &x));
    check(api, fn<KernelContext_GetInput>(api)(context, 1, &g));
    check(api, fn<KernelContext_GetInput>(api)(context, 2, &s));
    const std::vector<int64_t> dx = dimsOf(api, x), dg = dimsOf(api, g), ds = dimsOf(api, s);
    if (dx != dg || count(ds) != 1) {
      return kernelFailure(api, "Axpy", "x and g must have one shape and s one value; got " + shapeText(dx) + ", " + shapeText(dg) + ", " + shapeText(ds));
    }
    Value* y = nullptr;
    check(api, fn<KernelContext_GetOutput>(api)(context, 0, dx.data(), dx.size(), &y));
    Update u{floatData(api, x), floatData(api, g), *floatData(api, s), floatData(api, y), count(dx), k.subtract};
    if (u.n == 0) return nullptr;
    check(api, fn<KernelContext_ParallelFor>(api)(context, runBlock, static_cast<size_t>((u.n + kBlock - 1) / kBlock), 0, &u));
    return nullptr;
  } catch (const std::exception& e) {
    return kernelFailure(api, "Axpy", e.what());
  }
}

Status* create(const CustomOp*, const void* const* api, const KernelInfo* info, void** out) {
  *out = new Kernel{api, intAttribute(api, info, "subtract", 1) != 0};
  return nullptr;
}

}  // namespace

const CustomOp* axpyOp() {
  static KernelOp op;
  makeFloatKernelOp(op, "Axpy", 3, create, compute, [](void* kernel) { delete static_cast<Kernel*>(kernel); });
  return &op.table;
}

}  // namespace ortc
