// The training surface of the `tpu` namespace (issue 7): autograd, nn, optim, compile,
// save/load. Spread into `tpu` (runtime/tpu.ts).
import * as creation from './creation.js';
import { keep } from './scope.js';
import { grad, noGrad, valueAndGrad, withRequiresGrad } from './autograd/index.js';
import { compile } from './compile/compile.js';
import * as nn from './nn/index.js';
import * as optim from './optim/index.js';

export const training = {
  ...withRequiresGrad(creation),
  keep,
  noGrad,
  grad,
  valueAndGrad,
  compile,
  nn,
  optim,
};
