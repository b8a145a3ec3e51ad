// The custom ONNX node tpu_kernel.Sgemm (float32 matmul run by oneDNN), in the tpu_kernel
// domain when oneDNN is loaded. The lowering emits it for large GEMMs, in the shapes it takes:
//   A [..., M, K] (transA: [K, M]) times B [K, N]                    -> [..., M, N]
//   A [b..., M, K] times B [b..., K, N] with equal batch dims        -> [b..., M, N]
// and its attribute epilogue: 0 nothing, 1 relu, 2 softmax over the last axis, applied to each
// thread's block of the product while it is in cache (the lowering folds a matmul's only
// consumer into the node: one pass over memory and one wait on the threads less).
#pragma once

#include "dnnl-sgemm.h"
#include "ort-library.h"

namespace ortc {

/**
 * The Sgemm op over `gemm` (whose run must be set); a product runs on oneDNN's team of
 * `threads` when it has one, else it is split into `threads` blocks, run by the node's crew of
 * helper threads (gemm-crew.h) and the caller. Made once (custom-ops.cc).
 */
const CustomOp* sgemmOp(const Sgemm& gemm, int threads);

}  // namespace ortc
