#include "plugin.h"

#include <dlfcn.h>

#include <deque>
#include <mutex>

namespace addon {

namespace {

std::mutex pluginsMutex;
std::deque<Plugin> plugins;  // stable addresses; a path is opened once per process

Failure loadFailure(const std::string& message) { return Failure{-1, message, "PLUGIN_LOAD"}; }

class OpenTask : public Task {
 public:
  explicit OpenTask(std::string path) : path_(std::move(path)) {}

  void run() override {
    std::lock_guard<std::mutex> lock(pluginsMutex);
    for (Plugin& p : plugins) {
      if (p.path == path_) {
        plugin_ = &p;
        return;
      }
    }
    void* handle = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) throw JsThrow{loadFailure(std::string("cannot load ") + dlerror())};
    using GetApi = const pjrt::Api* (*)();
    auto getApi = reinterpret_cast<GetApi>(dlsym(handle, "GetPjrtApi"));
    if (getApi == nullptr) throw JsThrow{loadFailure(path_ + " has no GetPjrtApi: not a PJRT plugin")};
    const pjrt::Api* api = getApi();
    quietProfilingSignals();
    if (api == nullptr || api->version.major_version != 0)
      throw JsThrow{loadFailure(path_ + ": unsupported PJRT C API major version")};
    if (!PJRT_HAS(api, executable_get_compiled_memory_stats))
      throw JsThrow{loadFailure(path_ + ": PJRT C API 0." +
                                std::to_string(api->version.minor_version) + " is too old")};
    auto init = pjrt::makeArgs<pjrt::PluginInitializeArgs>();
    pjrt::Error* error = api->plugin_initialize(&init);
    quietProfilingSignals();
    check(api, error);
    plugins.push_back(Plugin{path_, api});
    plugin_ = &plugins.back();
  }

  napi_value result(napi_env env) override {
    return wrapHandle(env, HandleKind::kPlugin, plugin_, nullptr);
  }

 private:
  std::string path_;
  Plugin* plugin_ = nullptr;
};

}  // namespace

Plugin* pluginOf(napi_env env, napi_value handle) {
  return static_cast<Plugin*>(unwrapHandle(env, handle, HandleKind::kPlugin, "a plugin"));
}

NamedValues::NamedValues(napi_env env, napi_value object) {
  napi_value keys;
  if (napi_get_property_names(env, object, &keys) != napi_ok) throwUsage("options must be an object");
  uint32_t count;
  napi_get_array_length(env, keys, &count);
  // Reserve so the pointers stored in values_ stay valid.
  names_.reserve(count);
  strings_.reserve(count);
  lists_.reserve(count);
  for (uint32_t i = 0; i < count; i++) {
    napi_value key, value;
    napi_get_element(env, keys, i, &key);
    napi_get_property(env, object, key, &value);
    names_.push_back(readString(env, key, "option name"));
    pjrt::NamedValue nv{};
    nv.struct_size = pjrt::argsSize<pjrt::NamedValue>();
    nv.name = names_.back().data();
    nv.name_size = names_.back().size();
    nv.value_size = 1;
    napi_valuetype type;
    napi_typeof(env, value, &type);
    bool isArray = false;
    napi_is_array(env, value, &isArray);
    if (type == napi_string) {
      strings_.push_back(readString(env, value, names_.back().c_str()));
      nv.type = pjrt::kString;
      nv.string_value = strings_.back().data();
      nv.value_size = strings_.back().size();
    } else if (type == napi_boolean) {
      nv.type = pjrt::kBool;
      napi_get_value_bool(env, value, &nv.bool_value);
    } else if (type == napi_number) {
      nv.type = pjrt::kInt64;
      nv.int64_value = static_cast<int64_t>(readNumber(env, value, names_.back().c_str()));
    } else if (isArray) {
      lists_.push_back(readInt64List(env, value, names_.back().c_str()));
      nv.type = pjrt::kInt64List;
      nv.int64_array_value = lists_.back().data();
      nv.value_size = lists_.back().size();
    } else {
      throwUsage("option " + names_.back() + " must be a string, number, boolean or number[]");
    }
    values_.push_back(nv);
  }
}

// openPlugin(path) -> Promise<plugin>: dlopen + GetPjrtApi + PJRT_Plugin_Initialize.
napi_value OpenPlugin(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    return startTask(env, std::make_unique<OpenTask>(readString(env, args[0], "path")));
  });
}

// setIdlePriority(idle): whether the calls started from now on run at idle CPU priority.
napi_value SetIdlePriority(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    bool idle = false;
    if (napi_get_value_bool(env, args[0], &idle) != napi_ok) throwUsage("idle must be a boolean");
    setIdlePriority(idle);
    return static_cast<napi_value>(nullptr);
  });
}

// pluginInfo(plugin) -> { path, apiMajor, apiMinor, attributes }
napi_value PluginInfo(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    Plugin* plugin = pluginOf(env, args[0]);
    const pjrt::Api* api = plugin->api;
    napi_value out = jsObject(env);
    setField(env, out, "path", jsString(env, plugin->path));
    setField(env, out, "apiMajor", jsNumber(env, api->version.major_version));
    setField(env, out, "apiMinor", jsNumber(env, api->version.minor_version));
    auto attrs = pjrt::makeArgs<pjrt::PluginAttributesArgs>();
    check(api, api->plugin_attributes(&attrs));
    napi_value attributes = jsObject(env);
    for (size_t i = 0; i < attrs.num_attributes; i++) {
      const pjrt::NamedValue& a = attrs.attributes[i];
      std::string name(a.name, a.name_size);
      setField(env, attributes, name.c_str(), namedValueToJs(env, a));
    }
    setField(env, out, "attributes", attributes);
    return out;
  });
}

}  // namespace addon
