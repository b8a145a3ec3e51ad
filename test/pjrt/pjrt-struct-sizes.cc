// Prints, for each PJRT argument struct the addon fills, the size the addon's declarations
// give it and the size the plugin expects. The plugin checks a struct's size before reading
// anything else, so a call with struct_size = 1 fails at once with the size it expects
// ("... size: expected 120, got 1 ..."): no client or chip is needed.
// Usage: pjrt-struct-sizes /path/to/libtpu.so -> lines "name ours <message>".
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "pjrt-c-api.h"

using namespace pjrt;

static const Api* api;

static std::string messageOf(Error* error) {
  if (error == nullptr) return "no error";
  auto m = makeArgs<ErrorMessageArgs>();
  m.error = error;
  api->error_message(&m);
  std::string text(m.message, m.message_size);
  auto d = makeArgs<ErrorDestroyArgs>();
  d.error = error;
  api->error_destroy(&d);
  return text;
}

template <class Args>
static void probe(const char* name, Fn<Args> fn) {
  Args args{};
  args.struct_size = 1;
  std::printf("%s %zu %s\n", name, argsSize<Args>(), messageOf(fn(&args)).c_str());
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return 3;
  api = reinterpret_cast<const Api* (*)()>(dlsym(lib, "GetPjrtApi"))();
  auto init = makeArgs<PluginInitializeArgs>();
  if (api->plugin_initialize(&init) != nullptr) return 4;
  probe<ClientCreateArgs>("ClientCreate", api->client_create);
  probe<ClientPlatformVersionArgs>("ClientPlatformVersion", api->client_platform_version);
  probe<ClientAddressableDevicesArgs>("ClientAddressableDevices", api->client_addressable_devices);
  probe<ClientCompileArgs>("ClientCompile", api->client_compile);
  probe<ClientBufferFromHostBufferArgs>("ClientBufferFromHostBuffer", api->client_buffer_from_host);
  probe<DeviceGetDescriptionArgs>("DeviceGetDescription", api->device_get_description);
  probe<ExecutableNumOutputsArgs>("ExecutableNumOutputs", api->executable_num_outputs);
  probe<LoadedExecutableDestroyArgs>("LoadedExecutableDestroy", api->loaded_executable_destroy);
  probe<LoadedExecutableGetExecutableArgs>("LoadedExecutableGetExecutable", api->loaded_executable_get_executable);
  probe<LoadedExecutableExecuteArgs>("LoadedExecutableExecute", api->loaded_executable_execute);
  probe<BufferDestroyArgs>("BufferDestroy", api->buffer_destroy);
  probe<BufferDimensionsArgs>("BufferDimensions", api->buffer_dimensions);
  probe<BufferToHostBufferArgs>("BufferToHostBuffer", api->buffer_to_host_buffer);
  probe<EventAwaitArgs>("EventAwait", api->event_await);
  probe<EventDestroyArgs>("EventDestroy", api->event_destroy);
  // Execute checks its options' size right after its own: reached with a full-size call.
  ExecuteOptions options{};
  options.struct_size = 1;
  auto call = makeArgs<LoadedExecutableExecuteArgs>();
  call.options = &options;
  std::printf("ExecuteOptions %zu %s\n", argsSize<ExecuteOptions>(), messageOf(api->loaded_executable_execute(&call)).c_str());
  std::fflush(stdout);
  std::_Exit(0);  // libtpu leaves a SIGPROF timer running: no exit handlers
}
