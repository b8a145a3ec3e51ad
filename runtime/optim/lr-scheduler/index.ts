// tpu.optim.lrScheduler: torch.optim.lr_scheduler's schedulers.
export { LRScheduler } from './scheduler.js';
export { StepLR, MultiStepLR, ExponentialLR, type StepLROptions, type MultiStepLROptions, type ExponentialLROptions } from './step-lr.js';
export { LambdaLR, type LambdaLROptions, type LrLambda } from './lambda-lr.js';
export { LinearLR, type LinearLROptions } from './linear-lr.js';
export { CosineAnnealingLR, type CosineAnnealingLROptions } from './cosine-annealing-lr.js';
export { OneCycleLR, type OneCycleLROptions } from './one-cycle-lr.js';
export { ReduceLROnPlateau, type ReduceLROnPlateauOptions } from './reduce-lr-on-plateau.js';
