// libtpu through the PJRT C API: ahead-of-time compiles for named TPU topologies (any
// machine with libtpu installed) and, on TPU hosts, a client that runs programs.
export { compileForTpu, TpuCompiled, type TpuCompileOptions, type TpuCostAnalysis, type TpuMemoryAnalysis } from './compile.js';
export { tpuCompilerInfo, loadedTpuCompiler, hasTpuChips, type TpuCompilerInfo, type TpuCompilerStatus } from './libtpu.js';
export { findLibtpu, findLibtpuSync, type LibtpuLocation } from './libtpu-path.js';
export { tpuTopology, topologyCreateOptions, type TpuTopology } from './topology.js';
export { PjrtError, TpuCompilerUnavailableError } from './errors.js';
export { openTpuClient, TpuClient, TpuUnavailableError, PJRT_BUFFER_TYPE, type PjrtDType } from './tpu-client.js';
