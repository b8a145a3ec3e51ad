// A loaded PJRT plugin (e.g. libtpu.so): the function table, loaded and initialized once
// per process and never unloaded (plugins do not support being unloaded).
#pragma once

#include <string>

#include "napi-util.h"

namespace addon {

struct Plugin {
  std::string path;
  const pjrt::Api* api;
};

Plugin* pluginOf(napi_env env, napi_value handle);

/** Named create options (topology, client) read from a plain JS object. */
class NamedValues {
 public:
  NamedValues(napi_env env, napi_value object);
  const pjrt::NamedValue* data() const { return values_.data(); }
  size_t size() const { return values_.size(); }

 private:
  std::vector<std::string> names_;
  std::vector<std::string> strings_;
  std::vector<std::vector<int64_t>> lists_;
  std::vector<pjrt::NamedValue> values_;
};

napi_value OpenPlugin(napi_env env, napi_callback_info info);
napi_value SetIdlePriority(napi_env env, napi_callback_info info);
napi_value PluginInfo(napi_env env, napi_callback_info info);

}  // namespace addon
