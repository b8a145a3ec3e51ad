// A module's deep copy, as Python's copy.deepcopy of a torch.nn.Module (what TransformerEncoder
// does to its layer): new parameters and buffers of the same values, new submodules, the same
// class and settings. A module or tensor reached twice (a tied weight) is copied once and stays
// shared in the copy. Other values (numbers, strings, functions, options objects) are shared;
// JS #private fields are not own properties and are not copied.
import { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { materialize } from '../modes/materialize.js';
import { DTensor } from '../distributed/dtensor.js';
import { Module } from './module.js';
import { isParameter, markParameter } from './registered-parameters.js';

/**
 * A deep copy of module: parameters and buffers copied into new tensors (a parameter stays one,
 * frozen or not), submodules copied, the training flag kept.
 * @example const twin = copyModule(new tpu.nn.Linear(2, 2)); // its own weight and bias, of equal values
 */
export function copyModule<M extends Module>(module: M): M {
  return copyValue(module, new Map(), 'module') as M;
}

function copyValue(value: unknown, memo: Map<object, unknown>, name: string): unknown {
  if (value === null || typeof value !== 'object' && !(value instanceof Module)) return value;
  if (memo.has(value)) return memo.get(value);
  let copy: unknown;
  if (value instanceof Module) copy = copyModuleObject(value, memo, name);
  else if (value instanceof Tensor) copy = copyTensor(value, name);
  else if (value instanceof DTensor) throw new TypeError(`copyModule: ${name} is a DTensor (a parallelized module); copy the module before parallelizing it`);
  else if (Array.isArray(value)) copy = value.map((v, i) => copyValue(v, memo, `${name}.${i}`));
  else return value;
  memo.set(value, copy);
  return copy;
}

function copyModuleObject(source: Module, memo: Map<object, unknown>, name: string): Module {
  // Module's constructor alone, for the source's class: the callable proxy, with none of the subclass's fields yet
  const copy = Reflect.construct(Module as unknown as new () => Module, [], source.constructor) as Module;
  memo.set(source, copy);
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(source))) {
    if ('value' in descriptor) descriptor.value = copyValue(descriptor.value, memo, `${name}.${key}`);
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

function copyTensor(t: Tensor, name: string): Tensor {
  // PyTorch's deepcopy refuses a non-leaf too: a computed tensor is no module state
  if (!t.isLeaf) throw new TypeError(`copyModule: ${name} is a tensor computed from others (${t.describe()}); only parameters and buffers can be copied`);
  const copy = noGrad(() => t.detach().clone());
  materialize(copy, 'module copy');
  if (t.requiresGrad) copy.requiresGrad_();
  else if (isParameter(t)) markParameter(copy);
  return copy;
}
