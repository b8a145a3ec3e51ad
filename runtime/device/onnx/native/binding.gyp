{
  "targets": [
    {
      "target_name": "ortc",
      "sources": ["addon.cc", "ort-library.cc", "dnnl-sgemm.cc", "sgemm-op.cc"],
      "cflags_cc": ["-std=c++17", "-O2", "-fexceptions", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "cflags_cc!": ["-fno-exceptions"],
      "libraries": ["-ldl"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
