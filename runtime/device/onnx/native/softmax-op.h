// The custom ONNX node tpu_kernel.Softmax: softmax over the last axis of a float32 tensor that
// never makes a float32 denormal in a floating-point operation. ORT's Softmax (like PyTorch's)
// computes exp in float32; on wide logits (W4's) many results are denormal, and each costs a
// microcode assist: 0.6 ms against 0.07 ms on unit-range logits. Here exp, the row sum and the
// quotient are float64 (never denormal there), and a denormal float32 result is made from its
// bits as an integer. A row with a NaN or +inf, or all -inf, is NaN, as PyTorch's.
#pragma once

#include "ort-library.h"

namespace ortc {

/** The Softmax op; rows are split into blocks over the intra-op pool. */
const CustomOp* softmaxOp();

}  // namespace ortc
