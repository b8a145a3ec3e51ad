// libtpu through the PJRT C API: ahead-of-time compiles for named TPU topologies.
export { compileForTpu, TpuCompiled, type TpuCompileOptions, type TpuCostAnalysis, type TpuMemoryAnalysis } from './compile.js';
export { tpuCompilerInfo, hasTpuChips, type TpuCompilerInfo, type TpuCompilerStatus } from './libtpu.js';
export { tpuTopology, topologyCreateOptions, type TpuTopology } from './topology.js';
export { PjrtError, TpuCompilerUnavailableError } from './errors.js';
