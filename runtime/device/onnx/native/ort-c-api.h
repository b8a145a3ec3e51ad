// Our own declarations of the few ONNX Runtime C API entries the addon calls. No ORT header
// is copied or included: each function is a slot of the OrtApi table (an array of function
// pointers that ORT only ever appends to) with the signature it is declared with.
//
// Where the facts come from: microsoft/onnxruntime, include/onnxruntime/core/session/
// onnxruntime_c_api.h (the OrtApi struct and its ORT_API2_STATUS signatures) and
// onnxruntime/core/session/onnxruntime_c_api.cc (the table `ort_api_1_to_N` in slot order, with
// static_asserts pinning each version's last slot: ReleaseCustomOpDomain 101, SetGlobalSpinControl
// 149, GetBuildInfoString 254), read in the 1.17 sources (`ort_api_1_to_17`; the 1.30 tag's
// repository was too large to fetch here). The slots used here all shipped by API version 15
// (ORT 1.15), and the file's rule is that a shipped version's slots never change, so they hold
// for the 1.30.0 library onnxruntime-node ships (`strings libonnxruntime.so.1` shows 1.30.0). ort-library.cc checks at load
// that the table behaves as declared (a status round trip; slot 254 gives "ORT Build Info: ...").
#pragma once

#include <cstddef>
#include <cstdint>

namespace ortc {

// Opaque ORT objects: only ever handled by pointer.
struct Status;
struct Env;
struct ThreadingOptions;
struct SessionOptions;
struct Session;
struct MemoryInfo;
struct Value;
struct RunOptions;

/** The API version we ask GetApi for: the first with every slot below (GetBuildInfoString). */
constexpr uint32_t kApiVersion = 15;

// Enum values (OrtErrorCode, OrtLoggingLevel, GraphOptimizationLevel, OrtAllocatorType,
// OrtMemType, ONNXTensorElementDataType) as the header numbers them.
constexpr int kErrorInvalidArgument = 2;
constexpr int kLoggingFatal = 4;
constexpr int kGraphOptimizeAll = 99;
constexpr int kDeviceAllocator = 0;
constexpr int kMemTypeDefault = 0;
constexpr int kElementFloat = 1;
constexpr int kElementInt32 = 6;
constexpr int kElementInt64 = 7;
constexpr int kElementBool = 9;

/** OrtApiBase, returned by the exported OrtGetApiBase(): two slots, never changed. */
struct ApiBase {
  const void* const* (*GetApi)(uint32_t version);
  const char* (*GetVersionString)();
};
using GetApiBaseFn = const ApiBase* (*)();

/** Each used OrtApi slot: its index and signature (OrtStatus* null means success). */
template <int Index, class Fn>
struct Slot {
  static constexpr int index = Index;
  using type = Fn;
};

using CreateStatus = Slot<0, Status* (*)(int code, const char* message)>;
using GetErrorCode = Slot<1, int (*)(const Status*)>;
using GetErrorMessage = Slot<2, const char* (*)(const Status*)>;
using CreateSessionFromArray =
    Slot<8, Status* (*)(const Env*, const void* model, size_t length, const SessionOptions*, Session** out)>;
using Run = Slot<9, Status* (*)(Session*, const RunOptions*, const char* const* inputNames, const Value* const* inputs,
                                size_t inputCount, const char* const* outputNames, size_t outputCount, Value** outputs)>;
using CreateSessionOptions = Slot<10, Status* (*)(SessionOptions** out)>;
using SetSessionLogSeverityLevel = Slot<22, Status* (*)(SessionOptions*, int level)>;
using SetSessionGraphOptimizationLevel = Slot<23, Status* (*)(SessionOptions*, int level)>;
using SetIntraOpNumThreads = Slot<24, Status* (*)(SessionOptions*, int threads)>;
using CreateTensorWithDataAsOrtValue =
    Slot<49, Status* (*)(const MemoryInfo*, void* data, size_t bytes, const int64_t* shape, size_t rank, int elementType,
                         Value** out)>;
using CreateCpuMemoryInfo = Slot<69, Status* (*)(int allocatorType, int memType, MemoryInfo** out)>;
using ReleaseStatus = Slot<93, void (*)(Status*)>;
using ReleaseSession = Slot<95, void (*)(Session*)>;
using ReleaseValue = Slot<96, void (*)(Value*)>;
using ReleaseSessionOptions = Slot<100, void (*)(SessionOptions*)>;
using AddSessionConfigEntry = Slot<130, Status* (*)(SessionOptions*, const char* key, const char* value)>;
using CreateEnvWithGlobalThreadPools =
    Slot<119, Status* (*)(int logLevel, const char* logId, const ThreadingOptions*, Env** out)>;
using DisablePerSessionThreads = Slot<120, Status* (*)(SessionOptions*)>;
using CreateThreadingOptions = Slot<121, Status* (*)(ThreadingOptions** out)>;
using ReleaseThreadingOptions = Slot<122, void (*)(ThreadingOptions*)>;
using SetGlobalIntraOpNumThreads = Slot<147, Status* (*)(ThreadingOptions*, int threads)>;
using SetGlobalInterOpNumThreads = Slot<148, Status* (*)(ThreadingOptions*, int threads)>;
using SetGlobalSpinControl = Slot<149, Status* (*)(ThreadingOptions*, int allowSpinning)>;
using GetBuildInfoString = Slot<254, const char* (*)()>;

/** The function in `S`'s slot of an OrtApi table. */
template <class S>
typename S::type fn(const void* const* api) {
  return reinterpret_cast<typename S::type>(const_cast<void*>(api[S::index]));
}

}  // namespace ortc
