// C source of the small N-API addon that loads generated kernels (dlopen) and runs them on
// typed arrays. Compiled once per machine by the system compiler, like the kernels.
export const ADDON_C = String.raw`
#include <dlfcn.h>
#include <node_api.h>
#include <stdint.h>
typedef void (*tk_kernel)(const float* const* in, const float* sc, float* const* out, int64_t n);
#define TK_MAX 64
static napi_value tk_load(napi_env env, napi_callback_info info) {
  size_t argc = 1; napi_value argv[1]; char path[4096]; size_t len;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len);
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) { napi_throw_error(env, NULL, dlerror()); return NULL; }
  void* fn = dlsym(lib, "tk_kernel");
  if (!fn) { napi_throw_error(env, NULL, "tk_kernel not found"); return NULL; }
  napi_value out; napi_create_external(env, fn, NULL, NULL, &out);
  return out;
}
static int tk_arrays(napi_env env, napi_value list, void** ptrs) {
  uint32_t n; napi_get_array_length(env, list, &n);
  if (n > TK_MAX) return -1;
  for (uint32_t i = 0; i < n; i++) {
    napi_value el; napi_get_element(env, list, i, &el);
    napi_typedarray_type type; size_t length; void* data; napi_value ab; size_t offset;
    if (napi_get_typedarray_info(env, el, &type, &length, &data, &ab, &offset) != napi_ok) return -1;
    ptrs[i] = data;
  }
  return (int)n;
}
/* run(kernel, inputs: Float32Array[], scalars: Float32Array, outputs: Float32Array[], n) */
static napi_value tk_run(napi_env env, napi_callback_info info) {
  size_t argc = 5; napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void* fn; napi_get_value_external(env, argv[0], &fn);
  void* ins[TK_MAX]; void* outs[TK_MAX];
  if (tk_arrays(env, argv[1], ins) < 0 || tk_arrays(env, argv[3], outs) < 0) { napi_throw_type_error(env, NULL, "bad arrays"); return NULL; }
  napi_typedarray_type type; size_t length; void* sc; napi_value ab; size_t offset;
  napi_get_typedarray_info(env, argv[2], &type, &length, &sc, &ab, &offset);
  int64_t n; napi_get_value_int64(env, argv[4], &n);
  ((tk_kernel)fn)((const float* const*)ins, (const float*)sc, (float* const*)outs, n);
  return NULL;
}
NAPI_MODULE_INIT() {
  napi_value f;
  napi_create_function(env, "load", NAPI_AUTO_LENGTH, tk_load, NULL, &f);
  napi_set_named_property(env, exports, "load", f);
  napi_create_function(env, "run", NAPI_AUTO_LENGTH, tk_run, NULL, &f);
  napi_set_named_property(env, exports, "run", f);
  return exports;
}
`;
