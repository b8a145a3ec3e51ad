// N-API plumbing shared by the addon's files: failures as JS errors, promise-returning work
// on libuv's thread pool, typed handles (external objects), argument readers.
#pragma once

#include <node_api.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pjrt-c-api.h"

namespace addon {

/** A failed call. pjrt_code is the PJRT code (absl status) or -1 for the addon's own errors. */
struct Failure {
  int pjrt_code;
  std::string message;
  std::string code_name;  // 'INVALID_ARGUMENT' ... or the addon's own, e.g. 'PLUGIN_LOAD'
};

/** Takes ownership of `error` (destroys it); nullopt when the call succeeded. */
std::optional<Failure> takeError(const pjrt::Api* api, pjrt::Error* error);

/** Thrown into JS by the N-API entry points below. */
struct JsThrow {
  Failure failure;
};

napi_value makeError(napi_env env, const Failure& f);

/** Work run on a pool thread (run: no N-API calls), then settled on the JS thread. */
class Task {
 public:
  virtual ~Task() = default;
  virtual void run() = 0;
  virtual napi_value result(napi_env env) = 0;
  std::optional<Failure> failure;
  /** JS values the task reads or whose native object it uses until it settles. */
  std::vector<napi_value> keepAlive;
};

/**
 * Whether tasks started from now on run at idle CPU priority (SCHED_IDLE: only on a core no
 * other thread wants). Without TPU chips libtpu only compiles for figures, in the background
 * of the CPU executor, whose threads must not lose their cores to it.
 */
void setIdlePriority(bool idle);

/** Queues the task; returns the promise it settles. */
napi_value startTask(napi_env env, std::unique_ptr<Task> task);

// ---- handles: native objects behind JS external values, checked by type tag
enum class HandleKind : uint64_t { kPlugin = 1, kTopology, kExecutable, kClient, kLoadedExecutable, kBuffer };

napi_value wrapHandle(napi_env env, HandleKind kind, void* object, napi_finalize finalize);
void* unwrapHandle(napi_env env, napi_value value, HandleKind kind, const char* what);

// ---- argument readers (throw JsThrow with a clear message)
std::string readString(napi_env env, napi_value value, const char* what);
/** Bytes of a Uint8Array/Buffer (copied). */
std::vector<char> readBytes(napi_env env, napi_value value, const char* what);
double readNumber(napi_env env, napi_value value, const char* what);
std::vector<int64_t> readInt64List(napi_env env, napi_value value, const char* what);
std::vector<napi_value> readArgs(napi_env env, napi_callback_info info, size_t count);

// ---- value builders
napi_value jsString(napi_env env, const char* data, size_t size);
napi_value jsString(napi_env env, const std::string& s);
napi_value jsNumber(napi_env env, double v);
napi_value jsBool(napi_env env, bool v);
napi_value jsBytes(napi_env env, const char* data, size_t size);
napi_value jsObject(napi_env env);
void setField(napi_env env, napi_value object, const char* name, napi_value value);
napi_value namedValueToJs(napi_env env, const pjrt::NamedValue& v);

/** A program to compile and its serialized CompileOptionsProto, owned until the compile ends. */
struct CompileInput {
  std::string code;
  std::string format;
  std::vector<char> options;
  static CompileInput read(napi_env env, napi_value code, napi_value format, napi_value options);
  /** Points into this object. */
  pjrt::Program program();
};

/** Runs an entry point body, turning JsThrow into a thrown JS error. */
template <class Body>
napi_value guard(napi_env env, Body body) {
  try {
    return body();
  } catch (const JsThrow& t) {
    napi_throw(env, makeError(env, t.failure));
    return nullptr;
  }
}

[[noreturn]] void throwUsage(const std::string& message);
/** Throws the PJRT failure of `error`, if any. */
void check(const pjrt::Api* api, pjrt::Error* error);

/** libtpu arms SIGPROF timers (process and per-thread) that kill a Node process at exit;
 * called after every plugin call that may arm them. */
void quietProfilingSignals();

}  // namespace addon
