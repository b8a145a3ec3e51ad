// ONNX Runtime's library, loaded once per process: its API table, one environment whose
// global thread pools every session shares, and the CPU memory description of our buffers.
#pragma once

#include <string>

#include "ort-c-api.h"

namespace ortc {

struct Library {
  const void* const* api;
  Env* env;
  MemoryInfo* cpu;
  std::string version;
  std::string buildInfo;
  int threads;
  /**
   * Whether the environment has the global pools: ORT keeps one environment per process, so one
   * made before ours (onnxruntime-node's, in the same process) has none; sessions then get pools of their own.
   */
  bool globalPools;
};

/**
 * Loads the library at `path` (the first call in the process decides; later calls get the
 * same), checks that its table behaves as ort-c-api.h declares, creates the environment with
 * global intra-op pools of `threads` threads that never spin. Throws std::runtime_error with
 * the reason when any step fails (and so does every later call).
 */
const Library& loadLibrary(const std::string& path, int threads);
/** The loaded library, mutable for the addon to record that the global pools are missing. */
Library& loadedLibrary();

/** Throws std::runtime_error carrying ORT's message when `status` is an error (releasing it). */
void check(const void* const* api, Status* status);

}  // namespace ortc
