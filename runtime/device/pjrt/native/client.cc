// Running programs on TPU chips (TPU hosts only): a client, its devices, buffers to and
// from the device, compile-and-load, execute. One client per process, never destroyed
// (its buffers and executables may be collected in any order).
#include "client.h"

#include <cstring>

#include "compile.h"
#include "plugin.h"

namespace addon {

namespace {

struct ClientObject {
  const pjrt::Api* api;
  pjrt::Client* client;
  std::vector<pjrt::Device*> devices;  // addressable devices
};

// A loaded executable and a buffer are released on request (releaseExecutable,
// freeBuffer) or at garbage collection; a release while a transfer or execution still uses
// the object takes effect when that work settles (uses counts it, on the main thread).
struct LoadedObject {
  const pjrt::Api* api;
  pjrt::LoadedExecutable* executable;  // nullptr once destroyed
  size_t num_outputs;
  int uses = 0;
  bool released = false;
};

struct BufferObject {
  const pjrt::Api* api;
  pjrt::Buffer* buffer;  // nullptr once destroyed
  int uses = 0;
  bool released = false;
};

void destroyNow(LoadedObject* e) {
  if (e->executable == nullptr) return;
  auto args = pjrt::makeArgs<pjrt::LoadedExecutableDestroyArgs>();
  args.executable = e->executable;
  takeError(e->api, e->api->loaded_executable_destroy(&args));
  e->executable = nullptr;
}

void finalizeLoaded(napi_env, void* data, void*) {
  auto* e = static_cast<LoadedObject*>(data);
  destroyNow(e);
  delete e;
}

void destroyBuffer(const pjrt::Api* api, pjrt::Buffer* buffer) {
  auto args = pjrt::makeArgs<pjrt::BufferDestroyArgs>();
  args.buffer = buffer;
  takeError(api, api->buffer_destroy(&args));
}

void destroyNow(BufferObject* b) {
  if (b->buffer == nullptr) return;
  destroyBuffer(b->api, b->buffer);
  b->buffer = nullptr;
}

void finalizeBuffer(napi_env, void* data, void*) {
  auto* b = static_cast<BufferObject*>(data);
  destroyNow(b);
  delete b;
}

/** A buffer or executable in use by a task, until the task is destroyed (main thread). */
template <class Object>
void use(Object* o) { o->uses++; }
template <class Object>
void endUse(Object* o) {
  if (--o->uses == 0 && o->released) destroyNow(o);
}
template <class Object>
void releaseWhenIdle(Object* o) {
  o->released = true;
  if (o->uses == 0) destroyNow(o);
}

ClientObject* clientOf(napi_env env, napi_value v) {
  return static_cast<ClientObject*>(unwrapHandle(env, v, HandleKind::kClient, "a client"));
}
LoadedObject* loadedOf(napi_env env, napi_value v) {
  auto* e = static_cast<LoadedObject*>(unwrapHandle(env, v, HandleKind::kLoadedExecutable, "a loaded executable"));
  if (e->released) throwUsage("the executable was released");
  return e;
}
BufferObject* bufferOf(napi_env env, napi_value v) {
  auto* b = static_cast<BufferObject*>(unwrapHandle(env, v, HandleKind::kBuffer, "a buffer"));
  if (b->released) throwUsage("the buffer was freed");
  return b;
}

/** Waits for an event on the calling (pool) thread, destroys it, throws its failure. */
void awaitEvent(const pjrt::Api* api, pjrt::Event* event) {
  if (event == nullptr) return;
  auto wait = pjrt::makeArgs<pjrt::EventAwaitArgs>();
  wait.event = event;
  pjrt::Error* error = api->event_await(&wait);
  auto destroy = pjrt::makeArgs<pjrt::EventDestroyArgs>();
  destroy.event = event;
  takeError(api, api->event_destroy(&destroy));
  check(api, error);
}

/** Waits for every event (each destroyed), then throws the first failure. */
void awaitEvents(const pjrt::Api* api, const std::vector<pjrt::Event*>& events) {
  std::optional<JsThrow> first;
  for (pjrt::Event* e : events) {
    try {
      awaitEvent(api, e);
    } catch (const JsThrow& t) {
      if (!first) first = t;
    }
  }
  if (first) throw *first;
}

/** Dense, major to minor: the layout every host array of the session has. */
struct MajorToMinor {
  explicit MajorToMinor(size_t rank) : order(rank) {
    for (size_t i = 0; i < rank; i++) order[i] = static_cast<int64_t>(rank - 1 - i);
    layout = pjrt::makeArgs<pjrt::MemoryLayout>();
    layout.type = pjrt::kTiled;
    layout.tiled = pjrt::makeArgs<pjrt::MemoryLayoutTiled>();
    layout.tiled.minor_to_major = order.data();
    layout.tiled.minor_to_major_size = order.size();
  }
  std::vector<int64_t> order;
  pjrt::MemoryLayout layout;
};

class CreateClientTask : public Task {
 public:
  CreateClientTask(napi_env env, Plugin* plugin, napi_value options) : plugin_(plugin), options_(env, options) {}

  void run() override {
    const pjrt::Api* api = plugin_->api;
    auto args = pjrt::makeArgs<pjrt::ClientCreateArgs>();
    args.create_options = options_.data();
    args.num_options = options_.size();
    pjrt::Error* error = api->client_create(&args);
    quietProfilingSignals();
    check(api, error);
    auto devices = pjrt::makeArgs<pjrt::ClientAddressableDevicesArgs>();
    devices.client = args.client;
    check(api, api->client_addressable_devices(&devices));
    client_ = new ClientObject{api, args.client,
                               {devices.addressable_devices, devices.addressable_devices + devices.num_addressable_devices}};
  }

  napi_value result(napi_env env) override { return wrapHandle(env, HandleKind::kClient, client_, nullptr); }

 private:
  Plugin* plugin_;
  NamedValues options_;
  ClientObject* client_ = nullptr;
};

class CompileAndLoadTask : public Task {
 public:
  CompileAndLoadTask(ClientObject* client, CompileInput input) : client_(client), input_(std::move(input)) {}

  void run() override {
    const pjrt::Api* api = client_->api;
    pjrt::Program program = input_.program();
    auto args = pjrt::makeArgs<pjrt::ClientCompileArgs>();
    args.client = client_->client;
    args.program = &program;
    args.compile_options = input_.options.data();
    args.compile_options_size = input_.options.size();
    pjrt::Error* error = api->client_compile(&args);
    quietProfilingSignals();
    check(api, error);
    loaded_ = new LoadedObject{api, args.executable, 0};
    auto get = pjrt::makeArgs<pjrt::LoadedExecutableGetExecutableArgs>();
    get.loaded_executable = args.executable;
    check(api, api->loaded_executable_get_executable(&get));
    auto outputs = pjrt::makeArgs<pjrt::ExecutableNumOutputsArgs>();
    outputs.executable = get.executable;
    pjrt::Error* outputsError = api->executable_num_outputs(&outputs);
    auto destroy = pjrt::makeArgs<pjrt::ExecutableDestroyArgs>();
    destroy.executable = get.executable;
    takeError(api, api->executable_destroy(&destroy));
    check(api, outputsError);
    loaded_->num_outputs = outputs.num_outputs;
  }

  napi_value result(napi_env env) override {
    napi_value handle = wrapHandle(env, HandleKind::kLoadedExecutable, loaded_, finalizeLoaded);
    loaded_ = nullptr;  // owned by the handle now
    return handle;
  }

  ~CompileAndLoadTask() override {
    if (loaded_ != nullptr) finalizeLoaded(nullptr, loaded_, nullptr);
  }

 private:
  ClientObject* client_;
  CompileInput input_;
  LoadedObject* loaded_ = nullptr;
};

class ToDeviceTask : public Task {
 public:
  ToDeviceTask(ClientObject* client, pjrt::Device* device, std::vector<char> data, int type, std::vector<int64_t> dims)
      : client_(client), device_(device), data_(std::move(data)), type_(type), dims_(std::move(dims)) {}

  void run() override {
    const pjrt::Api* api = client_->api;
    auto args = pjrt::makeArgs<pjrt::ClientBufferFromHostBufferArgs>();
    args.client = client_->client;
    args.data = data_.data();
    args.type = static_cast<pjrt::BufferType>(type_);
    args.dims = dims_.data();
    args.num_dims = dims_.size();
    args.host_buffer_semantics = pjrt::kImmutableUntilTransferCompletes;
    args.device = device_;
    check(api, api->client_buffer_from_host(&args));
    buffer_ = args.buffer;
    awaitEvent(api, args.done_with_host_buffer);  // data_ must live until then
  }

  napi_value result(napi_env env) override {
    napi_value handle = wrapHandle(env, HandleKind::kBuffer, new BufferObject{client_->api, buffer_}, finalizeBuffer);
    buffer_ = nullptr;  // owned by the handle now
    return handle;
  }

  ~ToDeviceTask() override {
    if (buffer_ != nullptr) destroyBuffer(client_->api, buffer_);  // the transfer failed
  }

 private:
  ClientObject* client_;
  pjrt::Device* device_;
  std::vector<char> data_;
  int type_;
  std::vector<int64_t> dims_;
  pjrt::Buffer* buffer_ = nullptr;
};

class ToHostTask : public Task {
 public:
  explicit ToHostTask(BufferObject* buffer) : buffer_(buffer) { use(buffer_); }
  ~ToHostTask() override { endUse(buffer_); }

  void run() override {
    const pjrt::Api* api = buffer_->api;
    auto dims = pjrt::makeArgs<pjrt::BufferDimensionsArgs>();
    dims.buffer = buffer_->buffer;
    check(api, api->buffer_dimensions(&dims));
    MajorToMinor host(dims.num_dims);
    auto args = pjrt::makeArgs<pjrt::BufferToHostBufferArgs>();
    args.src = buffer_->buffer;
    args.host_layout = &host.layout;
    check(api, api->buffer_to_host_buffer(&args));  // dst == nullptr: asks for the size
    data_.resize(args.dst_size);
    args.dst = data_.data();
    check(api, api->buffer_to_host_buffer(&args));
    awaitEvent(api, args.event);
  }

  napi_value result(napi_env env) override { return jsBytes(env, data_.data(), data_.size()); }

 private:
  BufferObject* buffer_;
  std::vector<char> data_;
};

class ExecuteTask : public Task {
 public:
  ExecuteTask(LoadedObject* exe, std::vector<BufferObject*> inputs, std::vector<std::vector<pjrt::Buffer*>> args)
      : exe_(exe), inputs_(std::move(inputs)), args_(std::move(args)) {
    use(exe_);
    for (BufferObject* b : inputs_) use(b);
  }

  void run() override {
    const pjrt::Api* api = exe_->api;
    size_t devices = args_.size();
    std::vector<pjrt::Buffer* const*> argLists;
    for (auto& list : args_) argLists.push_back(list.data());
    outputs_.assign(devices, std::vector<pjrt::Buffer*>(exe_->num_outputs, nullptr));
    std::vector<pjrt::Buffer**> outLists;
    for (auto& list : outputs_) outLists.push_back(list.data());
    std::vector<pjrt::Event*> done(devices, nullptr);
    auto options = pjrt::makeArgs<pjrt::ExecuteOptions>();
    auto call = pjrt::makeArgs<pjrt::LoadedExecutableExecuteArgs>();
    call.executable = exe_->executable;
    call.options = &options;
    call.argument_lists = argLists.data();
    call.num_devices = devices;
    call.num_args = devices > 0 ? args_[0].size() : 0;
    call.output_lists = outLists.data();
    call.device_complete_events = done.data();
    check(api, api->loaded_executable_execute(&call));
    awaitEvents(api, done);
  }

  napi_value result(napi_env env) override {
    napi_value lists;
    napi_create_array_with_length(env, outputs_.size(), &lists);
    for (size_t d = 0; d < outputs_.size(); d++) {
      napi_value list;
      napi_create_array_with_length(env, outputs_[d].size(), &list);
      for (size_t i = 0; i < outputs_[d].size(); i++) {
        napi_set_element(env, list, i,
                         wrapHandle(env, HandleKind::kBuffer, new BufferObject{exe_->api, outputs_[d][i]}, finalizeBuffer));
        outputs_[d][i] = nullptr;
      }
      napi_set_element(env, lists, d, list);
    }
    return lists;
  }

  ~ExecuteTask() override {
    for (auto& list : outputs_)
      for (pjrt::Buffer* b : list)
        if (b != nullptr) destroyBuffer(exe_->api, b);
    for (BufferObject* b : inputs_) endUse(b);
    endUse(exe_);
  }

 private:
  LoadedObject* exe_;
  std::vector<BufferObject*> inputs_;
  std::vector<std::vector<pjrt::Buffer*>> args_;
  std::vector<std::vector<pjrt::Buffer*>> outputs_;
};

/** Bytes of any typed array (copied). */
std::vector<char> readTypedBytes(napi_env env, napi_value value) {
  bool isTyped = false;
  napi_is_typedarray(env, value, &isTyped);
  if (!isTyped) throwUsage("data must be a typed array");
  napi_typedarray_type type;
  size_t length, offset;
  void* data;
  napi_value buffer;
  napi_get_typedarray_info(env, value, &type, &length, &data, &buffer, &offset);
  size_t elementBytes = type == napi_float64_array || type == napi_bigint64_array || type == napi_biguint64_array ? 8
                        : type == napi_float32_array || type == napi_int32_array || type == napi_uint32_array ? 4
                        : type == napi_int16_array || type == napi_uint16_array ? 2
                        : 1;
  auto* bytes = static_cast<const char*>(data);
  return std::vector<char>(bytes, bytes + length * elementBytes);
}

}  // namespace

// createClient(plugin, options) -> Promise<client> (fails with NOT_FOUND where no TPU chips)
napi_value CreateClient(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 2);
    return startTask(env, std::make_unique<CreateClientTask>(env, pluginOf(env, args[0]), args[1]));
  });
}

// clientInfo(client) -> { platformVersion, devices: [{ id, kind }] } (addressable devices)
napi_value ClientInfo(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    ClientObject* c = clientOf(env, args[0]);
    const pjrt::Api* api = c->api;
    napi_value out = jsObject(env);
    auto version = pjrt::makeArgs<pjrt::ClientPlatformVersionArgs>();
    version.client = c->client;
    check(api, api->client_platform_version(&version));
    setField(env, out, "platformVersion", jsString(env, version.platform_version, version.platform_version_size));
    napi_value list;
    napi_create_array_with_length(env, c->devices.size(), &list);
    for (size_t i = 0; i < c->devices.size(); i++) {
      auto d = pjrt::makeArgs<pjrt::DeviceGetDescriptionArgs>();
      d.device = c->devices[i];
      check(api, api->device_get_description(&d));
      napi_set_element(env, list, i, describeDevice(env, api, d.device_description));
    }
    setField(env, out, "devices", list);
    return out;
  });
}

// compileAndLoad(client, code, format, compileOptions) -> Promise<loadedExecutable>
napi_value CompileAndLoad(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 4);
    auto task = std::make_unique<CompileAndLoadTask>(clientOf(env, args[0]),
                                                     CompileInput::read(env, args[1], args[2], args[3]));
    return startTask(env, std::move(task));
  });
}

// toDevice(client, deviceIndex, data: TypedArray, bufferType, dims) -> Promise<buffer>
napi_value ToDevice(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 5);
    ClientObject* c = clientOf(env, args[0]);
    double index = readNumber(env, args[1], "deviceIndex");
    if (index < 0 || index >= c->devices.size()) throwUsage("deviceIndex out of range");
    auto task = std::make_unique<ToDeviceTask>(c, c->devices[static_cast<size_t>(index)], readTypedBytes(env, args[2]),
                                               static_cast<int>(readNumber(env, args[3], "bufferType")),
                                               readInt64List(env, args[4], "dims"));
    return startTask(env, std::move(task));
  });
}

// toHost(buffer) -> Promise<Uint8Array> (dense, major to minor)
napi_value ToHost(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    auto task = std::make_unique<ToHostTask>(bufferOf(env, args[0]));
    task->keepAlive.push_back(args[0]);
    return startTask(env, std::move(task));
  });
}

template <class Object>
napi_value releaseArgument(napi_env env, napi_callback_info info, Object* (*of)(napi_env, napi_value)) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 1);
    releaseWhenIdle(of(env, args[0]));
    napi_value undefined;
    napi_get_undefined(env, &undefined);
    return undefined;
  });
}

// freeBuffer(buffer): releases device memory now (or when the work using it settles)
// instead of at garbage collection
napi_value FreeBuffer(napi_env env, napi_callback_info info) { return releaseArgument(env, info, bufferOf); }

// releaseExecutable(loadedExecutable): releases it on the device now (or when its
// executions settle) instead of at garbage collection
napi_value ReleaseExecutable(napi_env env, napi_callback_info info) { return releaseArgument(env, info, loadedOf); }

// execute(loadedExecutable, argumentLists: buffer[][] per device) -> Promise<buffer[][]>
napi_value Execute(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto args = readArgs(env, info, 2);
    LoadedObject* exe = loadedOf(env, args[0]);
    uint32_t devices;
    if (napi_get_array_length(env, args[1], &devices) != napi_ok) throwUsage("argumentLists must be an array of arrays");
    std::vector<std::vector<pjrt::Buffer*>> lists(devices);
    std::vector<BufferObject*> inputs;
    std::vector<napi_value> keep{args[0]};
    for (uint32_t d = 0; d < devices; d++) {
      napi_value list;
      napi_get_element(env, args[1], d, &list);
      uint32_t n;
      if (napi_get_array_length(env, list, &n) != napi_ok) throwUsage("argumentLists must be an array of arrays");
      for (uint32_t i = 0; i < n; i++) {
        napi_value b;
        napi_get_element(env, list, i, &b);
        BufferObject* input = bufferOf(env, b);
        lists[d].push_back(input->buffer);
        inputs.push_back(input);
        keep.push_back(b);
      }
    }
    auto task = std::make_unique<ExecuteTask>(exe, std::move(inputs), std::move(lists));
    task->keepAlive = keep;
    return startTask(env, std::move(task));
  });
}

}  // namespace addon
