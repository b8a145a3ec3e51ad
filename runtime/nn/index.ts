// tpu.nn: modules, layers and losses.
export { Module, type StateDict, type LoadOptions } from './module.js';
export { Linear, type LinearOptions } from './linear.js';
export { Embedding } from './embedding.js';
export { LayerNorm, layerNorm, type LayerNormOptions } from './layer-norm.js';
export { Dropout, dropout } from './dropout.js';
export { ReLU, GELU, Tanh, gelu } from './activations.js';
export { Sequential } from './sequential.js';
export {
  crossEntropy, mseLoss, mseLoss as mse, binaryCrossEntropy, binaryCrossEntropyWithLogits, logSoftmax, oneHot,
  type LossOptions, type Reduction,
} from './functional.js';
