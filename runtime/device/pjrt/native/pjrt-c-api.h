// The project's own declarations of the part of the PJRT C API (ABI major 0) this addon
// calls. ABI facts they rely on: every argument struct starts with its size and an
// extension pointer and only ever grows at its end; the plugin reads `struct_size` to know
// how many fields the caller filled. The function table (Api) also grows only at its end,
// so the slots the addon never calls are kept as `Unused` padding: each called slot sits at
// its ABI position, checked by the static_asserts at the bottom.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pjrt {

struct Error;
struct Event;
struct Client;
struct Device;
struct DeviceDescription;
struct Memory;
struct TopologyDescription;
struct Executable;
struct LoadedExecutable;
struct Buffer;

// Absl status codes, as PJRT reports them.
enum ErrorCode : int {
  kOk = 0, kCancelled, kUnknown, kInvalidArgument, kDeadlineExceeded, kNotFound,
  kAlreadyExists, kPermissionDenied, kResourceExhausted, kFailedPrecondition, kAborted,
  kOutOfRange, kUnimplemented, kInternal, kUnavailable, kDataLoss, kUnauthenticated,
};

// The size a caller reports: up to the end of the last field it knows (no tail padding).
#define PJRT_ARGS_SIZE(Type, last) (offsetof(Type, last) + sizeof(((Type*)nullptr)->last))
template <class Args> constexpr size_t argsSize();
#define PJRT_SIZED(Type, last) \
  template <> constexpr size_t argsSize<Type>() { return PJRT_ARGS_SIZE(Type, last); }

/** Zeroed argument struct with its size set: what every PJRT call expects. */
template <class Args> Args makeArgs() {
  Args a{};
  a.struct_size = argsSize<Args>();
  return a;
}

enum NamedValueType : int { kString = 0, kInt64, kInt64List, kFloat, kBool };

struct NamedValue {
  size_t struct_size;
  void* extension_start;
  const char* name;
  size_t name_size;
  NamedValueType type;
  union {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  };
  size_t value_size;  // elements of a list or characters of a string; 1 for a scalar
};
PJRT_SIZED(NamedValue, value_size)

struct ApiVersion {
  size_t struct_size;
  void* extension_start;
  int major_version;
  int minor_version;
};

// ---- errors
struct ErrorDestroyArgs { size_t struct_size; void* extension_start; Error* error; };
PJRT_SIZED(ErrorDestroyArgs, error)
struct ErrorMessageArgs {
  size_t struct_size; void* extension_start; const Error* error;
  const char* message; size_t message_size;  // out, owned by the error
};
PJRT_SIZED(ErrorMessageArgs, message_size)
struct ErrorGetCodeArgs { size_t struct_size; void* extension_start; const Error* error; ErrorCode code; };
PJRT_SIZED(ErrorGetCodeArgs, code)

// ---- plugin
struct PluginInitializeArgs { size_t struct_size; void* extension_start; };
PJRT_SIZED(PluginInitializeArgs, extension_start)
struct PluginAttributesArgs {
  size_t struct_size; void* extension_start;
  const NamedValue* attributes; size_t num_attributes;  // out, process lifetime
};
PJRT_SIZED(PluginAttributesArgs, num_attributes)

// ---- events
struct EventDestroyArgs { size_t struct_size; void* extension_start; Event* event; };
PJRT_SIZED(EventDestroyArgs, event)
struct EventAwaitArgs { size_t struct_size; void* extension_start; Event* event; };
PJRT_SIZED(EventAwaitArgs, event)

// ---- programs
struct Program {
  size_t struct_size; void* extension_start;
  char* code; size_t code_size;
  const char* format; size_t format_size;  // "mlir" (text or bytecode), "hlo", "hlo_with_config"
};
PJRT_SIZED(Program, format_size)

// ---- client (TPU hosts)
struct ClientCreateArgs {
  size_t struct_size; void* extension_start;
  const NamedValue* create_options; size_t num_options;
  void* kv_get_callback; void* kv_get_user_arg;
  void* kv_put_callback; void* kv_put_user_arg;
  Client* client;  // out
  void* kv_try_get_callback; void* kv_try_get_user_arg;
};
PJRT_SIZED(ClientCreateArgs, kv_try_get_user_arg)
struct ClientDestroyArgs { size_t struct_size; void* extension_start; Client* client; };
PJRT_SIZED(ClientDestroyArgs, client)
struct ClientPlatformVersionArgs {
  size_t struct_size; void* extension_start; Client* client;
  const char* platform_version; size_t platform_version_size;  // out
};
PJRT_SIZED(ClientPlatformVersionArgs, platform_version_size)
struct ClientAddressableDevicesArgs {
  size_t struct_size; void* extension_start; Client* client;
  Device* const* addressable_devices; size_t num_addressable_devices;  // out
};
PJRT_SIZED(ClientAddressableDevicesArgs, num_addressable_devices)
struct ClientCompileArgs {
  size_t struct_size; void* extension_start; Client* client;
  const Program* program;
  const char* compile_options; size_t compile_options_size;  // serialized CompileOptionsProto
  LoadedExecutable* executable;  // out
};
PJRT_SIZED(ClientCompileArgs, executable)

enum BufferType : int {
  kInvalid = 0, kPred, kS8, kS16, kS32, kS64, kU8, kU16, kU32, kU64, kF16, kF32, kF64, kBF16,
};
enum HostBufferSemantics : int {
  kImmutableOnlyDuringCall = 0, kImmutableUntilTransferCompletes, kImmutableZeroCopy,
};

struct ClientBufferFromHostBufferArgs {
  size_t struct_size; void* extension_start; Client* client;
  const void* data; BufferType type;
  const int64_t* dims; size_t num_dims;
  const int64_t* byte_strides; size_t num_byte_strides;  // none: dense, major to minor
  HostBufferSemantics host_buffer_semantics;
  Device* device;
  Memory* memory;
  void* device_layout;
  Event* done_with_host_buffer;  // out
  Buffer* buffer;                // out
};
PJRT_SIZED(ClientBufferFromHostBufferArgs, buffer)

// ---- device descriptions and devices
struct DeviceDescriptionIdArgs { size_t struct_size; void* extension_start; DeviceDescription* device_description; int id; };
PJRT_SIZED(DeviceDescriptionIdArgs, id)
struct DeviceDescriptionKindArgs {
  size_t struct_size; void* extension_start; DeviceDescription* device_description;
  const char* device_kind; size_t device_kind_size;  // out
};
PJRT_SIZED(DeviceDescriptionKindArgs, device_kind_size)
struct DeviceGetDescriptionArgs {
  size_t struct_size; void* extension_start; Device* device;
  DeviceDescription* device_description;  // out
};
PJRT_SIZED(DeviceGetDescriptionArgs, device_description)

// ---- executables
struct ExecutableDestroyArgs { size_t struct_size; void* extension_start; Executable* executable; };
PJRT_SIZED(ExecutableDestroyArgs, executable)
struct ExecutableNameArgs {
  size_t struct_size; void* extension_start; Executable* executable;
  const char* executable_name; size_t executable_name_size;  // out
};
PJRT_SIZED(ExecutableNameArgs, executable_name_size)
struct ExecutableNumReplicasArgs { size_t struct_size; void* extension_start; Executable* executable; size_t num_replicas; };
PJRT_SIZED(ExecutableNumReplicasArgs, num_replicas)
struct ExecutableNumPartitionsArgs { size_t struct_size; void* extension_start; Executable* executable; size_t num_partitions; };
PJRT_SIZED(ExecutableNumPartitionsArgs, num_partitions)
struct ExecutableNumOutputsArgs { size_t struct_size; void* extension_start; Executable* executable; size_t num_outputs; };
PJRT_SIZED(ExecutableNumOutputsArgs, num_outputs)
struct ExecutableGetCostAnalysisArgs {
  size_t struct_size; void* extension_start; Executable* executable;
  size_t num_properties; const NamedValue* properties;  // out, owned by the executable
};
PJRT_SIZED(ExecutableGetCostAnalysisArgs, properties)
// Two calls: code == nullptr asks for code_size; then a buffer of that size is filled.
struct ExecutableOptimizedProgramArgs { size_t struct_size; void* extension_start; Executable* executable; Program* program; };
PJRT_SIZED(ExecutableOptimizedProgramArgs, program)
struct SerializedExecutable;
struct ExecutableSerializeArgs {
  size_t struct_size; void* extension_start; const Executable* executable;
  const char* serialized_bytes; size_t serialized_bytes_size;  // out, backed by the next field
  SerializedExecutable* serialized_executable;
  void (*serialized_executable_deleter)(SerializedExecutable*);  // call once when done
};
PJRT_SIZED(ExecutableSerializeArgs, serialized_executable_deleter)
struct ExecutableGetCompiledMemoryStatsArgs {
  size_t struct_size; void* extension_start; Executable* executable;
  int64_t generated_code_size_in_bytes, argument_size_in_bytes, output_size_in_bytes,
      alias_size_in_bytes, temp_size_in_bytes;  // device memory (HBM)
  int64_t host_generated_code_size_in_bytes, host_argument_size_in_bytes,
      host_output_size_in_bytes, host_alias_size_in_bytes, host_temp_size_in_bytes;
  int64_t peak_memory_in_bytes;
  int64_t total_size_in_bytes;
};
PJRT_SIZED(ExecutableGetCompiledMemoryStatsArgs, total_size_in_bytes)

struct LoadedExecutableDestroyArgs { size_t struct_size; void* extension_start; LoadedExecutable* executable; };
PJRT_SIZED(LoadedExecutableDestroyArgs, executable)
struct LoadedExecutableGetExecutableArgs {
  size_t struct_size; void* extension_start; LoadedExecutable* loaded_executable;
  Executable* executable;  // out, destroyed by the caller
};
PJRT_SIZED(LoadedExecutableGetExecutableArgs, executable)
struct ExecuteOptions {
  size_t struct_size; void* extension_start;
  void** send_callbacks; void** recv_callbacks; size_t num_send_ops; size_t num_recv_ops;
  int launch_id;
  const int64_t* non_donatable_input_indices; size_t num_non_donatable_input_indices;
  void* context;
  const char* call_location;
  size_t num_tasks; int* task_ids; int64_t* incarnation_ids;
};
PJRT_SIZED(ExecuteOptions, incarnation_ids)
struct LoadedExecutableExecuteArgs {
  size_t struct_size; void* extension_start; LoadedExecutable* executable;
  ExecuteOptions* options;
  Buffer* const* const* argument_lists;  // [num_devices][num_args]
  size_t num_devices; size_t num_args;
  Buffer** const* output_lists;          // [num_devices][num_outputs], filled by the plugin
  Event** device_complete_events;        // [num_devices] or nullptr
  Device* execute_device;
};
PJRT_SIZED(LoadedExecutableExecuteArgs, execute_device)

// ---- buffers
struct BufferDestroyArgs { size_t struct_size; void* extension_start; Buffer* buffer; };
PJRT_SIZED(BufferDestroyArgs, buffer)
struct BufferDimensionsArgs {
  size_t struct_size; void* extension_start; Buffer* buffer;
  const int64_t* dims; size_t num_dims;  // out, owned by the buffer
};
PJRT_SIZED(BufferDimensionsArgs, num_dims)

// A layout: minor_to_major (first entry the most minor dim) and tiles, or byte strides.
enum MemoryLayoutType : int { kTiled = 0, kStrides };
struct MemoryLayoutTiled {
  size_t struct_size; void* extension_start;
  const int64_t* minor_to_major; size_t minor_to_major_size;
  const int64_t* tile_dims;           // all tiles' dims, concatenated
  const size_t* tile_dim_sizes; size_t num_tiles;
};
PJRT_SIZED(MemoryLayoutTiled, num_tiles)
struct MemoryLayoutStrides {
  size_t struct_size; void* extension_start;
  const int64_t* byte_strides; size_t num_byte_strides;
};
PJRT_SIZED(MemoryLayoutStrides, num_byte_strides)
struct MemoryLayout {
  size_t struct_size; void* extension_start;
  union { MemoryLayoutTiled tiled; MemoryLayoutStrides strides; };
  MemoryLayoutType type;
};
PJRT_SIZED(MemoryLayout, type)

struct BufferToHostBufferArgs {
  size_t struct_size; void* extension_start; Buffer* src;
  // nullptr: the device buffer's own dim order (minor_to_major), which XLA:TPU may have
  // chosen transposed ({0,1}); the addon always asks for dense major to minor.
  MemoryLayout* host_layout;
  void* dst; size_t dst_size;  // dst == nullptr asks for the size
  Event* event;                // out
};
PJRT_SIZED(BufferToHostBufferArgs, event)

// ---- topologies and ahead-of-time compile
struct TopologyDescriptionCreateArgs {
  size_t struct_size; void* extension_start;
  const char* topology_name; size_t topology_name_size;
  const NamedValue* create_options; size_t num_options;
  TopologyDescription* topology;  // out
};
PJRT_SIZED(TopologyDescriptionCreateArgs, topology)
struct TopologyDescriptionDestroyArgs { size_t struct_size; void* extension_start; TopologyDescription* topology; };
PJRT_SIZED(TopologyDescriptionDestroyArgs, topology)
struct TopologyDescriptionPlatformNameArgs {
  size_t struct_size; void* extension_start; const TopologyDescription* topology;
  const char* platform_name; size_t platform_name_size;  // out
};
PJRT_SIZED(TopologyDescriptionPlatformNameArgs, platform_name_size)
struct TopologyDescriptionPlatformVersionArgs {
  size_t struct_size; void* extension_start; TopologyDescription* topology;
  const char* platform_version; size_t platform_version_size;  // out
};
PJRT_SIZED(TopologyDescriptionPlatformVersionArgs, platform_version_size)
struct TopologyDescriptionGetDeviceDescriptionsArgs {
  size_t struct_size; void* extension_start; const TopologyDescription* topology;
  DeviceDescription* const* descriptions; size_t num_descriptions;  // out
};
PJRT_SIZED(TopologyDescriptionGetDeviceDescriptionsArgs, num_descriptions)
struct CompileArgs {
  size_t struct_size; void* extension_start;
  const TopologyDescription* topology;
  const Program* program;
  const char* compile_options; size_t compile_options_size;  // serialized CompileOptionsProto
  Client* client;          // optional
  Executable* executable;  // out
};
PJRT_SIZED(CompileArgs, executable)

// ---- the function table returned by GetPjrtApi()
template <class Args> using Fn = Error* (*)(Args*);
using Unused = void*;

struct Api {
  size_t struct_size;
  void* extension_start;
  ApiVersion version;
  void (*error_destroy)(ErrorDestroyArgs*);                       // slot 0
  void (*error_message)(ErrorMessageArgs*);                       // 1
  Fn<ErrorGetCodeArgs> error_get_code;                            // 2
  Fn<PluginInitializeArgs> plugin_initialize;                     // 3
  Fn<PluginAttributesArgs> plugin_attributes;                     // 4
  Fn<EventDestroyArgs> event_destroy;                             // 5
  Unused event_is_ready, event_error;                             // 6-7
  Fn<EventAwaitArgs> event_await;                                 // 8
  Unused event_on_ready;                                          // 9
  Fn<ClientCreateArgs> client_create;                             // 10
  Fn<ClientDestroyArgs> client_destroy;                           // 11
  Unused client_platform_name, client_process_index;              // 12-13
  Fn<ClientPlatformVersionArgs> client_platform_version;          // 14
  Unused client_devices;                                          // 15
  Fn<ClientAddressableDevicesArgs> client_addressable_devices;    // 16
  Unused client_lookup_device, client_lookup_addressable_device,
      client_addressable_memories;                                // 17-19
  Fn<ClientCompileArgs> client_compile;                           // 20
  Unused client_default_device_assignment;                        // 21
  Fn<ClientBufferFromHostBufferArgs> client_buffer_from_host;     // 22
  Fn<DeviceDescriptionIdArgs> device_description_id;              // 23
  Unused device_description_process_index, device_description_attributes;  // 24-25
  Fn<DeviceDescriptionKindArgs> device_description_kind;          // 26
  Unused device_description_debug_string, device_description_to_string;  // 27-28
  Fn<DeviceGetDescriptionArgs> device_get_description;            // 29
  Unused device_rest[5];                                          // 30-34
  Unused memory_all[5];                                           // 35-39
  Fn<ExecutableDestroyArgs> executable_destroy;                   // 40
  Fn<ExecutableNameArgs> executable_name;                         // 41
  Fn<ExecutableNumReplicasArgs> executable_num_replicas;          // 42
  Fn<ExecutableNumPartitionsArgs> executable_num_partitions;      // 43
  Fn<ExecutableNumOutputsArgs> executable_num_outputs;            // 44
  Unused executable_size_of_generated_code;                       // 45
  Fn<ExecutableGetCostAnalysisArgs> executable_get_cost_analysis; // 46
  Unused executable_output_memory_kinds;                          // 47
  Fn<ExecutableOptimizedProgramArgs> executable_optimized_program;  // 48
  Fn<ExecutableSerializeArgs> executable_serialize;               // 49
  Fn<LoadedExecutableDestroyArgs> loaded_executable_destroy;      // 50
  Fn<LoadedExecutableGetExecutableArgs> loaded_executable_get_executable;  // 51
  Unused loaded_executable_addressable_devices, loaded_executable_delete,
      loaded_executable_is_deleted;                               // 52-54
  Fn<LoadedExecutableExecuteArgs> loaded_executable_execute;      // 55
  Unused executable_deserialize_and_load, loaded_executable_fingerprint;  // 56-57
  Fn<BufferDestroyArgs> buffer_destroy;                           // 58
  Unused buffer_element_type;                                     // 59
  Fn<BufferDimensionsArgs> buffer_dimensions;                     // 60
  Unused buffer_rest_a[9];                                        // 61-69
  Fn<BufferToHostBufferArgs> buffer_to_host_buffer;               // 70
  Unused buffer_rest_b[6];                                        // 71-76
  Unused copy_to_device_stream_all[5];                            // 77-81
  Fn<TopologyDescriptionCreateArgs> topology_create;              // 82
  Fn<TopologyDescriptionDestroyArgs> topology_destroy;            // 83
  Fn<TopologyDescriptionPlatformNameArgs> topology_platform_name; // 84
  Fn<TopologyDescriptionPlatformVersionArgs> topology_platform_version;  // 85
  Fn<TopologyDescriptionGetDeviceDescriptionsArgs> topology_get_device_descriptions;  // 86
  Unused topology_serialize, topology_attributes;                 // 87-88
  Fn<CompileArgs> compile;                                        // 89
  Unused later_a[6];                                              // 90-95
  Fn<ExecutableGetCompiledMemoryStatsArgs> executable_get_compiled_memory_stats;  // 96
};

#define PJRT_SLOT(field, index) \
  static_assert(offsetof(Api, field) == offsetof(Api, error_destroy) + (index) * sizeof(void*), #field)
PJRT_SLOT(plugin_initialize, 3);
PJRT_SLOT(event_await, 8);
PJRT_SLOT(client_create, 10);
PJRT_SLOT(client_platform_version, 14);
PJRT_SLOT(client_compile, 20);
PJRT_SLOT(client_buffer_from_host, 22);
PJRT_SLOT(device_get_description, 29);
PJRT_SLOT(executable_destroy, 40);
PJRT_SLOT(executable_serialize, 49);
PJRT_SLOT(loaded_executable_execute, 55);
PJRT_SLOT(buffer_destroy, 58);
PJRT_SLOT(buffer_dimensions, 60);
PJRT_SLOT(buffer_to_host_buffer, 70);
PJRT_SLOT(topology_create, 82);
PJRT_SLOT(compile, 89);
PJRT_SLOT(executable_get_compiled_memory_stats, 96);
static_assert(offsetof(Api, error_destroy) == 40, "table starts after size, extension, version");

/** True when the plugin's table is long enough to hold `field`. */
#define PJRT_HAS(api, field) ((api)->struct_size >= offsetof(::pjrt::Api, field) + sizeof(void*))

}  // namespace pjrt
