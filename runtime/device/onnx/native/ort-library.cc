#include "ort-library.h"

#include <dlfcn.h>

#include <mutex>
#include <stdexcept>
#include <string>

namespace ortc {

void check(const void* const* api, Status* status) {
  if (!status) return;
  std::string message = fn<GetErrorMessage>(api)(status);
  fn<ReleaseStatus>(api)(status);
  throw std::runtime_error(message);
}

namespace {

/** A status made and read back through the table: wrong slots would not return what went in. */
void verifySlots(const void* const* api) {
  const char* probe = "ortc slot probe";
  Status* status = fn<CreateStatus>(api)(kErrorInvalidArgument, probe);
  if (!status) throw std::runtime_error("CreateStatus (slot 0) returned nothing");
  const int code = fn<GetErrorCode>(api)(status);
  const std::string message = fn<GetErrorMessage>(api)(status);
  fn<ReleaseStatus>(api)(status);
  if (code != kErrorInvalidArgument || message != probe) {
    throw std::runtime_error("the OrtApi table does not match ort-c-api.h (status round trip failed)");
  }
  // Slot 254 returns ORT's build description ("ORT Build Info: git-branch=...").
  const char* build = fn<GetBuildInfoString>(api)();
  if (!build || std::string(build).rfind("ORT Build Info:", 0) != 0) {
    throw std::runtime_error(std::string("the OrtApi table does not match ort-c-api.h (GetBuildInfoString, slot 254, gave: ") + (build ? build : "nothing") + ")");
  }
}

Library open(const std::string& path, int threads) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("dlopen failed: ") + dlerror());
  auto getBase = reinterpret_cast<GetApiBaseFn>(dlsym(handle, "OrtGetApiBase"));
  if (!getBase) throw std::runtime_error("the library exports no OrtGetApiBase");
  const ApiBase* base = getBase();
  Library lib{};
  lib.version = base->GetVersionString();
  lib.api = base->GetApi(kApiVersion);
  if (!lib.api) throw std::runtime_error("ONNX Runtime " + lib.version + " does not offer API version " + std::to_string(kApiVersion));
  verifySlots(lib.api);
  lib.buildInfo = fn<GetBuildInfoString>(lib.api)();
  lib.threads = threads;
  lib.globalPools = true;

  const void* const* api = lib.api;
  ThreadingOptions* options = nullptr;
  check(api, fn<CreateThreadingOptions>(api)(&options));
  try {
    check(api, fn<SetGlobalIntraOpNumThreads>(api)(options, threads));
    check(api, fn<SetGlobalInterOpNumThreads>(api)(options, 1));
    // Spinning pool threads took the core the device thread needed (3x op by op on 2 cores).
    check(api, fn<SetGlobalSpinControl>(api)(options, 0));
    check(api, fn<CreateEnvWithGlobalThreadPools>(api)(kLoggingFatal, "tpu-kernel", options, &lib.env));
  } catch (...) {
    fn<ReleaseThreadingOptions>(api)(options);
    throw;
  }
  fn<ReleaseThreadingOptions>(api)(options);
  check(api, fn<CreateCpuMemoryInfo>(api)(kDeviceAllocator, kMemTypeDefault, &lib.cpu));
  return lib;
}

}  // namespace

namespace {
std::mutex mutex;
Library library;
std::string failure;
bool tried = false;
}  // namespace

Library& loadedLibrary() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!tried) throw std::runtime_error("ortc: init() was not called");
  if (!failure.empty()) throw std::runtime_error(failure);
  return library;
}

const Library& loadLibrary(const std::string& path, int threads) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!tried) {
    tried = true;
    try {
      library = open(path, threads);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
  return library;
}

}  // namespace ortc
