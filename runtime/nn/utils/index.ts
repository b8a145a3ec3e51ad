// tpu.nn.utils: torch.nn.utils' gradient clipping, over plain, DDP, fullyShard and DTensor parameters.
export { clipGradNorm_, type ClipGradNormOptions, type NormType } from './clip-grad-norm.js';
export { clipGradValue_ } from './clip-grad-value.js';
export type { Parameters } from './parameters-with-grads.js';
