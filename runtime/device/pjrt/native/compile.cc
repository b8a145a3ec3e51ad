// Ahead-of-time compile for a named topology (no device needed) and what a compiled
// executable tells: cost analysis, compiled memory stats, optimized program, serialization.
#include "compile.h"

#include "plugin.h"

namespace addon {

namespace {

struct Topology {
  const pjrt::Api* api;
  pjrt::TopologyDescription* topology;
};

struct CompiledExecutable {
  const pjrt::Api* api;
  pjrt::Executable* executable;
};

void destroyTopology(napi_env, void* data, void*) {
  auto* t = static_cast<Topology*>(data);
  auto args = pjrt::makeArgs<pjrt::TopologyDescriptionDestroyArgs>();
  args.topology = t->topology;
  takeError(t->api, t->api->topology_destroy(&args));
  delete t;
}

void destroyExecutable(napi_env, void* data, void*) {
  auto* e = static_cast<CompiledExecutable*>(data);
  auto args = pjrt::makeArgs<pjrt::ExecutableDestroyArgs>();
  args.executable = e->executable;
  takeError(e->api, e->api->executable_destroy(&args));
  delete e;
}

Topology* topologyOf(napi_env env, napi_value v) {
  return static_cast<Topology*>(unwrapHandle(env, v, HandleKind::kTopology, "a topology"));
}

CompiledExecutable* executableOf(napi_env env, napi_value v) {
  return static_cast<CompiledExecutable*>(unwrapHandle(env, v, HandleKind::kExecutable, "an executable"));
}

/** An entry point reading one executable: query(api, executable) builds the JS result. */
template <class Query>
napi_value queryExecutable(napi_env env, napi_callback_info info, Query query) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    CompiledExecutable* e = executableOf(env, args[0]);
    return query(e->api, e->executable);
  });
}

class CreateTopologyTask : public Task {
 public:
  CreateTopologyTask(napi_env env, Plugin* plugin, std::string name, napi_value options)
      : plugin_(plugin), name_(std::move(name)), options_(env, options) {}

  void run() override {
    const pjrt::Api* api = plugin_->api;
    auto args = pjrt::makeArgs<pjrt::TopologyDescriptionCreateArgs>();
    args.topology_name = name_.data();
    args.topology_name_size = name_.size();
    args.create_options = options_.data();
    args.num_options = options_.size();
    pjrt::Error* error = api->topology_create(&args);
    quietProfilingSignals();
    check(api, error);
    topology_ = args.topology;
  }

  napi_value result(napi_env env) override {
    return wrapHandle(env, HandleKind::kTopology, new Topology{plugin_->api, topology_}, destroyTopology);
  }

 private:
  Plugin* plugin_;
  std::string name_;
  NamedValues options_;
  pjrt::TopologyDescription* topology_ = nullptr;
};

class CompileTask : public Task {
 public:
  CompileTask(Topology* topology, CompileInput input) : topology_(topology), input_(std::move(input)) {}

  void run() override {
    const pjrt::Api* api = topology_->api;
    pjrt::Program program = input_.program();
    auto args = pjrt::makeArgs<pjrt::CompileArgs>();
    args.topology = topology_->topology;
    args.program = &program;
    args.compile_options = input_.options.data();
    args.compile_options_size = input_.options.size();
    pjrt::Error* error = api->compile(&args);
    quietProfilingSignals();
    check(api, error);
    executable_ = args.executable;
  }

  napi_value result(napi_env env) override {
    return wrapHandle(env, HandleKind::kExecutable,
                      new CompiledExecutable{topology_->api, executable_}, destroyExecutable);
  }

 private:
  Topology* topology_;
  CompileInput input_;
  pjrt::Executable* executable_ = nullptr;
};

}  // namespace

// createTopology(plugin, name, options) -> Promise<topology>
napi_value CreateTopology(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 3);
    Plugin* plugin = pluginOf(env, args[0]);
    auto task = std::make_unique<CreateTopologyTask>(env, plugin, readString(env, args[1], "name"), args[2]);
    return startTask(env, std::move(task));
  });
}

// topologyInfo(topology) -> { platformName, platformVersion, devices: [{ id, kind }] }
napi_value TopologyInfo(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    Topology* t = topologyOf(env, args[0]);
    const pjrt::Api* api = t->api;
    napi_value out = jsObject(env);
    auto name = pjrt::makeArgs<pjrt::TopologyDescriptionPlatformNameArgs>();
    name.topology = t->topology;
    check(api, api->topology_platform_name(&name));
    setField(env, out, "platformName", jsString(env, name.platform_name, name.platform_name_size));
    auto version = pjrt::makeArgs<pjrt::TopologyDescriptionPlatformVersionArgs>();
    version.topology = t->topology;
    check(api, api->topology_platform_version(&version));
    setField(env, out, "platformVersion", jsString(env, version.platform_version, version.platform_version_size));
    auto devices = pjrt::makeArgs<pjrt::TopologyDescriptionGetDeviceDescriptionsArgs>();
    devices.topology = t->topology;
    check(api, api->topology_get_device_descriptions(&devices));
    napi_value list;
    napi_create_array_with_length(env, devices.num_descriptions, &list);
    for (size_t i = 0; i < devices.num_descriptions; i++)
      napi_set_element(env, list, i, describeDevice(env, api, devices.descriptions[i]));
    setField(env, out, "devices", list);
    return out;
  });
}

napi_value describeDevice(napi_env env, const pjrt::Api* api, pjrt::DeviceDescription* d) {
  napi_value device = jsObject(env);
  auto id = pjrt::makeArgs<pjrt::DeviceDescriptionIdArgs>();
  id.device_description = d;
  check(api, api->device_description_id(&id));
  auto kind = pjrt::makeArgs<pjrt::DeviceDescriptionKindArgs>();
  kind.device_description = d;
  check(api, api->device_description_kind(&kind));
  setField(env, device, "id", jsNumber(env, id.id));
  setField(env, device, "kind", jsString(env, kind.device_kind, kind.device_kind_size));
  return device;
}

// compile(topology, code, format, compileOptionsBytes) -> Promise<executable>
napi_value Compile(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 4);
    Topology* t = topologyOf(env, args[0]);
    auto task = std::make_unique<CompileTask>(t, CompileInput::read(env, args[1], args[2], args[3]));
    task->keepAlive.push_back(args[0]);  // the topology must outlive the compile
    return startTask(env, std::move(task));
  });
}

// executableInfo(executable) -> { name, numReplicas, numPartitions, numOutputs }
napi_value ExecutableInfo(napi_env env, napi_callback_info info) {
  return queryExecutable(env, info, [&](const pjrt::Api* api, pjrt::Executable* exe) {
    return describeExecutable(env, api, exe);
  });
}

napi_value describeExecutable(napi_env env, const pjrt::Api* api, pjrt::Executable* exe) {
  napi_value out = jsObject(env);
  auto name = pjrt::makeArgs<pjrt::ExecutableNameArgs>();
  name.executable = exe;
  check(api, api->executable_name(&name));
  setField(env, out, "name", jsString(env, name.executable_name, name.executable_name_size));
  auto replicas = pjrt::makeArgs<pjrt::ExecutableNumReplicasArgs>();
  replicas.executable = exe;
  check(api, api->executable_num_replicas(&replicas));
  setField(env, out, "numReplicas", jsNumber(env, replicas.num_replicas));
  auto partitions = pjrt::makeArgs<pjrt::ExecutableNumPartitionsArgs>();
  partitions.executable = exe;
  check(api, api->executable_num_partitions(&partitions));
  setField(env, out, "numPartitions", jsNumber(env, partitions.num_partitions));
  auto outputs = pjrt::makeArgs<pjrt::ExecutableNumOutputsArgs>();
  outputs.executable = exe;
  check(api, api->executable_num_outputs(&outputs));
  setField(env, out, "numOutputs", jsNumber(env, outputs.num_outputs));
  return out;
}

// costAnalysis(executable) -> { [property]: number | string | ... } as the plugin names them
napi_value CostAnalysis(napi_env env, napi_callback_info info) {
  return queryExecutable(env, info, [&](const pjrt::Api* api, pjrt::Executable* exe) {
    auto cost = pjrt::makeArgs<pjrt::ExecutableGetCostAnalysisArgs>();
    cost.executable = exe;
    check(api, api->executable_get_cost_analysis(&cost));
    napi_value out = jsObject(env);
    for (size_t i = 0; i < cost.num_properties; i++) {
      const pjrt::NamedValue& p = cost.properties[i];
      std::string name(p.name, p.name_size);
      setField(env, out, name.c_str(), namedValueToJs(env, p));
    }
    return out;
  });
}

// memoryStats(executable) -> compiled memory stats in bytes (device and host memory)
napi_value MemoryStats(napi_env env, napi_callback_info info) {
  return queryExecutable(env, info, [&](const pjrt::Api* api, pjrt::Executable* exe) {
    auto s = pjrt::makeArgs<pjrt::ExecutableGetCompiledMemoryStatsArgs>();
    s.executable = exe;
    check(api, api->executable_get_compiled_memory_stats(&s));
    napi_value out = jsObject(env);
    auto put = [&](const char* name, int64_t v) { setField(env, out, name, jsNumber(env, static_cast<double>(v))); };
    put("generatedCodeBytes", s.generated_code_size_in_bytes);
    put("argumentBytes", s.argument_size_in_bytes);
    put("outputBytes", s.output_size_in_bytes);
    put("aliasBytes", s.alias_size_in_bytes);
    put("tempBytes", s.temp_size_in_bytes);
    put("hostGeneratedCodeBytes", s.host_generated_code_size_in_bytes);
    put("hostArgumentBytes", s.host_argument_size_in_bytes);
    put("hostOutputBytes", s.host_output_size_in_bytes);
    put("hostAliasBytes", s.host_alias_size_in_bytes);
    put("hostTempBytes", s.host_temp_size_in_bytes);
    put("peakBytes", s.peak_memory_in_bytes);
    put("totalBytes", s.total_size_in_bytes);
    return out;
  });
}

// optimizedProgram(executable) -> { format, code: Uint8Array } (a serialized HLO module proto)
napi_value OptimizedProgram(napi_env env, napi_callback_info info) {
  return queryExecutable(env, info, [&](const pjrt::Api* api, pjrt::Executable* exe) {
    auto program = pjrt::makeArgs<pjrt::Program>();
    auto call = pjrt::makeArgs<pjrt::ExecutableOptimizedProgramArgs>();
    call.executable = exe;
    call.program = &program;
    check(api, api->executable_optimized_program(&call));  // asks for the size
    std::vector<char> code(program.code_size);
    program.code = code.data();
    check(api, api->executable_optimized_program(&call));
    napi_value out = jsObject(env);
    setField(env, out, "format", jsString(env, program.format, program.format_size));
    setField(env, out, "code", jsBytes(env, code.data(), program.code_size));
    return out;
  });
}

// serialize(executable) -> Uint8Array (plugin-specific; loadable by the same plugin version)
napi_value Serialize(napi_env env, napi_callback_info info) {
  return queryExecutable(env, info, [&](const pjrt::Api* api, pjrt::Executable* exe) {
    auto s = pjrt::makeArgs<pjrt::ExecutableSerializeArgs>();
    s.executable = exe;
    check(api, api->executable_serialize(&s));
    napi_value bytes = jsBytes(env, s.serialized_bytes, s.serialized_bytes_size);
    s.serialized_executable_deleter(s.serialized_executable);
    return bytes;
  });
}

}  // namespace addon
