// C source of a small N-API addon holding weak references to JS objects in a list. Unlike a
// WeakRef or a FinalizationRegistry cell (V8's scavenges keep their targets), a weak N-API
// reference to a young object is cleared by a scavenge, a minor collection of well under a
// millisecond: young-tensors.ts finds a chain's dropped temporaries with one, without a full
// collection. Built by the system compiler like the generated loops (loopgen/native.ts).
import { napiModuleInit } from './loopgen/napi-module.js';
export const YOUNG_WEAK_C = String.raw`
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct { napi_ref* refs; uint32_t n, cap; } tk_list;

static void tk_list_free(napi_env env, void* data, void* hint) {
  tk_list* l = (tk_list*)data;
  for (uint32_t i = 0; i < l->n; i++) napi_delete_reference(env, l->refs[i]);
  free(l->refs);
  free(l);
}

/* list(): an empty list, freed with its JS handle */
static napi_value tk_create(napi_env env, napi_callback_info info) {
  tk_list* l = (tk_list*)calloc(1, sizeof(tk_list));
  napi_value out;
  if (!l || napi_create_external(env, l, tk_list_free, NULL, &out) != napi_ok) { free(l); napi_throw_error(env, NULL, "out of memory"); return NULL; }
  return out;
}

/* watch(list, object): appends a weak reference (count 0) to object */
static napi_value tk_watch(napi_env env, napi_callback_info info) {
  size_t argc = 2; napi_value argv[2]; void* data;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_value_external(env, argv[0], &data);
  tk_list* l = (tk_list*)data;
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? 2 * l->cap : 64;
    napi_ref* refs = (napi_ref*)realloc(l->refs, cap * sizeof(napi_ref));
    if (!refs) { napi_throw_error(env, NULL, "out of memory"); return NULL; }
    l->refs = refs; l->cap = cap;
  }
  if (napi_create_reference(env, argv[1], 0, &l->refs[l->n]) != napi_ok) { napi_throw_type_error(env, NULL, "not an object"); return NULL; }
  l->n++;
  return NULL;
}

/* sweep(list, codes: Uint8Array of list's length, kept: Array): per entry, in: 0 keep watching,
   1 let go; out: 0 still watched, 1 let go (its object, if alive, pushed on kept), 2 collected.
   Entries let go or collected leave the list, the rest keep their order. */
static napi_value tk_sweep(napi_env env, napi_callback_info info) {
  size_t argc = 3; napi_value argv[3]; void* data;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_value_external(env, argv[0], &data);
  tk_list* l = (tk_list*)data;
  napi_typedarray_type type; size_t length; void* codes; napi_value ab; size_t offset;
  if (napi_get_typedarray_info(env, argv[1], &type, &length, &codes, &ab, &offset) != napi_ok || type != napi_uint8_array || length != l->n) {
    napi_throw_type_error(env, NULL, "codes: a Uint8Array of the list's length"); return NULL;
  }
  uint8_t* c = (uint8_t*)codes;
  uint32_t kept = 0, pushed = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    napi_value v = NULL;
    napi_get_reference_value(env, l->refs[i], &v);
    if (v == NULL) c[i] = 2;
    else if (c[i] == 1) napi_set_element(env, argv[2], pushed++, v);
    if (c[i] == 0) l->refs[kept++] = l->refs[i];
    else napi_delete_reference(env, l->refs[i]);
  }
  l->n = kept;
  return NULL;
}

${napiModuleInit([['list', 'tk_create'], ['watch', 'tk_watch'], ['sweep', 'tk_sweep']])}`;
