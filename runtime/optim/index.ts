// tpu.optim: SGD, Adam, AdamW.
export { Optimizer } from './optimizer.js';
export { SGD, type SGDOptions } from './sgd.js';
export { Adam, AdamW, type AdamOptions } from './adam.js';
