#include "custom-op-kit.h"

#include <type_traits>

namespace ortc {

static_assert(std::is_standard_layout_v<KernelOp>, "the table is reached from its own address");

Status* kernelFailure(const void* const* api, const char* op, const std::string& message) {
  return fn<CreateStatus>(api)(kErrorInvalidArgument, (std::string("tpu_kernel.") + op + ": " + message).c_str());
}

int64_t intAttribute(const void* const* api, const KernelInfo* info, const char* name, int64_t fallback) {
  int64_t value = fallback;
  if (Status* s = fn<KernelInfoGetAttribute_int64>(api)(info, name, &value)) {
    fn<ReleaseStatus>(api)(s);
    return fallback;
  }
  return value;
}

std::vector<int64_t> dimsOf(const void* const* api, const Value* value) {
  TensorTypeAndShapeInfo* info = nullptr;
  check(api, fn<GetTensorTypeAndShape>(api)(value, &info));
  size_t rank = 0;
  std::vector<int64_t> dims;
  try {
    check(api, fn<GetDimensionsCount>(api)(info, &rank));
    dims.resize(rank);
    check(api, fn<GetDimensions>(api)(info, dims.data(), rank));
  } catch (...) {
    fn<ReleaseTensorTypeAndShapeInfo>(api)(info);
    throw;
  }
  fn<ReleaseTensorTypeAndShapeInfo>(api)(info);
  return dims;
}

float* floatData(const void* const* api, const Value* value) {
  void* data = nullptr;
  check(api, fn<GetTensorMutableData>(api)(const_cast<Value*>(value), &data));
  return static_cast<float*>(data);
}

std::string shapeText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); i++) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

void makeFloatKernelOp(KernelOp& op, const char* name, size_t inputs,
                       Status* (*create)(const CustomOp*, const void* const* api, const KernelInfo*, void** kernel),
                       Status* (*compute)(void* kernel, KernelContext*), void (*destroy)(void* kernel)) {
  op = KernelOp{};
  op.name = name;
  op.inputs = inputs;
  CustomOp& t = op.table;
  t.version = kCustomOpVersion;
  t.GetName = [](const CustomOp* self) { return reinterpret_cast<const KernelOp*>(self)->name; };
  t.GetExecutionProviderType = [](const CustomOp*) -> const char* { return nullptr; };  // the CPU provider
  t.GetInputType = [](const CustomOp*, size_t) { return kElementFloat; };
  t.GetInputTypeCount = [](const CustomOp* self) { return reinterpret_cast<const KernelOp*>(self)->inputs; };
  t.GetOutputType = [](const CustomOp*, size_t) { return kElementFloat; };
  t.GetOutputTypeCount = [](const CustomOp*) -> size_t { return 1; };
  t.KernelDestroy = destroy;
  t.GetInputCharacteristic = [](const CustomOp*, size_t) { return kInputOutputRequired; };
  t.GetOutputCharacteristic = [](const CustomOp*, size_t) { return kInputOutputRequired; };
  t.GetInputMemoryType = [](const CustomOp*, size_t) { return kMemTypeDefault; };
  t.GetVariadicInputMinArity = [](const CustomOp*) { return 1; };
  t.GetVariadicInputHomogeneity = [](const CustomOp*) { return 1; };
  t.GetVariadicOutputMinArity = [](const CustomOp*) { return 1; };
  t.GetVariadicOutputHomogeneity = [](const CustomOp*) { return 1; };
  t.CreateKernelV2 = create;
  t.KernelComputeV2 = compute;
}

void makeStatelessFloatKernelOp(KernelOp& op, const char* name, size_t inputs, Status* (*compute)(void* api, KernelContext*)) {
  const auto keepApi = [](const CustomOp*, const void* const* api, const KernelInfo*, void** out) -> Status* {
    *out = const_cast<void**>(api);
    return nullptr;
  };
  makeFloatKernelOp(op, name, inputs, keepApi, compute, [](void*) {});
}

}  // namespace ortc
