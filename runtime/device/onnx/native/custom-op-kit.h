// What our custom ONNX Runtime kernels (tpu_kernel.*) share: reading their inputs' shapes and
// data, their int64 attributes, an error status naming the op, and the OrtCustomOp table of a
// kernel of float32 inputs and one float32 output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ort-library.h"

namespace ortc {

/** An error status "tpu_kernel.<op>: <message>". */
Status* kernelFailure(const void* const* api, const char* op, const std::string& message);

/** An int64 attribute, or `fallback` when the node has none. */
int64_t intAttribute(const void* const* api, const KernelInfo* info, const char* name, int64_t fallback);

std::vector<int64_t> dimsOf(const void* const* api, const Value* value);

float* floatData(const void* const* api, const Value* value);

std::string shapeText(const std::vector<int64_t>& dims);

/**
 * A custom op as ONNX Runtime holds it: the table first (ORT passes its address back to the
 * callbacks, which read the op's name and input count behind it).
 */
struct KernelOp {
  CustomOp table;
  const char* name;
  size_t inputs;
};

/** The op of a kernel of `inputs` float32 inputs and one float32 output (V2 create and compute). */
void makeFloatKernelOp(KernelOp& op, const char* name, size_t inputs,
                       Status* (*create)(const CustomOp*, const void* const* api, const KernelInfo*, void** kernel),
                       Status* (*compute)(void* kernel, KernelContext*), void (*destroy)(void* kernel));

/** The same, for a kernel without attributes or state: `compute` gets the API table as its kernel. */
void makeStatelessFloatKernelOp(KernelOp& op, const char* name, size_t inputs, Status* (*compute)(void* api, KernelContext*));

}  // namespace ortc
