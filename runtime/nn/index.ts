// tpu.nn: modules and losses (the functional forms are tpu.nn.functional, runtime/tpu-functions.ts;
// gradient clipping is tpu.nn.utils, runtime/nn/utils/).
export { Module, type StateDict, type LoadOptions, type IncompatibleKeys } from './module.js';
export { type ForwardHook, type ForwardPreHook, type HookOptions } from './forward-hooks.js';
export { Linear, type LinearOptions } from './linear.js';
export { Conv2d, type Conv2dOptions } from './conv2d.js';
export { Conv1d, type Conv1dOptions } from './conv1d.js';
export { ConvTranspose1d, ConvTranspose2d, type ConvTransposeLayerOptions } from './conv-transpose.js';
export { Unfold, Fold } from './fold-layers.js';
export { Embedding, type EmbeddingModuleOptions } from './embedding.js';
export { LayerNorm, type LayerNormOptions } from './layer-norm.js';
export { RMSNorm, type RMSNormOptions } from './rms-norm.js';
export { Dropout } from './dropout.js';
export { ReLU, GELU, Tanh, Sigmoid, SiLU, SELU, ReLU6, Hardsigmoid, Hardswish, LogSigmoid, Mish, Softsign, Tanhshrink } from './activations.js';
export { LeakyReLU, ELU, CELU, Hardtanh, Softplus } from './activations-with-options.js';
export { Hardshrink, Softshrink, Threshold } from './shrink-layers.js';
export { PReLU, type PReLUOptions } from './prelu-layer.js';
export { GLU } from './glu-layer.js';
export { Upsample } from './upsample.js';
export {
  ZeroPad1d, ZeroPad2d, ConstantPad1d, ConstantPad2d, ReflectionPad1d, ReflectionPad2d, ReplicationPad1d, ReplicationPad2d,
} from './padding-layers.js';
export { Softmax, LogSoftmax, Softmin } from './softmax-layers.js';
export { Flatten, Unflatten, Identity, type FlattenOptions, type UnflattenOptions } from './shape-layers.js';
export { MaxPool2d, AvgPool2d, type MaxPool2dOptions, type AvgPool2dOptions } from './pool-layers.js';
export { Sequential } from './sequential.js';
export { ModuleList } from './module-list.js';
export { ModuleDict } from './module-dict.js';
export { ParameterList } from './parameter-list.js';
export { ParameterDict } from './parameter-dict.js';
export {
  CrossEntropyLoss, NLLLoss, MSELoss, L1Loss, SmoothL1Loss, HuberLoss, BCELoss, BCEWithLogitsLoss, KLDivLoss, CosineEmbeddingLoss,
} from './loss-modules.js';
export { BatchNorm1d, BatchNorm2d, type BatchNormModuleOptions } from './batch-norm.js';
export { GroupNorm, type GroupNormOptions } from './group-norm.js';
export { AdaptiveAvgPool2d } from './adaptive-avg-pool-2d.js';
export { MaxPool1d, AvgPool1d } from './pooling-1d.js';
export {
  crossEntropy, nllLoss, mseLoss, mseLoss as mse, binaryCrossEntropy, binaryCrossEntropyWithLogits,
  type LossOptions, type NllLossOptions, type Reduction,
} from './losses.js';
export { l1Loss, smoothL1Loss, huberLoss, type SmoothL1LossOptions, type HuberLossOptions } from './distance-losses.js';
export { klDiv, type KlDivOptions } from './kl-div.js';
export { cosineEmbeddingLoss, type CosineEmbeddingLossOptions } from './cosine-embedding-loss.js';
export { DistributedDataParallel, type DDPOptions } from '../distributed/ddp.js';
export { fullyShard, FullyShardedModule, type FullyShardOptions } from '../distributed/fully-shard.js';
export { RNN, LSTM, GRU, type RNNOptions, type LSTMOptions, type GRUOptions } from './recurrent-layers.js';
export { RNNCell, LSTMCell, GRUCell, type CellOptions, type RNNCellOptions } from './recurrent-cells.js';
export { MultiheadAttention, type MultiheadAttentionLayerOptions, type MultiheadAttentionForwardOptions } from './multihead-attention.js';
export { TransformerEncoderLayer, type TransformerEncoderLayerRest, type EncoderLayerForwardOptions, type Activation } from './transformer-encoder-layer.js';
export { TransformerEncoder, type TransformerEncoderOptions, type EncoderForwardOptions } from './transformer-encoder.js';
