// The StableHLO backend's lowering: Program IR -> MLIR text for XLA (libtpu, jaxlib).
export { lowerToStableHlo, type StableHloModule } from './lower-program.js';
export { stablehloLowerings } from './lowerings/index.js';
export type { TensorType, ElementType } from './mlir-function.js';
