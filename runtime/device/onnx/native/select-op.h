// The custom ONNX node tpu_kernel.Select: out = c ? x : y for a bool c and float32 x and y,
// each either of the output's shape or one value, every value copied bit for bit (a -0 and a
// NaN's payload kept). ONNX Runtime's Where loses a -0 (signed-zeros.ts): exact, it took four
// nodes (Xor, two Where, Max) and four passes; W6's relu gradient 64x256 was ~16 µs of them.
#pragma once

#include "ort-library.h"

namespace ortc {

/** The Select op; a selection is split into blocks of 64K elements over the intra-op pool. */
const CustomOp* selectOp();

}  // namespace ortc
