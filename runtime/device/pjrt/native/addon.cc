// The pjrt addon's exports. Every call that may take long (plugin load and initialize,
// topology creation, compile, client creation, transfers, execution) returns a promise and
// runs on libuv's thread pool (at idle CPU priority after setIdlePriority(true)); the rest are
// quick reads of an existing object.
#include "client.h"
#include "compile.h"
#include "plugin.h"

namespace {

napi_value exportAll(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"openPlugin", nullptr, addon::OpenPlugin, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"setIdlePriority", nullptr, addon::SetIdlePriority, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"pluginInfo", nullptr, addon::PluginInfo, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"createTopology", nullptr, addon::CreateTopology, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"topologyInfo", nullptr, addon::TopologyInfo, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"compile", nullptr, addon::Compile, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"executableInfo", nullptr, addon::ExecutableInfo, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"costAnalysis", nullptr, addon::CostAnalysis, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"memoryStats", nullptr, addon::MemoryStats, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"optimizedProgram", nullptr, addon::OptimizedProgram, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"serialize", nullptr, addon::Serialize, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"createClient", nullptr, addon::CreateClient, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"clientInfo", nullptr, addon::ClientInfo, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"compileAndLoad", nullptr, addon::CompileAndLoad, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"toDevice", nullptr, addon::ToDevice, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"toHost", nullptr, addon::ToHost, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"freeBuffer", nullptr, addon::FreeBuffer, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"releaseExecutable", nullptr, addon::ReleaseExecutable, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"execute", nullptr, addon::Execute, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
  };
  napi_define_properties(env, exports, sizeof(functions) / sizeof(functions[0]), functions);
  return exports;
}

}  // namespace

NAPI_MODULE_INIT() { return exportAll(env, exports); }
