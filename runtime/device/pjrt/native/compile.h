#pragma once

#include "napi-util.h"

namespace addon {

napi_value CreateTopology(napi_env env, napi_callback_info info);
napi_value TopologyInfo(napi_env env, napi_callback_info info);
napi_value Compile(napi_env env, napi_callback_info info);
napi_value ExecutableInfo(napi_env env, napi_callback_info info);
napi_value CostAnalysis(napi_env env, napi_callback_info info);
napi_value MemoryStats(napi_env env, napi_callback_info info);
napi_value OptimizedProgram(napi_env env, napi_callback_info info);
napi_value Serialize(napi_env env, napi_callback_info info);

/** { id, kind } of a device description. */
napi_value describeDevice(napi_env env, const pjrt::Api* api, pjrt::DeviceDescription* d);
/** { name, numReplicas, numPartitions, numOutputs } of an executable. */
napi_value describeExecutable(napi_env env, const pjrt::Api* api, pjrt::Executable* exe);

}  // namespace addon
