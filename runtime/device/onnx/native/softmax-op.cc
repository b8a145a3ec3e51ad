#include "softmax-op.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "custom-op-kit.h"

// gcc if-converts no floating-point select (the clamps, the denormal pattern) while a comparison
// may trap; nothing here reads the FP exception flags.
#pragma GCC optimize("no-trapping-math")
// a * b + c on GCC vectors (the narrow exp) becomes one fused multiply-add where the clone has
// FMA. The file's other products are exact (by powers of 2) or have no sum to fuse with.
#pragma GCC optimize("fp-contract=fast")

namespace ortc {

namespace {

/** Elements per block, whole rows: ~16K (~5 µs), the pool's batches are made of blocks. */
constexpr int64_t kBlock = 1 << 14;

/**
 * A row is narrow when max - min + ln(cols) < 87: then every d = x - max > -(87 - ln(cols)) (also
 * rounded to float32: -87 is a float), so e^d > e^-87 > 2^-126 (= e^-87.3365) is a normal
 * float32, and as the row sum is in [1, cols] every quotient is > e^d / cols > e^-87 too. The
 * factor e^0.33 = 1.4 left over covers the exp's, the sum's and the quotient's few ulps.
 */
constexpr double kNarrow = 87.0;
/** Sum terms below e^-87 are taken as 0: a denormal float32 never enters an FP operation, and
 * with cols <= 2^31 they weigh < 2^-94 of a row sum, which is >= 1 (the max's term). */
constexpr float kSumFloor = -87.0f;
/** Below e^-104 < 2^-150 a quotient (sum >= 1) rounds to float32's 0. */
constexpr float kZero = -104.0f;
/** Exp arguments are clamped here (after kZero decides) so that 2^k stays a normal float. */
constexpr float kClamp = -110.0f;
/** Adding it rounds a float below 2^22 to an integer held in its low mantissa bits. */
constexpr float kShift = 0x1.8p23f;
/** Columns summed in float32 (64 partial sums) before the float64 row sum. */
constexpr int64_t kPart = 1024;

struct Rows {
  const float* x;
  float* y;
  int64_t rows, cols, perBlock;
};

uint32_t bitsOf(float v) { return __builtin_bit_cast(uint32_t, v); }
float fromBits(uint32_t b) { return __builtin_bit_cast(float, b); }

/** x - m as hi + lo exactly (Knuth's two-sum), so exp sees no rounding of the difference. */
struct Difference {
  float hi, lo;
};
inline __attribute__((always_inline)) Difference difference(float x, float m) {
  const float d = x - m;
  const float b = d - x;
  return {d, (x - (d - b)) + (-m - b)};
}

/** 16 floats in GCC's vector extension, loaded from any float address. */
typedef float Floats __attribute__((vector_size(64), aligned(4), may_alias));
// (passed only between inlined functions: no ABI to change)
#pragma GCC diagnostic ignored "-Wpsabi"

/**
 * e^(d + lo) = 2^k · e with e in [0.70, 1.42]. k = round(d / ln2) by the 1.5·2^23 shift (its
 * conversion makes NaN's k 0x80000000, whose shift leaves a NaN e NaN); r = d - k ln2 + lo, ln2
 * in two parts (k times the first exact for |k| < 256), |r| <= ln2/2 + 2^-17; e^r by Horner's
 * rule in six fused multiply-adds, the degree-6 coefficients fitted here in float64 (Lawson's
 * weighted least squares on Chebyshev nodes: relative error 2e-9 on |r| <= ln2/2 + 2^-9).
 * Measured against float64 exp over every 7th float in [-87, 0]: <= 1.04 ulp. d must be >=
 * kClamp, so that 2^k >= 2^-160. F is float (in loops gcc vectorizes) or Floats.
 */
template <typename F>
struct Exp {
  F e, k;  // k integral
};

inline __attribute__((always_inline)) float fused(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline __attribute__((always_inline)) Floats fused(Floats a, Floats b, Floats c) { return a * b + c; }

template <typename F>
inline __attribute__((always_inline)) Exp<F> expParts(F d, F lo = -F{}) {
  const auto c = [](float v) { return F{} + v; };
  const F t = fused(d, c(1.44269504088896341f), c(kShift));
  const F k = t - kShift;
  F r = fused(-k, c(0.693145751953125f), d);
  r = fused(-k, c(1.42860682030941723e-06f), r) + lo;
  // written out: a loop over the coefficients, not always unrolled first, kept gcc from
  // vectorizing the loops this is inlined into
  F p = c(0.0013843123899583932f);
  p = fused(p, r, c(0.008374610751805714f));
  p = fused(p, r, c(0.04166803260274008f));
  p = fused(p, r, c(0.16666426013353106f));
  p = fused(p, r, c(0.4999999401037976f));
  p = fused(p, r, c(1.0000000332327648f));
  return {fused(p, r, c(1.0f)), k};
}

/** e · 2^k by its exponent field: exact while the result is a normal float. */
inline __attribute__((always_inline)) float scaled(float e, float k) { return fromBits(bitsOf(e) + (static_cast<uint32_t>(static_cast<int32_t>(k)) << 23)); }
typedef int32_t Ints __attribute__((vector_size(64)));
inline __attribute__((always_inline)) Floats scaled(Floats e, Floats k) {
  return reinterpret_cast<Floats>(reinterpret_cast<Ints>(e) + (__builtin_convertvector(k, Ints) << 23));
}

struct Range {
  float hi, lo;
};


inline __attribute__((always_inline)) Floats larger(Floats a, Floats b) { return a > b ? a : b; }
inline __attribute__((always_inline)) Floats smaller(Floats a, Floats b) { return a < b ? a : b; }

/** Lane 0 of the result: f over all 16 lanes, by halving (4 steps). */
template <Floats (*f)(Floats, Floats)>
inline __attribute__((always_inline)) float across(Floats v) {
  v = f(v, __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  v = f(v, __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  v = f(v, __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
  v = f(v, __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  return v[0];
}

// The row's max and min, NaN skipped (the sums catch it: a NaN exp stays NaN). Four vectors
// of each at once and one horizontal step per row: with the one accumulator a reduction loop
// gets, each max waits on the last one's latency, and 1024 columns are too few to hide it.
__attribute__((target_clones("avx512f", "arch=haswell", "default")))
Range rowRange(const float* x, int64_t n) {
  const float inf = std::numeric_limits<float>::infinity();
  Floats h0 = Floats{} - inf, h1 = h0, h2 = h0, h3 = h0, l0 = Floats{} + inf, l1 = l0, l2 = l0, l3 = l0;
  int64_t j = 0;
  for (; j + 64 <= n; j += 64) {
    const Floats* v = reinterpret_cast<const Floats*>(x + j);
    h0 = larger(v[0], h0), h1 = larger(v[1], h1), h2 = larger(v[2], h2), h3 = larger(v[3], h3);
    l0 = smaller(v[0], l0), l1 = smaller(v[1], l1), l2 = smaller(v[2], l2), l3 = smaller(v[3], l3);
  }
  Range r{across<larger>(larger(larger(h0, h1), larger(h2, h3))), across<smaller>(smaller(smaller(l0, l1), smaller(l2, l3)))};
  for (; j < n; j++) r = {x[j] > r.hi ? x[j] : r.hi, x[j] < r.lo ? x[j] : r.lo};
  return r;
}

inline __attribute__((always_inline)) Floats plus(Floats a, Floats b) { return a + b; }

// A narrow row: y = e^(x - m), every one normal, and their sum: 32 float32 partial sums (two
// vectors) over each kPart columns, added in float64. x - m is rounded to float32 here, as
// PyTorch's softmax rounds it. (GCC vectors: a reduction loop's one accumulator would be
// summed lane by lane at the end of each row.)
__attribute__((target_clones("avx512f", "arch=haswell", "default")))
double narrowExp(const float* x, float m, float* y, int64_t n) {
  double sum = 0;
  int64_t j = 0;
  while (j + 32 <= n) {
    Floats s[2] = {};
    for (const int64_t end = std::min(n, j + kPart); j + 32 <= end; j += 32) {
      for (int h = 0; h < 2; h++) {
        const Exp<Floats> p = expParts(reinterpret_cast<const Floats*>(x + j)[h] - m);
        const Floats e = scaled(p.e, p.k);
        reinterpret_cast<Floats*>(y + j)[h] = e;
        s[h] += e;
      }
    }
    sum += across<plus>(s[0] + s[1]);
  }
  for (; j < n; j++) {
    const Exp<float> p = expParts(x[j] - m);
    y[j] = scaled(p.e, p.k);
    sum += y[j];
  }
  return sum;
}

// Σ y: 64 float32 partial sums (four vectors) over each kPart columns, added in float64. (A
// reduction loop's one vector would be summed lane by lane at the end of every row.) A NaN
// term makes it NaN.
__attribute__((target_clones("avx512f", "arch=haswell", "default")))
double rowSum(const float* y, int64_t n) {
  double sum = 0;
  int64_t j = 0;
  while (j + 64 <= n) {
    Floats s0{}, s1{}, s2{}, s3{};
    for (const int64_t end = std::min(n, j + kPart); j + 64 <= end; j += 64) {
      const Floats* v = reinterpret_cast<const Floats*>(y + j);
      s0 += v[0], s1 += v[1], s2 += v[2], s3 += v[3];
    }
    sum += across<plus>((s0 + s1) + (s2 + s3));
  }
  for (; j < n; j++) sum += y[j];
  return sum;
}

// A wide row's terms for its sum, and the sum: e^(x - m) from the exact difference, those
// below e^kSumFloor (which would be denormal) taken at the floor and set to 0.
__attribute__((target_clones("avx512f", "arch=haswell", "default")))
double wideExp(const float* x, float m, float* y, int64_t n) {
#pragma omp simd
  for (int64_t j = 0; j < n; j++) {
    const Difference d = difference(x[j], m);
    const Exp<float> p = expParts(d.hi < kSumFloor ? kSumFloor : d.hi, d.lo);
    y[j] = d.hi < kSumFloor ? 0.0f : scaled(p.e, p.k);
  }
  return rowSum(y, n);
}

__attribute__((target_clones("avx512f", "arch=haswell", "default")))
void scaleRow(float* y, float inverse, int64_t n) {
  for (int64_t j = 0; j < n; j++) y[j] *= inverse;
}

// A wide row's quotients 2^k · (e · inverse): w = e · inverse is normal (e >= 0.7, inverse >=
// 1/cols); scaled by its exponent field while the result stays normal, else the denormal's
// pattern is w·2^(k+149) (< 2^23, a normal float) rounded to nearest even as an integer by
// adding 2^23. No float operation makes a denormal. (-inf entries, whose two-sum is NaN, and
// everything below e^kZero give 0.)
__attribute__((target_clones("avx512f", "arch=haswell", "default")))
void wideQuotient(const float* x, float m, float inverse, float* y, int64_t n) {
  for (int64_t j = 0; j < n; j++) {
    const Difference d = difference(x[j], m);
    const Exp<float> p = expParts(d.hi < kClamp ? kClamp : d.hi, d.lo);
    const float w = p.e * inverse;
    const int32_t k = static_cast<int32_t>(p.k);
    const int32_t exponent = static_cast<int32_t>(bitsOf(w) >> 23) + k;
    const int32_t up = std::min(k + 149, 40);
    const float grid = w * fromBits(static_cast<uint32_t>(up + 127) << 23) + 0x1p23f;
    const float tiny = fromBits(bitsOf(grid) - bitsOf(0x1p23f));
    const float q = exponent >= 1 ? scaled(w, p.k) : tiny;
    y[j] = d.hi < kZero ? 0.0f : q;
  }
}

void runBlock(void* raw, size_t i) {
  const auto& s = *static_cast<const Rows*>(raw);
  const int64_t begin = static_cast<int64_t>(i) * s.perBlock, end = std::min(s.rows, begin + s.perBlock);
  softmaxRows(s.x + begin * s.cols, s.y + begin * s.cols, end - begin, s.cols);
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
    // one batch of blocks per pool thread: a task per block (16 for W4's [256, 1024]) waited on
    // preempted pool threads, 1.2x ONNX's Softmax against 1.05x, at load 6 on 2 cores
    const auto blocks = static_cast<size_t>((rows + s.perBlock - 1) / s.perBlock);
    const auto batches = std::min(blocks, static_cast<size_t>(std::max(1, loadedLibrary().threads)));
    check(api, fn<KernelContext_ParallelFor>(api)(context, runBlock, blocks, batches, &s));
    return nullptr;
  } catch (const std::exception& e) {
    return kernelFailure(api, "Softmax", e.what());
  }
}

}  // namespace

void softmaxRows(const float* x, float* y, int64_t rows, int64_t cols) {
  const double logCols = std::log(static_cast<double>(cols));
  for (int64_t r = 0; r < rows; r++, x += cols, y += cols) {
    const Range g = rowRange(x, cols);
    const bool narrow = static_cast<double>(g.hi) - g.lo + logCols < kNarrow;
    // a +inf max (inf - inf), an all -inf row (-inf - -inf) or a NaN (a NaN sum): NaN, as PyTorch's rows are
    const double sum = std::isfinite(g.hi) ? (narrow ? narrowExp : wideExp)(x, g.hi, y, cols) : NAN;
    if (std::isnan(sum)) {
      std::fill(y, y + cols, std::numeric_limits<float>::quiet_NaN());
    } else if (narrow) {
      scaleRow(y, static_cast<float>(1.0 / sum), cols);
    } else {
      wideQuotient(x, g.hi, static_cast<float>(1.0 / sum), y, cols);
    }
  }
}

const CustomOp* softmaxOp() {
  static KernelOp op;
  makeStatelessFloatKernelOp(op, "Softmax", 1, compute);
  return &op.table;
}

}  // namespace ortc
