#include "softmax-op.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "custom-op-kit.h"

// gcc if-converts no floating-point select (the floor, the denormal path) while a comparison
// may trap; nothing here reads the FP exception flags.
#pragma GCC optimize("no-trapping-math")

namespace ortc {

namespace {

/** Elements per task, whole rows: ~16K exps (~10 µs) outweigh waking a pool thread. */
constexpr int64_t kBlock = 1 << 14;

/** exp(d) for d below this is < 2^-150 (float32's 0) even before dividing by a sum >= 1. */
constexpr double kFloor = -110.0;
/** Adding it rounds a double below 2^51 to an integer held in the low bits of its pattern. */
constexpr double kRound = 0x1.8p52;

struct Rows {
  const float* x;
  float* y;
  int64_t rows, cols, perBlock;
};

// (a builtin: gcc vectorizes no loop with memcpy's bit casts in it)
int64_t bitsOf(double v) { return __builtin_bit_cast(int64_t, v); }
double fromBits(int64_t b) { return __builtin_bit_cast(double, b); }

// exp(x - m) for one row into e (float64), returns their sum. d = x - m is in [-inf, 0]; below
// kFloor the term is 0, above it exp = 2^k · p(r) with r = d - k·ln2, |r| <= ln2/2, a degree-9
// Taylor polynomial (relative error < 1e-11, float32's 2^-24 is 6e-8), and 2^k >= 2^-159 a normal double made from bits.
__attribute__((target_clones("avx512f", "avx2", "default")))
double expRow(const float* x, float m, double* e, int64_t n) {
  double sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t j = 0; j < n; j++) {
    const double d = static_cast<double>(x[j]) - m;
    const double c = d < kFloor ? kFloor : d;
    const double t = c * 1.4426950408889634 + kRound;
    const double k = t - kRound;
    const double r = (c - k * 0.6931471803691238) - k * 1.9082149292705877e-10;
    double p = 1.0 / 362880;
    p = p * r + 1.0 / 40320;
    p = p * r + 1.0 / 5040;
    p = p * r + 1.0 / 720;
    p = p * r + 1.0 / 120;
    p = p * r + 1.0 / 24;
    p = p * r + 1.0 / 6;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    const double scale = fromBits(static_cast<int64_t>(static_cast<uint64_t>(bitsOf(t) - bitsOf(kRound) + 1023) << 52));
    const double v = d < kFloor ? 0.0 : p * scale;
    e[j] = v;
    sum += v;
  }
  return sum;
}

// y = e / sum rounded to float32. At or above 2^-126 the conversion is normal; below, the
// denormal's pattern is v·2^149 rounded to nearest even as an integer (no FP underflow).
__attribute__((target_clones("avx512f", "avx2", "default")))
void divideRow(const double* e, double inverse, float* y, int64_t n) {
  for (int64_t j = 0; j < n; j++) {
    const double v = e[j] * inverse;
    const float normal = static_cast<float>(v < 0x1p-126 ? 0x1p-126 : v);
    const int32_t tiny = static_cast<int32_t>(bitsOf(v * 0x1p149 + kRound));
    y[j] = v < 0x1p-126 ? __builtin_bit_cast(float, tiny) : normal;
  }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
float rowMax(const float* x, int64_t n) {
  float m = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : m)
  for (int64_t j = 0; j < n; j++) m = x[j] > m ? x[j] : m;
  return m;
}

void runBlock(void* raw, size_t i) {
  const auto& s = *static_cast<const Rows*>(raw);
  thread_local std::vector<double> e;
  e.resize(static_cast<size_t>(s.cols));
  const int64_t begin = static_cast<int64_t>(i) * s.perBlock, end = std::min(s.rows, begin + s.perBlock);
  for (int64_t r = begin; r < end; r++) {
    const float* x = s.x + r * s.cols;
    float* y = s.y + r * s.cols;
    const float m = rowMax(x, s.cols);
    // +inf makes inf - inf and all -inf makes -inf - -inf: NaN, as PyTorch's rows are; a NaN
    // in the row (the max skips it) makes the sum NaN
    const double sum = std::isfinite(m) ? expRow(x, m, e.data(), s.cols) : NAN;
    if (std::isnan(sum)) {
      std::fill(y, y + s.cols, std::numeric_limits<float>::quiet_NaN());
      continue;
    }
    divideRow(e.data(), 1.0 / sum, y, s.cols);
  }
}

Status* compute(void* raw, KernelContext* context) {
  const void* const* api = static_cast<const void* const*>(raw);
  try {
    const Value* x = nullptr;
    check(api, fn<KernelContext_GetInput>(api)(context, 0, &x));
    const std::vector<int64_t> dx = dimsOf(api, x);
    if (dx.empty()) return kernelFailure(api, "Softmax", "x must have rank >= 1; got " + shapeText(dx));
    Value* y = nullptr;
    check(api, fn<KernelContext_GetOutput>(api)(context, 0, dx.data(), dx.size(), &y));
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < dx.size(); i++) rows *= dx[i];
    const int64_t cols = dx.back();
    if (rows == 0 || cols == 0) return nullptr;
    Rows s{floatData(api, x), floatData(api, y), rows, cols, std::max<int64_t>(1, kBlock / cols)};
    check(api, fn<KernelContext_ParallelFor>(api)(context, runBlock, static_cast<size_t>((rows + s.perBlock - 1) / s.perBlock), 0, &s));
    return nullptr;
  } catch (const std::exception& e) {
    return kernelFailure(api, "Softmax", e.what());
  }
}

Status* create(const CustomOp*, const void* const* api, const KernelInfo*, void** out) {
  *out = const_cast<void**>(api);
  return nullptr;
}

}  // namespace

const CustomOp* softmaxOp() {
  static KernelOp op;
  makeFloatKernelOp(op, "Softmax", 1, create, compute, [](void*) {});
  return &op.table;
}

}  // namespace ortc
