// C source of the small N-API addon that loads generated kernels (dlopen) and runs them on
// typed arrays, split over a few threads (elements, or rows of a row loop): a generated loop is compute-bound (one pass over
// memory), so the cores take chunks of it in turn. Its workers sleep on a condition variable
// between runs (no spinning: the cores are shared with ONNX Runtime and the host). Compiled
// once per machine by the system compiler, like the kernels.
import { napiModuleInit } from './napi-module.js';
export const ADDON_C = String.raw`
#include <dlfcn.h>
#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
typedef void (*tk_kernel)(const float* const* in, const float* sc, float* const* out, int64_t begin, int64_t end);
#define TK_MAX 64
#define TK_MAX_THREADS 64
/* Chunks start on 64-byte boundaries: no two threads write one cache line. */
#define TK_ALIGN 16
/* Elements per chunk at least: waking a sleeping worker costs some 10-50 us. */
#define TK_MIN_CHUNK 32768

/* n indices, each unit elements of work (1, or a row loop's row length) */
typedef struct { tk_kernel fn; void** in; const float* sc; void** out; int64_t n, unit, chunk, chunks; } tk_job;
static pthread_mutex_t tk_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tk_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t tk_done = PTHREAD_COND_INITIALIZER;
/* One parallel run at a time (several device threads share this process): others run serially. */
static pthread_mutex_t tk_busy = PTHREAD_MUTEX_INITIALIZER;
static tk_job tk_current;
static int64_t tk_next; /* the next chunk to take (atomic) */
static unsigned tk_generation = 0;
/* open: workers may still join the current run; active: workers inside it. */
static int tk_open = 0, tk_active = 0, tk_workers = 0;

/* Takes chunks until none is left: on a loaded machine a late worker finds none, and the
   caller never waits for a thread the scheduler has not run. */
static void tk_chunks(const tk_job* j) {
  for (;;) {
    int64_t c = __atomic_fetch_add(&tk_next, 1, __ATOMIC_RELAXED);
    if (c >= j->chunks) return;
    int64_t end = (c + 1) * j->chunk < j->n ? (c + 1) * j->chunk : j->n;
    j->fn((const float* const*)j->in, j->sc, (float* const*)j->out, c * j->chunk, end);
  }
}

static void* tk_worker(void* arg) {
  unsigned seen = (unsigned)(uintptr_t)arg;
  pthread_mutex_lock(&tk_mu);
  for (;;) {
    while (tk_generation == seen) pthread_cond_wait(&tk_wake, &tk_mu);
    seen = tk_generation;
    if (!tk_open) continue;
    tk_active++;
    tk_job job = tk_current;
    pthread_mutex_unlock(&tk_mu);
    tk_chunks(&job);
    pthread_mutex_lock(&tk_mu);
    if (--tk_active == 0) pthread_cond_signal(&tk_done);
  }
  return NULL;
}

/* Runs [0, n) on the caller and up to threads - 1 workers. */
static void tk_parallel(tk_job job, int threads) {
  if (threads > TK_MAX_THREADS) threads = TK_MAX_THREADS;
  int64_t chunk = job.n / ((int64_t)threads * 8);
  int64_t least = (TK_MIN_CHUNK + job.unit - 1) / job.unit;
  if (chunk < least) chunk = least;
  /* rows are whole cache lines or more apart already */
  int64_t align = job.unit == 1 ? TK_ALIGN : 1;
  job.chunk = (chunk + align - 1) / align * align;
  job.chunks = (job.n + job.chunk - 1) / job.chunk;
  if (threads < 2 || job.chunks < 2 || pthread_mutex_trylock(&tk_busy) != 0) {
    job.fn((const float* const*)job.in, job.sc, (float* const*)job.out, 0, job.n);
    return;
  }
  pthread_mutex_lock(&tk_mu);
  while (tk_workers < threads - 1) {
    pthread_t t;
    /* born in this generation: its first run is the next one */
    if (pthread_create(&t, NULL, tk_worker, (void*)(uintptr_t)tk_generation) != 0) break;
    pthread_detach(t);
    tk_workers++;
  }
  tk_current = job;
  __atomic_store_n(&tk_next, 0, __ATOMIC_RELAXED);
  tk_open = 1;
  tk_generation++;
  pthread_cond_broadcast(&tk_wake);
  pthread_mutex_unlock(&tk_mu);
  tk_chunks(&job);
  pthread_mutex_lock(&tk_mu);
  tk_open = 0;
  while (tk_active > 0) pthread_cond_wait(&tk_done, &tk_mu);
  pthread_mutex_unlock(&tk_mu);
  pthread_mutex_unlock(&tk_busy);
}

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
/* run(kernel, inputs: Float32Array[], scalars: Float32Array, outputs: Float32Array[], n, threads, unit) */
static napi_value tk_run(napi_env env, napi_callback_info info) {
  size_t argc = 7; napi_value argv[7];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void* fn; napi_get_value_external(env, argv[0], &fn);
  void* ins[TK_MAX]; void* outs[TK_MAX];
  if (tk_arrays(env, argv[1], ins) < 0 || tk_arrays(env, argv[3], outs) < 0) { napi_throw_type_error(env, NULL, "bad arrays"); return NULL; }
  napi_typedarray_type type; size_t length; void* sc; napi_value ab; size_t offset;
  napi_get_typedarray_info(env, argv[2], &type, &length, &sc, &ab, &offset);
  int64_t n; napi_get_value_int64(env, argv[4], &n);
  int32_t threads; napi_get_value_int32(env, argv[5], &threads);
  int64_t unit; napi_get_value_int64(env, argv[6], &unit);
  tk_job job = { (tk_kernel)fn, ins, (const float*)sc, outs, n, unit < 1 ? 1 : unit, 0, 0 };
  tk_parallel(job, threads);
  return NULL;
}
${napiModuleInit([['load', 'tk_load'], ['run', 'tk_run']])}`;
