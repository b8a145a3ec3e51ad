// The custom ONNX node tpu_kernel.Sgemm (float32 matmul run by oneDNN), registered in every
// session when oneDNN is loaded. The lowering emits it for large GEMMs, in the shapes it takes:
//   A [..., M, K] (transA: [K, M]) times B [K, N]                    -> [..., M, N]
//   A [b..., M, K] times B [b..., K, N] with equal batch dims        -> [b..., M, N]
#pragma once

#include "dnnl-sgemm.h"
#include "ort-library.h"

namespace ortc {

constexpr const char* kSgemmDomain = "tpu_kernel";

/**
 * The domain holding Sgemm, made once per process over `gemm` (whose run must be set); a
 * product is split into `threads` blocks, one per thread of the intra-op pool.
 */
CustomOpDomain* sgemmDomain(const void* const* api, const Sgemm& gemm, int threads);

}  // namespace ortc
