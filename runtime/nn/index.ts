// tpu.nn: modules and losses (the functional forms are tpu.nn.functional, runtime/tpu-functions.ts;
// gradient clipping is tpu.nn.utils, runtime/nn/utils/).
export { Module, type StateDict, type LoadOptions } from './module.js';
export { Linear, type LinearOptions } from './linear.js';
export { Conv2d, type Conv2dOptions } from './conv2d.js';
export { Embedding } from './embedding.js';
export { LayerNorm, type LayerNormOptions } from './layer-norm.js';
export { Dropout } from './dropout.js';
export { ReLU, GELU, Tanh } from './activations.js';
export { Sequential } from './sequential.js';
/** torch.nn.init: in-place initializers (xavierUniform_, kaimingNormal_, normal_, zeros_, ...). */
export * as init from './init-functions.js';
export {
  crossEntropy, nllLoss, mseLoss, mseLoss as mse, binaryCrossEntropy, binaryCrossEntropyWithLogits,
  type LossOptions, type NllLossOptions, type Reduction,
} from './losses.js';
export { l1Loss, smoothL1Loss, huberLoss, type SmoothL1LossOptions, type HuberLossOptions } from './distance-losses.js';
export { klDiv, type KlDivOptions } from './kl-div.js';
export { cosineEmbeddingLoss, type CosineEmbeddingLossOptions } from './cosine-embedding-loss.js';
export { DistributedDataParallel, type DDPOptions } from '../distributed/ddp.js';
export { fullyShard, FullyShardedModule, type FullyShardOptions } from '../distributed/fully-shard.js';
