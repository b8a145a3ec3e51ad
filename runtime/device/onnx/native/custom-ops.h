// Our custom ONNX Runtime ops, in the domain tpu_kernel: Axpy and Softmax always, Sgemm when oneDNN loaded.
#pragma once

#include "dnnl-sgemm.h"
#include "ort-library.h"

namespace ortc {

constexpr const char* kCustomDomain = "tpu_kernel";

/** The domain, made once per process (`gemm` and `threads` of the first call). */
CustomOpDomain* customOpDomain(const void* const* api, const Sgemm& gemm, int threads);

}  // namespace ortc
