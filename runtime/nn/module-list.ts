// nn.ModuleList: modules held at the indices 0, 1, ... of the list itself, so list[i] reads one
// and parameters are named as PyTorch names them (0.weight, 1.bias; blocks.0.weight in a model).
import type { Tensor } from '../tensor.js';
import { indentAfterFirst, Module } from './module.js';
import { describeValue } from '../distributed/describe-value.js';
import { specialized } from '../jit/live-number.js';

function checkModule(who: string, m: unknown, where: string): Module {
  if (!(m instanceof Module)) throw new TypeError(`${who}: ${where} must be a Module; got ${describeValue(m)}`);
  return m;
}

/**
 * A list of modules whose parameters belong to the model that holds it (torch.nn.ModuleList):
 * `list[i]`, `list.length`, `for (const m of list)`, append, extend, insert. It has no forward.
 * Its modules are typed Module; `new tpu.nn.ModuleList<Linear>(...)` types them as one kind.
 * @example const blocks = new tpu.nn.ModuleList([new tpu.nn.Linear(4, 4), new tpu.nn.Linear(4, 4)]); Object.keys(blocks.stateDict()) // ['0.weight', '0.bias', '1.weight', '1.bias']
 */
export class ModuleList<M extends Module = Module> extends Module {
  [index: number]: M;

  constructor(modules: Iterable<NoInfer<M>> = []) {
    super();
    if (modules === null || typeof (modules as Partial<Iterable<M>>)[Symbol.iterator] !== 'function') {
      throw new TypeError(`nn.ModuleList: modules must be an array (an iterable) of modules; got ${describeValue(modules)}`);
    }
    this.extend(modules);
  }

  get length(): number {
    let n = 0;
    while (this[n] !== undefined) n++;
    return n;
  }

  *[Symbol.iterator](): Iterator<M> {
    for (let i = 0; i < this.length; i++) yield this[i]!;
  }

  /** Runs of equal children print once, as PyTorch's ModuleList: `(0-2): 3 x Linear(...)`. */
  protected override childLines(): string[] {
    const reprs = [...this].map(String);
    const lines: string[] = [];
    for (let start = 0, end = 0; start < reprs.length; start = ++end) {
      while (reprs[end + 1] === reprs[start]) end++;
      lines.push(indentAfterFirst(start === end ? `(${start}): ${reprs[start]}` : `(${start}-${end}): ${end - start + 1} x ${reprs[start]}`));
    }
    return lines;
  }

  /** The module at index i; a negative i counts from the end, as list[-1] in Python. */
  at(i: number): M | undefined {
    i = specialized(i);
    return this[i < 0 ? this.length + i : i];
  }

  append(module: M): this {
    this[this.length] = checkModule('nn.ModuleList.append', module, 'module') as M;
    return this;
  }

  extend(modules: Iterable<M>): this {
    let i = 0;
    for (const m of modules) this.append(checkModule('nn.ModuleList', m, `modules[${i++}]`) as M);
    return this;
  }

  /** Puts module before index (PyTorch's insert): the ones from there move up by one. */
  insert(index: number, module: M): this {
    checkModule('nn.ModuleList.insert', module, 'module');
    const n = this.length;
    index = specialized(index);
    if (!Number.isInteger(index)) throw new TypeError(`nn.ModuleList.insert: index must be an integer; got ${JSON.stringify(index)}`);
    const at = Math.min(Math.max(index < 0 ? n + index : index, 0), n);
    for (let i = n; i > at; i--) this[i] = this[i - 1]!;
    this[at] = module;
    return this;
  }

  forward(..._inputs: Tensor[]): Tensor {
    throw new TypeError('nn.ModuleList: has no forward; run its modules, e.g. for (const m of list) x = m.forward(x)');
  }
}
