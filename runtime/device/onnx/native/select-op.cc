#include "select-op.h"

#include <algorithm>

#include "custom-op-kit.h"

namespace ortc {

namespace {

/** Elements per task, as Axpy's: a block is worth waking a pool thread for. */
constexpr int64_t kBlock = 1 << 16;

struct Selection {
  const uint8_t* c;  // ONNX bools: one byte, 0 or 1
  const float *x, *y;
  float* out;
  int64_t n;
  bool cOne, xOne, yOne;  // one value, read for every element
};

/**
 * One loop per operand layout (a one-value operand as a constant). Both values are loaded
 * whatever the condition and the condition is widened to int32, so gcc vectorizes the loop as
 * a blend (bitwise: a -0 and NaN payloads kept); with `c[j] ? x[j] : y[j]` on a bool it kept a
 * branch per element, 7 ns each on random signs.
 */
template <bool kCOne, bool kXOne, bool kYOne>
__attribute__((target_clones("avx512f", "avx2", "default")))
void selectRange(const uint8_t* c, const float* x, const float* y, float* out, int64_t begin, int64_t end) {
  const float x0 = x[0], y0 = y[0];
  const uint8_t c0 = c[0];
#pragma GCC ivdep
  for (int64_t j = begin; j < end; j++) {
    const float a = kXOne ? x0 : x[j], b = kYOne ? y0 : y[j];
    const int32_t cj = kCOne ? c0 : c[j];
    out[j] = cj != 0 ? a : b;
  }
}

using RangeFn = void (*)(const uint8_t*, const float*, const float*, float*, int64_t, int64_t);

RangeFn rangeFor(bool cOne, bool xOne, bool yOne) {
  static const RangeFn table[8] = {
      selectRange<false, false, false>, selectRange<false, false, true>, selectRange<false, true, false>, selectRange<false, true, true>,
      selectRange<true, false, false>,  selectRange<true, false, true>,  selectRange<true, true, false>,  selectRange<true, true, true>,
  };
  return table[(cOne ? 4 : 0) + (xOne ? 2 : 0) + (yOne ? 1 : 0)];
}

void runBlock(void* raw, size_t i) {
  const auto& s = *static_cast<const Selection*>(raw);
  const int64_t begin = static_cast<int64_t>(i) * kBlock, end = std::min(s.n, begin + kBlock);
  rangeFor(s.cOne, s.xOne, s.yOne)(s.c, s.x, s.y, s.out, begin, end);
}

int64_t count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

Status* compute(void* raw, KernelContext* context) {
  const void* const* api = static_cast<const void* const*>(raw);
  try {
    const Value* in[3] = {};
    std::vector<int64_t> dims[3];
    for (size_t i = 0; i < 3; i++) {
      check(api, fn<KernelContext_GetInput>(api)(context, i, &in[i]));
      dims[i] = dimsOf(api, in[i]);
    }
    // The output's shape: the most values' (one operand has it; the others are one value),
    // of the highest rank among one-value shapes.
    const std::vector<int64_t>& shape = *std::max_element(dims, dims + 3, [](const auto& a, const auto& b) {
      return count(a) != count(b) ? count(a) < count(b) : a.size() < b.size();
    });
    for (const auto& d : dims) {
      if (d != shape && count(d) != 1) {
        return kernelFailure(api, "Select", "c, x and y must each have the output's shape or one value; got " + shapeText(dims[0]) + ", " + shapeText(dims[1]) + ", " + shapeText(dims[2]));
      }
    }
    Value* out = nullptr;
    check(api, fn<KernelContext_GetOutput>(api)(context, 0, shape.data(), shape.size(), &out));
    const int64_t n = count(shape);
    if (n == 0) return nullptr;
    void* c = nullptr;
    check(api, fn<GetTensorMutableData>(api)(const_cast<Value*>(in[0]), &c));
    Selection s{static_cast<const uint8_t*>(c), floatData(api, in[1]), floatData(api, in[2]), floatData(api, out), n,
                dims[0] != shape, dims[1] != shape, dims[2] != shape};
    check(api, fn<KernelContext_ParallelFor>(api)(context, runBlock, static_cast<size_t>((n + kBlock - 1) / kBlock), 0, &s));
    return nullptr;
  } catch (const std::exception& e) {
    return kernelFailure(api, "Select", e.what());
  }
}

}  // namespace

const CustomOp* selectOp() {
  static KernelOp op;
  makeStatelessFloatKernelOp(op, "Select", 3, compute);
  // The condition is bool; x, y and the output float32.
  op.table.GetInputType = [](const CustomOp*, size_t i) { return i == 0 ? kElementBool : kElementFloat; };
  return &op.table;
}

}  // namespace ortc
