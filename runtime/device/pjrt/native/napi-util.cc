#include "napi-util.h"

#include <sched.h>
#include <signal.h>
#include <sys/time.h>

#include <atomic>
#include <thread>


namespace addon {

namespace {

const char* codeName(int code) {
  static const char* names[] = {
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
      "UNAUTHENTICATED"};
  return code >= 0 && code <= 16 ? names[code] : "UNKNOWN";
}

struct TaskState {
  std::unique_ptr<Task> task;
  napi_deferred deferred;
  napi_async_work work;
  std::vector<napi_ref> refs;
};

std::atomic<bool> idlePriority{false};

void runTask(TaskState* state) {
  try {
    state->task->run();
  } catch (const JsThrow& t) {
    state->task->failure = t.failure;
  }
}

void executeTask(napi_env, void* data) {
  auto* state = static_cast<TaskState*>(data);
  if (!idlePriority.load()) return runTask(state);
  // A thread of its own, since an unprivileged thread cannot leave SCHED_IDLE again; threads
  // libtpu starts from it inherit the policy.
  std::thread idle([state] {
#ifdef SCHED_IDLE
    sched_param none{};
    sched_setscheduler(0, SCHED_IDLE, &none);  // 0: this thread (Linux)
#endif
    runTask(state);
  });
  idle.join();
}

void completeTask(napi_env env, napi_status status, void* data) {
  std::unique_ptr<TaskState> state(static_cast<TaskState*>(data));
  napi_value settled = nullptr;
  bool ok = status == napi_ok && !state->task->failure;
  if (ok) {
    try {
      settled = state->task->result(env);
    } catch (const JsThrow& t) {
      ok = false;
      state->task->failure = t.failure;
    }
  }
  if (ok) {
    napi_resolve_deferred(env, state->deferred, settled);
  } else {
    Failure f = state->task->failure ? *state->task->failure
                                     : Failure{-1, "the addon's work was cancelled", "CANCELLED"};
    napi_reject_deferred(env, state->deferred, makeError(env, f));
  }
  for (napi_ref r : state->refs) napi_delete_reference(env, r);
  napi_delete_async_work(env, state->work);
}

}  // namespace

std::optional<Failure> takeError(const pjrt::Api* api, pjrt::Error* error) {
  if (error == nullptr) return std::nullopt;
  auto message = pjrt::makeArgs<pjrt::ErrorMessageArgs>();
  message.error = error;
  api->error_message(&message);
  auto code = pjrt::makeArgs<pjrt::ErrorGetCodeArgs>();
  code.error = error;
  int pjrtCode = api->error_get_code(&code) == nullptr ? code.code : pjrt::kUnknown;
  Failure f{pjrtCode, std::string(message.message, message.message_size), codeName(pjrtCode)};
  auto destroy = pjrt::makeArgs<pjrt::ErrorDestroyArgs>();
  destroy.error = error;
  api->error_destroy(&destroy);
  return f;
}

void check(const pjrt::Api* api, pjrt::Error* error) {
  if (auto f = takeError(api, error)) throw JsThrow{*f};
}

[[noreturn]] void throwUsage(const std::string& message) {
  throw JsThrow{Failure{-1, message, "ERR_INVALID_ARG_TYPE"}};
}

namespace {
void swallowProfilingSignal(int) {}
}  // namespace

void quietProfilingSignals() {
  itimerval off{};
  setitimer(ITIMER_PROF, &off, nullptr);
  // The plugin's threads also keep per-thread CPU timers that send SIGPROF. The plugin sets
  // SIGPROF to "ignore", which Node resets to the default (terminate) while it exits, with
  // those threads still running. Node keeps an installed handler function, so install one,
  // unless a profiler (V8's --cpu-prof) already has its own.
  struct sigaction current {};
  sigaction(SIGPROF, nullptr, &current);
  bool handled = (current.sa_flags & SA_SIGINFO) != 0 ||
                 (current.sa_handler != SIG_IGN && current.sa_handler != SIG_DFL);
  if (handled) return;
  struct sigaction quiet {};
  quiet.sa_handler = swallowProfilingSignal;
  quiet.sa_flags = SA_RESTART;
  sigemptyset(&quiet.sa_mask);
  sigaction(SIGPROF, &quiet, nullptr);
}

napi_value makeError(napi_env env, const Failure& f) {
  napi_value message, code, error;
  std::string text = f.pjrt_code >= 0 ? "PJRT " + f.code_name + ": " + f.message : f.message;
  napi_create_string_utf8(env, text.data(), text.size(), &message);
  napi_create_string_utf8(env, f.code_name.data(), f.code_name.size(), &code);
  napi_create_error(env, nullptr, message, &error);
  setField(env, error, "code", code);
  if (f.pjrt_code >= 0) {
    setField(env, error, "pjrtCode", jsNumber(env, f.pjrt_code));
    setField(env, error, "pjrtMessage", jsString(env, f.message));
  }
  return error;
}

void setIdlePriority(bool idle) { idlePriority.store(idle); }

napi_value startTask(napi_env env, std::unique_ptr<Task> task) {
  auto* state = new TaskState{std::move(task), nullptr, nullptr, {}};
  for (napi_value v : state->task->keepAlive) {
    napi_ref ref;
    napi_create_reference(env, v, 1, &ref);
    state->refs.push_back(ref);
  }
  napi_value promise, name;
  napi_create_promise(env, &state->deferred, &promise);
  napi_create_string_utf8(env, "pjrt", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, nullptr, name, executeTask, completeTask, state, &state->work);
  napi_queue_async_work(env, state->work);
  return promise;
}

napi_value wrapHandle(napi_env env, HandleKind kind, void* object, napi_finalize finalize) {
  napi_value value;
  napi_create_external(env, object, finalize, nullptr, &value);
  napi_type_tag tag{0x7470756b65726e65ULL, static_cast<uint64_t>(kind)};
  napi_type_tag_object(env, value, &tag);
  return value;
}

void* unwrapHandle(napi_env env, napi_value value, HandleKind kind, const char* what) {
  napi_type_tag tag{0x7470756b65726e65ULL, static_cast<uint64_t>(kind)};
  bool matches = false;
  napi_valuetype type;
  napi_typeof(env, value, &type);
  if (type == napi_external) napi_check_object_type_tag(env, value, &tag, &matches);
  if (!matches) throwUsage(std::string("expected ") + what + " handle");
  void* object;
  napi_get_value_external(env, value, &object);
  return object;
}

std::string readString(napi_env env, napi_value value, const char* what) {
  size_t size;
  if (napi_get_value_string_utf8(env, value, nullptr, 0, &size) != napi_ok)
    throwUsage(std::string(what) + " must be a string");
  std::string s(size, '\0');
  napi_get_value_string_utf8(env, value, s.data(), size + 1, &size);
  return s;
}

std::vector<char> readBytes(napi_env env, napi_value value, const char* what) {
  bool isTyped = false;
  napi_is_typedarray(env, value, &isTyped);
  if (!isTyped) throwUsage(std::string(what) + " must be a Uint8Array");
  napi_typedarray_type type;
  size_t length, offset;
  void* data;
  napi_value buffer;
  napi_get_typedarray_info(env, value, &type, &length, &data, &buffer, &offset);
  if (type != napi_uint8_array) throwUsage(std::string(what) + " must be a Uint8Array");
  auto* bytes = static_cast<const char*>(data);
  return std::vector<char>(bytes, bytes + length);
}

double readNumber(napi_env env, napi_value value, const char* what) {
  double v;
  if (napi_get_value_double(env, value, &v) != napi_ok)
    throwUsage(std::string(what) + " must be a number");
  return v;
}

std::vector<int64_t> readInt64List(napi_env env, napi_value value, const char* what) {
  bool isArray = false;
  napi_is_array(env, value, &isArray);
  if (!isArray) throwUsage(std::string(what) + " must be an array of numbers");
  uint32_t n;
  napi_get_array_length(env, value, &n);
  std::vector<int64_t> list;
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    napi_get_element(env, value, i, &item);
    list.push_back(static_cast<int64_t>(readNumber(env, item, what)));
  }
  return list;
}

CompileInput CompileInput::read(napi_env env, napi_value code, napi_value format, napi_value options) {
  return CompileInput{readString(env, code, "code"), readString(env, format, "format"),
                      readBytes(env, options, "compile options")};
}

pjrt::Program CompileInput::program() {
  auto p = pjrt::makeArgs<pjrt::Program>();
  p.code = code.data();
  p.code_size = code.size();
  p.format = format.data();
  p.format_size = format.size();
  return p;
}

std::vector<napi_value> readArgs(napi_env env, napi_callback_info info, size_t count) {
  std::vector<napi_value> args(count);
  size_t given = count;
  napi_get_cb_info(env, info, &given, args.data(), nullptr, nullptr);
  if (given < count)
    throwUsage("expected " + std::to_string(count) + " arguments, got " + std::to_string(given));
  return args;
}

napi_value jsString(napi_env env, const char* data, size_t size) {
  napi_value v;
  napi_create_string_utf8(env, data == nullptr ? "" : data, data == nullptr ? 0 : size, &v);
  return v;
}
napi_value jsString(napi_env env, const std::string& s) { return jsString(env, s.data(), s.size()); }
napi_value jsNumber(napi_env env, double d) {
  napi_value v;
  napi_create_double(env, d, &v);
  return v;
}
napi_value jsBool(napi_env env, bool b) {
  napi_value v;
  napi_get_boolean(env, b, &v);
  return v;
}
napi_value jsBytes(napi_env env, const char* data, size_t size) {
  void* target;
  napi_value buffer, array;
  napi_create_arraybuffer(env, size, &target, &buffer);
  if (size > 0) std::copy(data, data + size, static_cast<char*>(target));
  napi_create_typedarray(env, napi_uint8_array, size, buffer, 0, &array);
  return array;
}
napi_value jsObject(napi_env env) {
  napi_value v;
  napi_create_object(env, &v);
  return v;
}
void setField(napi_env env, napi_value object, const char* name, napi_value value) {
  napi_set_named_property(env, object, name, value);
}

napi_value namedValueToJs(napi_env env, const pjrt::NamedValue& v) {
  switch (v.type) {
    case pjrt::kString: return jsString(env, v.string_value, v.value_size);
    case pjrt::kInt64: return jsNumber(env, static_cast<double>(v.int64_value));
    case pjrt::kFloat: return jsNumber(env, v.float_value);
    case pjrt::kBool: return jsBool(env, v.bool_value);
    case pjrt::kInt64List: {
      napi_value list;
      napi_create_array_with_length(env, v.value_size, &list);
      for (size_t i = 0; i < v.value_size; i++)
        napi_set_element(env, list, i, jsNumber(env, static_cast<double>(v.int64_array_value[i])));
      return list;
    }
  }
  napi_value undefined;
  napi_get_undefined(env, &undefined);
  return undefined;
}

}  // namespace addon
