// Our own declarations of the few ONNX Runtime C API entries the addon calls. No ORT header
// is copied or included: each function is a slot of the OrtApi table (an array of function
// pointers that ORT only ever appends to) with the signature it is declared with.
//
// Where the facts come from: microsoft/onnxruntime, include/onnxruntime/core/session/
// onnxruntime_c_api.h (the OrtApi struct and its ORT_API2_STATUS signatures) and
// onnxruntime/core/session/onnxruntime_c_api.cc (the table `ort_api_1_to_N` in slot order, with
// static_asserts pinning each version's last slot: ReleaseCustomOpDomain 101, SetGlobalSpinControl
// 149, GetBuildInfoString 254), read in the 1.17 sources (`ort_api_1_to_17`; the 1.30 tag's
// repository was too large to fetch here) and again in a later main (`ort_api_1_to_25`). The
// OrtCustomOp layout and its version gates: the header's struct OrtCustomOp and
// onnxruntime/core/session/custom_ops.cc (CustomOpKernel, CreateKernelCreateInfo). The slots used here all shipped by API version 17
// (ORT 1.17; KernelContext_ParallelFor is slot 274, the second before version 17's pinned last slot,
// SessionOptionsAppendExecutionProvider_OpenVINO_V2 275), and the file's rule is that a shipped
// version's slots never change, so they hold for the 1.30.0 library onnxruntime-node ships (`strings libonnxruntime.so.1` shows 1.30.0). ort-library.cc checks at load
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
struct CustomOpDomain;
struct KernelInfo;
struct KernelContext;
struct TensorTypeAndShapeInfo;

/** The API version we ask GetApi for: the first with every slot below (KernelContext_ParallelFor). */
constexpr uint32_t kApiVersion = 17;

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
using EnableProfiling = Slot<14, Status* (*)(SessionOptions*, const char* filePrefix)>;
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

// Custom operators (our tpu_kernel nodes): the domain, what a kernel reads of its inputs and
// outputs, and the pool it splits its work over.
using CreateCustomOpDomain = Slot<26, Status* (*)(const char* domain, CustomOpDomain** out)>;
using CustomOpDomain_Add = Slot<27, Status* (*)(CustomOpDomain*, const struct CustomOp* op)>;
using AddCustomOpDomain = Slot<28, Status* (*)(SessionOptions*, CustomOpDomain*)>;
using GetTensorMutableData = Slot<51, Status* (*)(Value*, void** out)>;
using GetDimensionsCount = Slot<61, Status* (*)(const TensorTypeAndShapeInfo*, size_t* out)>;
using GetDimensions = Slot<62, Status* (*)(const TensorTypeAndShapeInfo*, int64_t* dims, size_t count)>;
using GetTensorTypeAndShape = Slot<65, Status* (*)(const Value*, TensorTypeAndShapeInfo** out)>;
using KernelInfoGetAttribute_int64 = Slot<86, Status* (*)(const KernelInfo*, const char* name, int64_t* out)>;
using KernelContext_GetInput = Slot<90, Status* (*)(const KernelContext*, size_t index, const Value** out)>;
using KernelContext_GetOutput =
    Slot<91, Status* (*)(KernelContext*, size_t index, const int64_t* dims, size_t count, Value** out)>;
using ReleaseTensorTypeAndShapeInfo = Slot<99, void (*)(TensorTypeAndShapeInfo*)>;
/**
 * Runs fn(data, i) for i in [0, total) on the session's intra-op pool (the calling thread takes
 * part; serially when the session has no pool). batches 0: one task per iteration.
 */
using KernelContext_ParallelFor =
    Slot<274, Status* (*)(const KernelContext*, void (*fn)(void* data, size_t i), size_t total, size_t batches, void* data)>;

/**
 * OrtCustomOp as the header lays it out, up to the members of version 16 (KernelComputeV2, which
 * returns a status). ORT reads only the members its `version` field says exist.
 */
struct CustomOp {
  uint32_t version;
  void* (*CreateKernel)(const CustomOp*, const void* const* api, const KernelInfo*);
  const char* (*GetName)(const CustomOp*);
  const char* (*GetExecutionProviderType)(const CustomOp*);
  int (*GetInputType)(const CustomOp*, size_t index);
  size_t (*GetInputTypeCount)(const CustomOp*);
  int (*GetOutputType)(const CustomOp*, size_t index);
  size_t (*GetOutputTypeCount)(const CustomOp*);
  void (*KernelCompute)(void* kernel, KernelContext*);
  void (*KernelDestroy)(void* kernel);
  int (*GetInputCharacteristic)(const CustomOp*, size_t index);   // version 8
  int (*GetOutputCharacteristic)(const CustomOp*, size_t index);  // version 8
  int (*GetInputMemoryType)(const CustomOp*, size_t index);       // version 13
  int (*GetVariadicInputMinArity)(const CustomOp*);               // version 14, with the three below
  int (*GetVariadicInputHomogeneity)(const CustomOp*);
  int (*GetVariadicOutputMinArity)(const CustomOp*);
  int (*GetVariadicOutputHomogeneity)(const CustomOp*);
  Status* (*CreateKernelV2)(const CustomOp*, const void* const* api, const KernelInfo*, void** kernel);  // version 16
  Status* (*KernelComputeV2)(void* kernel, KernelContext*);                                              // version 16
};
constexpr uint32_t kCustomOpVersion = 16;
constexpr int kInputOutputRequired = 0;  // OrtCustomOpInputOutputCharacteristic

/** The function in `S`'s slot of an OrtApi table. */
template <class S>
typename S::type fn(const void* const* api) {
  return reinterpret_cast<typename S::type>(const_cast<void*>(api[S::index]));
}

}  // namespace ortc
