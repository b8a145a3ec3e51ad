// nn.ParameterDict: tensors by name, held as the module's own properties as PyTorch registers
// them (so parameters(), stateDict() under their keys, to() and copies see them as any layer's);
// a key that names another member of the module is refused, as PyTorch's "attribute already exists".
// Its keys are listed in insertion order, as Python's dict (JS would list integer-like own
// properties, '0', '1', first), so the order is kept in an array of keys; an object's keys are
// inserted sorted, as PyTorch's update sorts a plain dict's.
import { Tensor } from '../tensor.js';
import { noteReplacement } from '../jit/trace-record.js';
import { isOptions } from '../options.js';
import { Module, type Parameter } from './module.js';
import { asParameter } from './parameter-list.js';
import { describeValue } from '../distributed/describe-value.js';

/**
 * Parameters by name that belong to the model holding it (torch.nn.ParameterDict): get, set
 * (PyTorch's dict[key] = p), has, pop, keys, values, items, update, clear, size; iterating it gives
 * its keys, as in Python; `dict.key` reads one too. It has no forward.
 * @example const scales = new tpu.nn.ParameterDict({ a: tpu.ones([3]), b: tpu.zeros([2]) }); Object.keys(scales.stateDict()) // ['a', 'b']
 */
export class ParameterDict extends Module {
  private readonly keyOrder: string[] = [];

  /** From an object of tensors (inserted by sorted key, as PyTorch does a dict's) or [key, tensor] pairs (in their order). */
  constructor(values: Record<string, Tensor> | Iterable<readonly [string, Tensor]> = {}) {
    super();
    this.update(values);
  }

  get size(): number {
    return this.keyList().length;
  }

  private keyList(): string[] {
    // a tensor assigned as a property (dict.name = t) comes after the ones set through set()
    const assigned = Object.keys(this).filter((k) => this.has(k) && !this.keyOrder.includes(k));
    return [...this.keyOrder.filter((k) => this.has(k)), ...assigned];
  }

  /** Its parameters in insertion order (parameters(), namedParameters(), stateDict()). */
  protected override ownValues(): [string, Parameter][] {
    const own = super.ownValues();
    const rank = new Map(this.keyList().map((k, i) => [k, i]));
    // anything else the module holds (a DTensor once parallelized) after them, in property order
    const at = ([k]: [string, Parameter]) => rank.get(k) ?? rank.size;
    return own.sort((a, b) => at(a) - at(b));
  }

  get(key: string): Tensor | undefined {
    return this.has(key) ? (this as unknown as Record<string, Tensor>)[key] : undefined;
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this, key) && (this as unknown as Record<string, unknown>)[key] instanceof Tensor;
  }

  /** Adds or replaces the parameter under key (a computed tensor becomes a new leaf over its values, as nn.Parameter). */
  set(key: string, value: Tensor): this {
    if (typeof key !== 'string' || key === '' || key.includes('.')) {
      throw new TypeError(`nn.ParameterDict: a key must be a non-empty string without '.' (it names the parameter in stateDict()); got ${JSON.stringify(key)}`);
    }
    if (key in this && !this.has(key)) throw new TypeError(`nn.ParameterDict: key '${key}' names a member of the module (PyTorch: attribute '${key}' already exists); pick another key`);
    (this as unknown as Record<string, Tensor>)[key] = asParameter('nn.ParameterDict', value, `'${key}'`);
    if (!this.keyOrder.includes(key)) this.keyOrder.push(key);
    return this;
  }

  /** Removes key and returns its parameter (PyTorch's pop); a missing key is an error. */
  pop(key: string): Tensor {
    const p = this.get(key);
    if (p === undefined) throw new RangeError(`nn.ParameterDict.pop: no parameter '${key}'; keys: ${this.keyList().join(', ') || 'none'}`);
    delete (this as unknown as Record<string, Tensor>)[key];
    this.keyOrder.splice(this.keyOrder.indexOf(key), 1);
    noteReplacement(); // a tpu.compile trace may have captured it
    return p;
  }

  clear(): void {
    for (const k of this.keyList()) this.pop(k);
  }

  /** Adds or replaces parameters: an object of tensors, a ParameterDict or [key, tensor] pairs. */
  update(values: Record<string, Tensor> | Iterable<readonly [string, Tensor]>): this {
    const pairs = values instanceof ParameterDict ? values.items()
      // PyTorch's update sorts a plain dict's keys (an OrderedDict's and pairs' keep their order)
      : isOptions(values) ? Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        : values !== null && typeof values === 'object' && Symbol.iterator in values ? values : undefined;
    if (pairs === undefined) throw new TypeError(`nn.ParameterDict: values must be an object of tensors or [key, tensor] pairs; got ${describeValue(values)}`);
    for (const pair of pairs) {
      if (!Array.isArray(pair) || pair.length !== 2) throw new TypeError(`nn.ParameterDict: each pair must be [key, tensor]; got ${describeValue(pair)}`);
      this.set(pair[0] as string, pair[1] as Tensor);
    }
    return this;
  }

  keys(): IterableIterator<string> {
    return this.keyList().values();
  }

  values(): IterableIterator<Tensor> {
    return this.keyList().map((k) => this.get(k)!).values();
  }

  /** [key, parameter] pairs (PyTorch's items()). */
  items(): IterableIterator<[string, Tensor]> {
    return this.keyList().map((k): [string, Tensor] => [k, this.get(k)!]).values();
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.keys();
  }

  /** One line per parameter, as PyTorch's: `(a): Parameter containing: [float32 of size [3]]`. */
  protected override childLines(): string[] {
    return [...this.items()].map(([k, p]) => `(${k}): Parameter containing: [${p.dtype} of size [${p.shape.join(', ')}]]`);
  }

  forward(..._inputs: Tensor[]): Tensor {
    throw new TypeError("nn.ParameterDict: has no forward; use its parameters, e.g. x.mul(dict.get('scale')!)");
  }
}
