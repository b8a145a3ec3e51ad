#pragma once

#include "napi-util.h"

namespace addon {

napi_value CreateClient(napi_env env, napi_callback_info info);
napi_value ClientInfo(napi_env env, napi_callback_info info);
napi_value CompileAndLoad(napi_env env, napi_callback_info info);
napi_value ToDevice(napi_env env, napi_callback_info info);
napi_value ToHost(napi_env env, napi_callback_info info);
napi_value FreeBuffer(napi_env env, napi_callback_info info);
napi_value ReleaseExecutable(napi_env env, napi_callback_info info);
napi_value Execute(napi_env env, napi_callback_info info);

}  // namespace addon
