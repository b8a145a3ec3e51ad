// tpu.optim: SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam (with param groups), LBFGS, and lrScheduler.
import * as schedulers from './lr-scheduler/index.js';

export { Optimizer, type ParamGroup, type ParamGroupOptions, type Hyperparameters } from './optimizer.js';
export { SGD, type SGDOptions, type SGDHyperparameters } from './sgd.js';
export { Adam, AdamW, type AdamOptions, type AdamHyperparameters } from './adam.js';
export { RMSprop, type RMSpropOptions, type RMSpropHyperparameters } from './rmsprop.js';
export { Adagrad, type AdagradOptions, type AdagradHyperparameters } from './adagrad.js';
export { Adadelta, type AdadeltaOptions, type AdadeltaHyperparameters } from './adadelta.js';
export { Adamax, type AdamaxOptions, type AdamaxHyperparameters } from './adamax.js';
export { NAdam, type NAdamOptions, type NAdamHyperparameters } from './nadam.js';
export { RAdam, type RAdamOptions, type RAdamHyperparameters } from './radam.js';
export { LBFGS, type LBFGSOptions, type LBFGSHyperparameters, type LossClosure } from './lbfgs.js';
/**
 * Learning-rate schedulers (torch.optim.lr_scheduler): StepLR, MultiStepLR, ExponentialLR,
 * CosineAnnealingLR, CosineAnnealingWarmRestarts, LambdaLR, MultiplicativeLR, LinearLR, ConstantLR,
 * PolynomialLR, OneCycleLR, ReduceLROnPlateau, CyclicLR, SequentialLR, ChainedScheduler.
 */
export const lrScheduler = schedulers;
