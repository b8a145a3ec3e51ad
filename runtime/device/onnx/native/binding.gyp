{
  "targets": [
    {
      "target_name": "ortc",
      "sources": ["addon.cc", "ort-library.cc", "custom-op-kit.cc", "custom-ops.cc", "axpy-op.cc", "select-op.cc", "softmax-op.cc", "dnnl-sgemm.cc", "sgemm-op.cc", "gemm-crew.cc"],
      "cflags_cc": ["-std=c++17", "-O3", "-ffp-contract=off", "-fopenmp-simd", "-fexceptions", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "cflags_cc!": ["-fno-exceptions"],
      "libraries": ["-ldl"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
