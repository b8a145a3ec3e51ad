// tpu-kernel/runtime: eager TPU tensors on a persistent session (see runtime/README.md).
import './ops/index.js';

export { tpu, type Tpu, type DeviceInfo } from './tpu.js';
export { Tensor, type NestedArray } from './tensor.js';
export type { DType, HostArray } from './dtype.js';
export type { Shape } from './shape.js';
export type { ModeName, DeviceOptions } from './device/settings.js';
export type { MemoryInfo } from './device/memory.js';
export { OutOfMemoryError } from './device/memory.js';
export { DeviceError, CancelledError, interruptWaits } from './device/session.js';
export { NonFiniteError } from './modes/eager.js';
export { apply, addApplyHook, type ApplyHook } from './modes/dispatch.js';
export * as ops from './ops/index.js';
export * as profiler from './profiler/index.js';
