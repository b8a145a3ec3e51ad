// What a module's constructor hands out: a proxy over the module object that
// - is callable, `model(x)` running model.forward(x) as PyTorch's Module.__call__ does (a cell
//   whose operators are dispatched at run time has no type to rewrite the call from, and
//   `this.fc1(x)` inside a forward is the same habit); its target is therefore a function,
//   and every other operation is forwarded to the module object;
// - tells tpu.compile when a property it may have captured is replaced (`isReplacement`);
// - shows every assigned value to `onAssign` (registered-parameters.ts);
// - reads `model[-1]` from the end, as Python's indexing;
// - hands out forward wrapped by the module's forward hooks, when it has any (forward-hooks.ts).
import { inspect } from 'node:util';
import { hookedForward } from './forward-hooks.js';

interface Forwarding {
  forward(...inputs: unknown[]): unknown;
}

/**
 * `model[-1]` of a module with a length (Sequential, ModuleList): the index counted from the
 * end, as Python's; any other key as it is.
 */
function fromEnd(module: object, key: string | symbol): string | symbol {
  if (typeof key !== 'string' || key.charCodeAt(0) !== 45 /* - */ || !/^-[1-9]\d*$/.test(key)) return key;
  const length: unknown = Reflect.get(module, 'length');
  return typeof length === 'number' && length + Number(key) >= 0 ? String(length + Number(key)) : key;
}

export function moduleProxy<M extends Forwarding>(module: M, isReplacement: (module: M, key: string | symbol, value: unknown) => boolean, noteReplacement: () => void, onAssign: (value: unknown) => void): M {
  // an arrow function: no own `prototype` (a non-configurable key the module does not have)
  const call = (...inputs: unknown[]): unknown => proxy.forward(...inputs);
  // util.inspect shows a proxy's target, not through its traps: the module as an object, as before it was callable
  Object.defineProperty(call, inspect.custom, { value: (depth: number, options: object) => inspect(module, { ...options, depth }), configurable: true });
  const proxy: M = new Proxy(call as unknown as M, {
    apply: (_target, _this, inputs: unknown[]) => proxy.forward(...inputs),
    get: (_target, key) => {
      const value: unknown = Reflect.get(module, fromEnd(module, key), proxy);
      return key === 'forward' ? hookedForward(proxy, value) : value;
    },
    set(_target, key, value) {
      onAssign(value);
      if (isReplacement(module, key, value)) noteReplacement();
      return Reflect.set(module, key, value);
    },
    defineProperty(_target, key, descriptor) {
      if ('value' in descriptor) onAssign(descriptor.value);
      if ('value' in descriptor && isReplacement(module, key, descriptor.value)) noteReplacement();
      return Reflect.defineProperty(module, key, descriptor);
    },
    has: (_target, key) => Reflect.has(module, key),
    deleteProperty: (_target, key) => Reflect.deleteProperty(module, key),
    ownKeys: () => Reflect.ownKeys(module),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(module, key),
    getPrototypeOf: () => Reflect.getPrototypeOf(module),
    setPrototypeOf: (_target, prototype) => Reflect.setPrototypeOf(module, prototype),
  });
  return proxy;
}
