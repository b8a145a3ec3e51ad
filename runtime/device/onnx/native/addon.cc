// The ortc addon: ONNX Runtime sessions run synchronously on the calling (device) thread, with
// inputs and outputs as OrtValues over the caller's typed arrays, so ORT reads and writes the
// runtime's own buffers and no output is copied. Failures throw JS errors carrying ORT's message.
#include <node_api.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "ort-library.h"
#include "custom-ops.h"

namespace {

using ortc::fn;

/** A tensor the session takes or gives: its name, element type, shape and byte size, fixed at compile. */
struct TensorSpec {
  std::string name;
  int elementType;
  napi_typedarray_type arrayType;
  std::vector<int64_t> shape;
  size_t bytes;
};

struct SessionHandle {
  const ortc::Library* lib;
  ortc::Session* session;
  std::vector<TensorSpec> inputs, outputs;
  std::vector<const char*> inputNames, outputNames;
};

struct JsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void ok(napi_env env, napi_status status, const char* what) {
  if (status != napi_ok) throw JsError(std::string("ortc: could not read ") + what);
}

std::vector<napi_value> args(napi_env env, napi_callback_info info, size_t count) {
  std::vector<napi_value> values(count);
  size_t given = count;
  ok(env, napi_get_cb_info(env, info, &given, values.data(), nullptr, nullptr), "arguments");
  if (given < count) throw JsError("ortc: expected " + std::to_string(count) + " arguments");
  return values;
}

std::string readString(napi_env env, napi_value v, const char* what) {
  size_t length = 0;
  ok(env, napi_get_value_string_utf8(env, v, nullptr, 0, &length), what);
  std::string s(length, '\0');
  ok(env, napi_get_value_string_utf8(env, v, s.data(), length + 1, &length), what);
  return s;
}

double readNumber(napi_env env, napi_value v, const char* what) {
  double d = 0;
  ok(env, napi_get_value_double(env, v, &d), what);
  return d;
}

std::vector<napi_value> readArray(napi_env env, napi_value v, const char* what) {
  uint32_t length = 0;
  ok(env, napi_get_array_length(env, v, &length), what);
  std::vector<napi_value> items(length);
  for (uint32_t i = 0; i < length; i++) ok(env, napi_get_element(env, v, i, &items[i]), what);
  return items;
}

napi_value field(napi_env env, napi_value object, const char* name) {
  napi_value v;
  ok(env, napi_get_named_property(env, object, name, &v), name);
  return v;
}

/** { name, dtype: 'float32' | 'int32' | 'int64' | 'bool', shape } -> TensorSpec. */
TensorSpec readSpec(napi_env env, napi_value v) {
  TensorSpec spec;
  spec.name = readString(env, field(env, v, "name"), "name");
  const std::string dtype = readString(env, field(env, v, "dtype"), "dtype");
  size_t itemsize;
  if (dtype == "float32") spec.elementType = ortc::kElementFloat, spec.arrayType = napi_float32_array, itemsize = 4;
  else if (dtype == "int32") spec.elementType = ortc::kElementInt32, spec.arrayType = napi_int32_array, itemsize = 4;
  else if (dtype == "int64") spec.elementType = ortc::kElementInt64, spec.arrayType = napi_bigint64_array, itemsize = 8;
  else if (dtype == "bool") spec.elementType = ortc::kElementBool, spec.arrayType = napi_uint8_array, itemsize = 1;
  else throw JsError("ortc: unsupported dtype " + dtype);
  spec.bytes = itemsize;
  for (napi_value d : readArray(env, field(env, v, "shape"), "shape")) {
    spec.shape.push_back(static_cast<int64_t>(readNumber(env, d, "shape")));
    spec.bytes *= static_cast<size_t>(spec.shape.back());
  }
  return spec;
}

template <class Body>
napi_value guard(napi_env env, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    napi_throw_error(env, nullptr, e.what());
    return nullptr;
  }
}

void releaseSession(SessionHandle* h) {
  if (h->session) fn<ortc::ReleaseSession>(h->lib->api)(h->session);
  h->session = nullptr;
}

SessionHandle* unwrap(napi_env env, napi_value v) {
  void* p = nullptr;
  ok(env, napi_get_value_external(env, v, &p), "session");
  auto* h = static_cast<SessionHandle*>(p);
  if (!h->session) throw JsError("ortc: the session was released");
  return h;
}

enum class Threads { kCaller, kGlobalPool, kOwnPool };

ortc::Session* createWith(const ortc::Library& lib, const void* model, size_t length, Threads threads) {
  const void* const* api = lib.api;
  ortc::SessionOptions* options = nullptr;
  ortc::check(api, fn<ortc::CreateSessionOptions>(api)(&options));
  ortc::Session* session = nullptr;
  try {
    ortc::check(api, fn<ortc::SetSessionGraphOptimizationLevel>(api)(options, ortc::kGraphOptimizeAll));
    // A failing kernel comes back as an error naming the op; ORT's own log line would repeat it on stderr.
    ortc::check(api, fn<ortc::SetSessionLogSeverityLevel>(api)(options, ortc::kLoggingFatal));
    // ORT's per-node timings (JSON, written when the session is released): a file per session.
    if (const char* prefix = std::getenv("TPU_KERNEL_ORT_PROFILE")) ortc::check(api, fn<ortc::EnableProfiling>(api)(options, prefix));
    const ortc::Sgemm& gemm = ortc::loadSgemm("");  // loaded by init()
    ortc::check(api, fn<ortc::AddCustomOpDomain>(api)(options, ortc::customOpDomain(api, gemm, lib.threads)));
    if (threads == Threads::kGlobalPool) {
      ortc::check(api, fn<ortc::DisablePerSessionThreads>(api)(options));
    } else {
      ortc::check(api, fn<ortc::SetIntraOpNumThreads>(api)(options, threads == Threads::kCaller ? 1 : lib.threads));
      ortc::check(api, fn<ortc::AddSessionConfigEntry>(api)(options, "session.intra_op.allow_spinning", "0"));
    }
    {
      // ORT enters a session's custom op domain into ONNX's process-wide DomainToVersionRange
      // by a check, then an insert, unlocked (custom_ops.cc): two chips' device threads making
      // their first sessions at once failed with "the domain is already exist" (a full test
      // run, test/pjrt/in-the-loop-collectives.test.ts, emulated chips).
      static std::mutex creating;
      std::lock_guard<std::mutex> one(creating);
      ortc::check(api, fn<ortc::CreateSessionFromArray>(api)(lib.env, model, length, options, &session));
    }
  } catch (...) {
    fn<ortc::ReleaseSessionOptions>(api)(options);
    throw;
  }
  fn<ortc::ReleaseSessionOptions>(api)(options);
  return session;
}

/** Guards Library::globalPools: device threads of several chips may open sessions at once. */
std::mutex poolsFlag;

bool globalPools(const ortc::Library& lib) {
  std::lock_guard<std::mutex> hold(poolsFlag);
  return lib.globalPools;
}

ortc::Session* openSession(ortc::Library& lib, const void* model, size_t length, bool pooled) {
  if (!pooled) return createWith(lib, model, length, Threads::kCaller);
  if (globalPools(lib)) {
    try {
      return createWith(lib, model, length, Threads::kGlobalPool);
    } catch (const std::exception&) {
      // An environment made before ours has no global pools: sessions with pools of their
      // own work there (the model's own faults fail again below, and are thrown then).
      ortc::Session* session = createWith(lib, model, length, Threads::kOwnPool);
      std::lock_guard<std::mutex> hold(poolsFlag);
      lib.globalPools = false;
      return session;
    }
  }
  return createWith(lib, model, length, Threads::kOwnPool);
}

/**
 * init(libraryPath, threads, gemmLibrary) -> { version, buildInfo, threads, gemm, sgemm } (the
 * process's first call decides). `gemmLibrary` names oneDNN's library ('' for none): with it,
 * sessions run tpu_kernel.Sgemm nodes and `sgemm` is true.
 */
napi_value Init(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto a = args(env, info, 3);
    const auto& lib = ortc::loadLibrary(readString(env, a[0], "libraryPath"), static_cast<int>(readNumber(env, a[1], "threads")));
    const ortc::Sgemm& gemm = ortc::loadSgemm(readString(env, a[2], "gemmLibrary"));
    napi_value out, v;
    napi_create_object(env, &out);
    napi_create_string_utf8(env, gemm.description.c_str(), gemm.description.size(), &v);
    napi_set_named_property(env, out, "gemm", v);
    napi_get_boolean(env, gemm.run != nullptr, &v);
    napi_set_named_property(env, out, "sgemm", v);
    napi_create_string_utf8(env, lib.version.c_str(), lib.version.size(), &v);
    napi_set_named_property(env, out, "version", v);
    napi_create_string_utf8(env, lib.buildInfo.c_str(), lib.buildInfo.size(), &v);
    napi_set_named_property(env, out, "buildInfo", v);
    napi_create_int32(env, lib.threads, &v);
    napi_set_named_property(env, out, "threads", v);
    return out;
  });
}

/**
 * createSession(model, pooled, inputs, outputs): `pooled` sessions share the global intra-op pool;
 * the others run on the calling thread alone (small programs: handing work to a pool costs more).
 */
napi_value CreateSession(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto a = args(env, info, 4);
    ortc::Library& lib = ortc::loadedLibrary();
    void* model = nullptr;
    size_t length = 0;
    napi_typedarray_type type;
    napi_value buffer;
    size_t offset;
    ok(env, napi_get_typedarray_info(env, a[0], &type, &length, &model, &buffer, &offset), "model bytes");
    bool pooled = false;
    ok(env, napi_get_value_bool(env, a[1], &pooled), "pooled");
    auto h = std::make_unique<SessionHandle>();
    h->lib = &lib;
    for (napi_value v : readArray(env, a[2], "inputs")) h->inputs.push_back(readSpec(env, v));
    for (napi_value v : readArray(env, a[3], "outputs")) h->outputs.push_back(readSpec(env, v));
    for (auto& s : h->inputs) h->inputNames.push_back(s.name.c_str());
    for (auto& s : h->outputs) h->outputNames.push_back(s.name.c_str());

    h->session = openSession(lib, model, length, pooled);
    napi_value out;
    auto finalize = [](napi_env, void* data, void*) {
      auto* s = static_cast<SessionHandle*>(data);
      releaseSession(s);
      delete s;
    };
    ok(env, napi_create_external(env, h.get(), finalize, nullptr, &out), "session handle");
    h.release();
    return out;
  });
}

/** OrtValues made over JS arrays for one run, released when it ends. */
struct Values {
  const void* const* api;
  std::vector<ortc::Value*> items;
  ~Values() {
    for (auto* v : items) fn<ortc::ReleaseValue>(api)(v);
  }
};

void wrapArrays(napi_env env, napi_value list, const std::vector<TensorSpec>& specs, const ortc::Library& lib, Values& into) {
  auto arrays = readArray(env, list, "tensors");
  if (arrays.size() != specs.size()) {
    throw JsError("ortc: expected " + std::to_string(specs.size()) + " tensors, got " + std::to_string(arrays.size()));
  }
  static int64_t empty = 0;  // ORT wants a pointer even for a tensor of no elements
  for (size_t i = 0; i < specs.size(); i++) {
    const TensorSpec& spec = specs[i];
    napi_typedarray_type type;
    size_t length;
    void* data;
    napi_value buffer;
    size_t offset;
    ok(env, napi_get_typedarray_info(env, arrays[i], &type, &length, &data, &buffer, &offset), spec.name.c_str());
    const size_t bytes = length * (type == napi_uint8_array ? 1 : type == napi_bigint64_array ? 8 : 4);
    if (type != spec.arrayType || bytes != spec.bytes) {
      throw JsError("ortc: tensor " + spec.name + " has the wrong type or size (" + std::to_string(bytes) +
                    " bytes, expected " + std::to_string(spec.bytes) + ")");
    }
    ortc::Value* value = nullptr;
    ortc::check(lib.api, fn<ortc::CreateTensorWithDataAsOrtValue>(lib.api)(lib.cpu, data ? data : &empty, bytes, spec.shape.data(),
                                                                          spec.shape.size(), spec.elementType, &value));
    into.items.push_back(value);
  }
}

/** run(session, inputs, outputs): ORT writes the outputs into the given arrays. */
napi_value RunSession(napi_env env, napi_callback_info info) {
  return guard(env, [&]() -> napi_value {
    auto a = args(env, info, 3);
    SessionHandle* h = unwrap(env, a[0]);
    const ortc::Library& lib = *h->lib;
    Values inputs{lib.api, {}}, outputs{lib.api, {}};
    wrapArrays(env, a[1], h->inputs, lib, inputs);
    wrapArrays(env, a[2], h->outputs, lib, outputs);
    ortc::check(lib.api, fn<ortc::Run>(lib.api)(h->session, nullptr, h->inputNames.data(), inputs.items.data(), inputs.items.size(),
                                                h->outputNames.data(), h->outputNames.size(), outputs.items.data()));
    return nullptr;
  });
}

/** threadPools() -> 'global' (one intra-op pool every large session shares) or 'per session'. */
napi_value ThreadPools(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    const char* kind = globalPools(ortc::loadedLibrary()) ? "global" : "per session";
    napi_value out;
    napi_create_string_utf8(env, kind, NAPI_AUTO_LENGTH, &out);
    return out;
  });
}

/** releaseSession(session): frees it now rather than at garbage collection. */
napi_value ReleaseSession(napi_env env, napi_callback_info info) {
  return guard(env, [&]() -> napi_value {
    auto a = args(env, info, 1);
    releaseSession(unwrap(env, a[0]));
    return nullptr;
  });
}

/** lineOffset(arrayBuffer) -> where its data starts past a 64-byte cache line (its address mod 64). */
napi_value LineOffset(napi_env env, napi_callback_info info) {
  return guard(env, [&] {
    auto a = args(env, info, 1);
    void* data = nullptr;
    size_t length = 0;
    ok(env, napi_get_arraybuffer_info(env, a[0], &data, &length), "the array buffer");
    napi_value out;
    napi_create_uint32(env, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(data) % 64), &out);
    return out;
  });
}

napi_value exportAll(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"init", nullptr, Init, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"createSession", nullptr, CreateSession, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"run", nullptr, RunSession, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"threadPools", nullptr, ThreadPools, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"releaseSession", nullptr, ReleaseSession, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"lineOffset", nullptr, LineOffset, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
  };
  napi_define_properties(env, exports, sizeof(functions) / sizeof(functions[0]), functions);
  return exports;
}

}  // namespace

NAPI_MODULE_INIT() { return exportAll(env, exports); }
