// PyTorch's snake_case names on tpu's objects: `x.masked_fill(...)`, `if (x.requires_grad)`,
// `model.state_dict()`, `opt.zero_grad()`, `dt.full_tensor()`. JavaScript reads an unknown
// property as undefined, so such a read was silently false (or "not a function" when called). For each camelCase
// member of a class, its snake_case name is a property of the prototype that throws, naming the
// member to use. Loaded last (runtime/index.ts), when every method is installed.
import { Tensor } from './tensor.js';
import { Module } from './nn/module.js';
import { Optimizer } from './optim/optimizer.js';
import { DTensor } from './distributed/dtensor.js';

/** maskedFill -> masked_fill, requiresGrad_ -> requires_grad_. */
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A camelCase name PyTorch spells in snake_case: starts with two lowercase letters, no two capitals in a row (not mT, toJSON). */
const hasSnakeForm = (name: string): boolean => /^[a-z]{2}[a-zA-Z0-9_]*[A-Z]/.test(name) && !/[A-Z]{2}/.test(name);

function installHints(proto: object, owner: string, fields: readonly string[]): void {
  for (const camel of [...Object.getOwnPropertyNames(proto), ...fields].filter(hasSnakeForm)) {
    const snake = snakeCase(camel);
    if (snake in proto) continue;
    const hint = (): TypeError => new TypeError(`${owner}.${snake}: PyTorch's ${snake} is ${owner}.${camel} here (tpu's names are camelCase)`);
    Object.defineProperty(proto, snake, {
      get: () => {
        throw hint();
      },
      set: () => {
        throw hint();
      },
      configurable: true,
    });
  }
}

installHints(Tensor.prototype, 'x', ['requiresGrad']);
installHints(Module.prototype, 'model', []);
installHints(Optimizer.prototype, 'opt', ['stepCount']);
installHints(DTensor.prototype, 'dt', []);
