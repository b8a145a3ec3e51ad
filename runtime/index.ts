// tpu-kernel/runtime: eager TPU tensors on a persistent session (see runtime/README.md).
// First: V8's tier-up budget applies to the functions the runtime loads after it.
import './v8-tiering.js';
import './ops/index.js';
// Tensor's autograd methods (backward, detach, requiresGrad_, grad): their declarations reach cells too.
import './autograd/index.js';

export { tpu, type Tpu, type DeviceInfo } from './tpu.js';
export { Tensor, type NestedArray } from './tensor.js';
export type { BoolTensor } from './bool-tensor.js';
export type { DType, HostArray } from './dtype.js';
export type { Shape } from './shape.js';
export type { DeviceOptions } from './device/settings.js';
export type { ModeName } from './modes/mode-type.js';
export type { MemoryInfo } from './device/memory.js';
export { OutOfMemoryError, formatBytes } from './device/memory.js';
export { DeviceError, CancelledError } from './device/device-errors.js';
export { interruptWaits } from './device/signal.js';
export { skipCallerFrames } from './call-site.js';
export { runtimeInterruptBudget } from './v8-tiering.js';
export { NonFiniteError } from './modes/eager.js';
export { apply, addApplyHook, type ApplyHook } from './modes/dispatch.js';
export { composite } from './modes/composite.js';
export * as ops from './ops/index.js';
export * as profiler from './profiler/index.js';
export { programText, type Program } from './program/program.js';
export { lowerToOnnx, type LoweredModel } from './device/onnx/lower-program.js';
export { lowerToStableHlo, type StableHloModule } from './device/stablehlo/lower-program.js';
export { Lowered, type LoweredInput, type LowerCompileOptions } from './jit/lower.js';
export { Spec } from './jit/spec.js';
export { DeviceMesh, DTensor, type MeshOptions, type Placement, type PartialReduce } from './distributed/index.js';
export type { SessionMemoryInfo, ChipMemoryInfo } from './device/chip-memory.js';
export { TpuCompiled, type TpuCostAnalysis, type TpuMemoryAnalysis } from './device/pjrt/compile.js';
// Capture hooks: the fused region's size cap, running the pending region, refusing reads.
export { setRegionCap } from './modes/fused.js';
export { flushRegion } from './modes/mode.js';
export { forbidSyncWhile } from './modes/materialize.js';
// Last: PyTorch's snake_case names of the members installed above say which camelCase one to use.
import './python-name-hints.js';
