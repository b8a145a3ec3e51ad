// The training surface of the `tpu` namespace: autograd, nn, optim, data loading, compile,
// save/load. Spread into `tpu` (runtime/tpu.ts).
import * as creation from './creation.js';
import { keep } from './scope.js';
import { enableGrad, grad, isGradEnabled, noGrad, setGradEnabled, valueAndGrad, withRequiresGrad } from './autograd/index.js';
import { autograd } from './autograd/grad-of-outputs.js';
import { compile } from './jit/compile.js';
import { spec } from './jit/spec.js';
import * as nnModules from './nn/index.js';
import * as nnUtils from './nn/utils/index.js';
import * as nnInit from './nn/init-functions.js';
import { nnFunctional } from './tpu-functions.js';
import { acceptingDTensors } from './distributed/dtensor-functions.js';
import * as optim from './optim/index.js';
import * as data from './utils/data/index.js';
import { load, save } from './serialize/save-load.js';

const { crossEntropy, nllLoss, mseLoss, l1Loss, smoothL1Loss, huberLoss, klDiv, cosineEmbeddingLoss, binaryCrossEntropy, binaryCrossEntropyWithLogits } = nnModules;
const losses = { crossEntropy, nllLoss, mseLoss, l1Loss, smoothL1Loss, huberLoss, klDiv, cosineEmbeddingLoss, binaryCrossEntropy, binaryCrossEntropyWithLogits };

export const training = {
  ...withRequiresGrad(creation),
  keep,
  noGrad,
  enableGrad,
  isGradEnabled,
  setGradEnabled,
  autograd,
  grad,
  valueAndGrad,
  compile,
  /** A placeholder argument for tpu.compile(fn).lower(...): shape and dtype, no memory. */
  spec,
  /** Modules and losses, plus torch.nn.functional's forms (the losses among them, F.cross_entropy) as tpu.nn.functional, torch.nn.utils' gradient clipping as tpu.nn.utils, torch.nn.init as tpu.nn.init. */
  nn: { ...nnModules, functional: acceptingDTensors('tpu.nn.functional', { ...nnFunctional, ...losses }), utils: { ...nnUtils }, init: { ...nnInit } },
  optim,
  utils: { data: { ...data } },
  save,
  load,
};
