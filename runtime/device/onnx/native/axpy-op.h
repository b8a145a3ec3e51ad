// The custom ONNX node tpu_kernel.Axpy: y = x - g * s (subtract 1) or x + g * s (subtract 0)
// for float32 x and g of one shape and a one-value s, in one pass. ONNX has no such op: Mul
// then Sub took two passes over an optimizer step's weights (W6: 256x784). Each element is
// rounded as the two ONNX ops round it, product first (no fused multiply-add).
#pragma once

#include "ort-library.h"

namespace ortc {

/** The Axpy op; an update is split into blocks of 64K elements over the intra-op pool. */
const CustomOp* axpyOp();

}  // namespace ortc
