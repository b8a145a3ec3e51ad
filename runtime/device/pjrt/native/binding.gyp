{
  "targets": [
    {
      "target_name": "pjrt",
      "sources": ["addon.cc", "napi-util.cc", "plugin.cc", "compile.cc", "client.cc"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "cflags_cc!": ["-fno-exceptions"],
      "libraries": ["-ldl"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
