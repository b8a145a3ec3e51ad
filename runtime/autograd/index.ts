// Autograd: importing this module installs the tape hook and the Tensor methods.
import './tape.js';
import './tensor-methods.js';
import './tensor-hooks.js';
export { noGrad, enableGrad, gradEnabled, isGradEnabled, setGradEnabled } from './grad-mode.js';
export { grad, valueAndGrad, type GradOptions, type TensorTree } from './grad-transforms.js';
export { type BackwardOptions } from './backward.js';
export { type GradHook } from './tensor-hooks.js';
export { type RemovableHandle } from '../removable-handle.js';
export { setRequiresGrad } from './tensor-methods.js';
export { withRequiresGrad } from './creation.js';
