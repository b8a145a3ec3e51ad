// nn.Module: parameters are the tensor properties that require grad, buffers the other
// tensor properties, submodules the Module properties (and arrays of them), all found by
// walking own properties in declaration order, as PyTorch's __setattr__ registration does.
import { readOptions } from '../options.js';
import { formatShape, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { noteReplacement } from '../jit/trace-record.js';

export type StateDict = Record<string, Tensor>;

export interface LoadOptions {
  /** Every key must match both ways (default true). */
  strict?: boolean;
}

/**
 * Base of the layers (torch.nn.Module): forward(), parameters(), stateDict(), train()/eval().
 * @example class Net extends tpu.nn.Module { fc = new tpu.nn.Linear(4, 2); forward(x: Tensor) { return this.fc.forward(x); } }
 */
export abstract class Module {
  /** train() / eval(): Dropout and friends look at it. */
  training = true;

  constructor() {
    // Seen through a proxy that counts replacements (tpu.compile traces again after one).
    return new Proxy(this, replacementWatch);
  }

  abstract forward(...inputs: Tensor[]): Tensor;

  /** Submodules by name (arrays of modules are named name.0, name.1, ...). */
  namedChildren(): [string, Module][] {
    const out: [string, Module][] = [];
    for (const [k, v] of Object.entries(this)) {
      if (v instanceof Module) out.push([k, v]);
      else if (Array.isArray(v)) v.forEach((m, i) => m instanceof Module && out.push([`${k}.${i}`, m]));
    }
    return out;
  }

  /** Own tensors: [name, tensor] in declaration order. */
  private ownTensors(): [string, Tensor][] {
    return Object.entries(this).filter((e): e is [string, Tensor] => e[1] instanceof Tensor);
  }

  /** Every tensor of this module and its submodules with its dotted name. */
  namedTensors(prefix = ''): [string, Tensor][] {
    const own = this.ownTensors().map(([k, t]) => [prefix + k, t] as [string, Tensor]);
    return own.concat(...this.namedChildren().map(([k, m]) => m.namedTensors(`${prefix}${k}.`)));
  }

  namedParameters(): [string, Tensor][] {
    return this.namedTensors().filter(([, t]) => t.requiresGrad);
  }

  parameters(): Tensor[] {
    return this.namedParameters().map(([, t]) => t);
  }

  train(on = true): this {
    if (typeof on !== 'boolean') throw new TypeError(`train: mode must be a boolean; got ${JSON.stringify(on)}`);
    this.training = on;
    for (const [, m] of this.namedChildren()) m.train(on);
    return this;
  }

  eval(): this {
    return this.train(false);
  }

  /** Sets every parameter's .grad to null (disposing the old gradients). */
  zeroGrad(): void {
    for (const p of this.parameters()) {
      p.grad?.dispose();
      p.grad = null;
    }
  }

  /** Parameters and buffers by dotted name (the tensors themselves, not copies). */
  stateDict(): StateDict {
    return Object.fromEntries(this.namedTensors());
  }

  /** Copies values in place (optimizers keep working); shapes must match. */
  loadStateDict(state: StateDict, options: LoadOptions = {}): void {
    const mine = new Map(this.namedTensors());
    checkStateDict(mine, state, options);
    noGrad(() => {
      for (const [k, target] of mine) if (state[k] !== undefined) target.copy_(state[k]!);
    });
  }

  toString(): string {
    const kids = this.namedChildren().map(([k, m]) => `  (${k}): ${m.toString().replace(/\n/g, '\n  ')}`);
    const name = this.constructor.name;
    return kids.length ? `${name}(\n${kids.join('\n')}\n)` : `${name}(${this.extraRepr()})`;
  }

  protected extraRepr(): string {
    return '';
  }
}

/** A property that a tpu.compile trace may have captured changes: a tensor, a submodule, the training flag. */
function replaces(target: Module, key: string | symbol, value: unknown): boolean {
  const old: unknown = Reflect.get(target, key);
  return old !== value && (old instanceof Tensor || old instanceof Module || (key === 'training' && old !== undefined));
}

const replacementWatch: ProxyHandler<Module> = {
  set(target, key, value) {
    if (replaces(target, key, value)) noteReplacement();
    return Reflect.set(target, key, value);
  },
  defineProperty(target, key, descriptor) {
    if ('value' in descriptor && replaces(target, key, descriptor.value)) noteReplacement();
    return Reflect.defineProperty(target, key, descriptor);
  },
};

/** loadStateDict's checks of `state` against a module's named tensors: keys (both ways when strict), tensors, shapes. */
export function checkStateDict(mine: ReadonlyMap<string, Tensor>, state: StateDict, options: LoadOptions): void {
  readOptions<LoadOptions>('loadStateDict', options, ['strict']);
  if (state === null || typeof state !== 'object') throw new TypeError(`loadStateDict: state must be an object of tensors; got ${state === null ? 'null' : typeof state}`);
  const strict = options.strict ?? true;
  const missing = [...mine.keys()].filter((k) => !(k in state));
  const unexpected = Object.keys(state).filter((k) => !mine.has(k));
  if (strict && (missing.length || unexpected.length)) {
    throw new Error(
      `loadStateDict: keys do not match` +
        (missing.length ? `; missing: ${missing.join(', ')}` : '') +
        (unexpected.length ? `; unexpected: ${unexpected.join(', ')}` : ''),
    );
  }
  for (const [k, target] of mine) {
    const v = state[k];
    if (v === undefined) continue;
    if (!(v instanceof Tensor)) throw new TypeError(`loadStateDict: '${k}' must be a tensor; got ${typeof v}`);
    if (!shapesEqual(v.shape, target.shape)) {
      throw new RangeError(`loadStateDict: '${k}' has shape ${formatShape(v.shape)} in the state, ${formatShape(target.shape)} in the module`);
    }
  }
}
