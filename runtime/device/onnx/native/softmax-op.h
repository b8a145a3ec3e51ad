// The custom ONNX node tpu_kernel.Softmax: softmax over the last axis of a float32 tensor, row by
// row, in float32 vector lanes, never making a float32 denormal in a floating-point operation.
// ORT's Softmax (like PyTorch's) slows down ~10x on wide logits (W4's: rows spanning thousands),
// whose exps fall below float32's normal range (denormals, a microcode assist each).
// - Narrow rows, max - min + ln(cols) < 87: no exp and no quotient can underflow; x - max
//   rounded to float32 (as PyTorch does), then a float32 exp polynomial, the sum, the quotient.
// - Wide rows: x - max exact (two-sum), and each quotient 2^k · (e / sum) scaled by its
//   exponent bits, or, below 2^-126, the denormal's bits made by integer rounding.
// A row with a NaN or +inf, or all -inf, is NaN, as PyTorch's.
#pragma once

#include <cstdint>

#include "ort-library.h"

namespace ortc {

/** The Softmax op; row blocks are split over the intra-op pool, one batch per thread. */
const CustomOp* softmaxOp();

/** Softmax of `rows` rows of `cols` floats, x into y (distinct memory: a wide row reads x twice). */
void softmaxRows(const float* x, float* y, int64_t rows, int64_t cols);

}  // namespace ortc
