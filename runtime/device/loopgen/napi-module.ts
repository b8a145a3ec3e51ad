// The init function of a generated N-API addon (loopgen/native.ts builds them): each JS name
// bound to its C callback on the module's exports.

/** C source of NAPI_MODULE_INIT exporting `functions`: [JS name, C function] pairs. */
export function napiModuleInit(functions: readonly (readonly [string, string])[]): string {
  const lines = functions.map(([name, fn]) =>
    `  napi_create_function(env, "${name}", NAPI_AUTO_LENGTH, ${fn}, NULL, &f);\n  napi_set_named_property(env, exports, "${name}", f);`);
  return `NAPI_MODULE_INIT() {\n  napi_value f;\n${lines.join('\n')}\n  return exports;\n}\n`;
}
