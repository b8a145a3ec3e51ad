// nn.ModuleDict: modules by name, in insertion order; parameters are named name.weight, as
// PyTorch names them. The names and modules are two own arrays, not properties: a name may be any
// string without a dot ('forward' and 'train' too), as in PyTorch, and a data-parallel replica
// (distributed/replicas.ts copies own properties, arrays of modules mapped) gets its own modules.
import type { Tensor } from '../tensor.js';
import { noteReplacement } from '../jit/trace-record.js';
import { isOptions } from '../options.js';
import { Module } from './module.js';
import { describeValue } from '../distributed/describe-value.js';

/**
 * Modules by name whose parameters belong to the model that holds it (torch.nn.ModuleDict):
 * get, set (PyTorch's dict[key] = m), has, pop, keys, values, items, update, clear, size; iterating
 * it gives its keys, as in Python. It has no forward. Its modules are typed Module;
 * `new tpu.nn.ModuleDict<Linear>(...)` types them as one kind.
 * @example const heads = new tpu.nn.ModuleDict({ cls: new tpu.nn.Linear(4, 3) }); Object.keys(heads.stateDict()) // ['cls.weight', 'cls.bias']
 */
export class ModuleDict<M extends Module = Module> extends Module {
  private readonly names: string[] = [];
  private readonly held: M[] = [];

  /** From an object of modules or [key, module] pairs. */
  constructor(modules: Record<string, NoInfer<M>> | Iterable<readonly [string, NoInfer<M>]> = {}) {
    super();
    this.update(modules);
  }

  override namedChildren(): [string, Module][] {
    return this.names.map((k, i) => [k, this.held[i]!]);
  }

  get size(): number {
    return this.names.length;
  }

  get(key: string): M | undefined {
    const i = this.names.indexOf(key);
    return i < 0 ? undefined : this.held[i];
  }

  has(key: string): boolean {
    return this.names.includes(key);
  }

  set(key: string, module: M): this {
    if (typeof key !== 'string' || key === '' || key.includes('.')) {
      throw new TypeError(`nn.ModuleDict: a key must be a non-empty string without '.' (it names the parameters, key.weight); got ${JSON.stringify(key)}`);
    }
    if (!(module instanceof Module)) throw new TypeError(`nn.ModuleDict: '${key}' must be a Module; got ${describeValue(module)}`);
    const i = this.names.indexOf(key);
    if (i < 0) {
      this.names.push(key);
      this.held.push(module);
    } else if (this.held[i] !== module) {
      noteReplacement(); // a tpu.compile trace may have captured the module it replaces
      this.held[i] = module;
    }
    return this;
  }

  /** Removes key and returns its module (PyTorch's pop); a missing key is an error. */
  pop(key: string): M {
    const i = this.names.indexOf(key);
    if (i < 0) throw new RangeError(`nn.ModuleDict.pop: no module '${key}'; keys: ${this.names.join(', ') || 'none'}`);
    this.names.splice(i, 1);
    noteReplacement();
    return this.held.splice(i, 1)[0]!;
  }

  clear(): void {
    if (this.names.length > 0) noteReplacement();
    this.names.length = 0;
    this.held.length = 0;
  }

  /** Adds or replaces modules: an object of them, a ModuleDict or [key, module] pairs. */
  update(modules: Record<string, M> | Iterable<readonly [string, M]>): this {
    const pairs = modules instanceof ModuleDict ? modules.items()
      : isOptions(modules) ? Object.entries(modules)
        : modules !== null && typeof modules === 'object' && Symbol.iterator in modules ? modules : undefined;
    if (pairs === undefined) throw new TypeError(`nn.ModuleDict: modules must be an object of modules or [key, module] pairs; got ${describeValue(modules)}`);
    for (const pair of pairs) {
      if (!Array.isArray(pair) || pair.length !== 2) throw new TypeError(`nn.ModuleDict: each pair must be [key, module]; got ${typeof pair}`);
      this.set(pair[0] as string, pair[1] as M);
    }
    return this;
  }

  keys(): IterableIterator<string> {
    return this.names.values();
  }

  values(): IterableIterator<M> {
    return this.held.values();
  }

  /** [key, module] pairs (PyTorch's items()). */
  items(): IterableIterator<[string, M]> {
    return this.names.map((k, i): [string, M] => [k, this.held[i]!]).values();
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.keys();
  }

  forward(..._inputs: Tensor[]): Tensor {
    throw new TypeError("nn.ModuleDict: has no forward; run its modules, e.g. dict.get('head')!.forward(x)");
  }
}
