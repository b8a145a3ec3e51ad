// tpu.optim.lrScheduler: torch.optim.lr_scheduler's schedulers.
export { LRScheduler } from './scheduler.js';
export { StepLR, MultiStepLR, ExponentialLR, type StepLROptions, type MultiStepLROptions, type ExponentialLROptions } from './step-lr.js';
export { LambdaLR, MultiplicativeLR, type LambdaLROptions, type LrLambda } from './lambda-lr.js';
export { LinearLR, type LinearLROptions } from './linear-lr.js';
export { CosineAnnealingLR, type CosineAnnealingLROptions } from './cosine-annealing-lr.js';
export { CosineAnnealingWarmRestarts, type CosineAnnealingWarmRestartsOptions } from './cosine-annealing-warm-restarts.js';
export { ConstantLR, type ConstantLROptions } from './constant-lr.js';
export { PolynomialLR, type PolynomialLROptions } from './polynomial-lr.js';
export { OneCycleLR, type OneCycleLROptions } from './one-cycle-lr.js';
export { ReduceLROnPlateau, type ReduceLROnPlateauOptions } from './reduce-lr-on-plateau.js';
export { CyclicLR, type CyclicLROptions, type CyclicMode, type ScaleMode } from './cyclic-lr.js';
export { SequentialLR, type SequentialLROptions } from './sequential-lr.js';
export { ChainedScheduler } from './chained-scheduler.js';
