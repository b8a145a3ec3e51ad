// nn.ParameterList: tensors held at the indices 0, 1, ... of the list itself, so list[i] reads
// one, and parameters() and stateDict() name them '0', '1' (params.0 in a model), as PyTorch's.
import { Tensor } from '../tensor.js';
import { Module } from './module.js';
import { describeValue } from '../distributed/describe-value.js';

/**
 * A tensor made a parameter, as PyTorch's ParameterList wraps each value in nn.Parameter: a
 * leaf is set to require grad (the same tensor), a computed tensor becomes a new leaf over its values.
 */
export function asParameter(who: string, value: unknown, where: string): Tensor {
  if (!(value instanceof Tensor)) throw new TypeError(`${who}: ${where} must be a tensor; got ${describeValue(value)}`);
  if (value.isLeaf) return value.requiresGrad ? value : value.requiresGrad_();
  return value.detach().requiresGrad_();
}

/**
 * A list of parameters that belong to the model holding it (torch.nn.ParameterList):
 * `list[i]`, `list.length`, `for (const p of list)`, append, extend. It has no forward.
 * @example const scales = new tpu.nn.ParameterList([tpu.ones([3]), tpu.zeros([2])]); Object.keys(scales.stateDict()) // ['0', '1']
 */
export class ParameterList extends Module {
  [index: number]: Tensor;

  constructor(values: Iterable<Tensor> = []) {
    super();
    if (values === null || typeof (values as Partial<Iterable<Tensor>>)[Symbol.iterator] !== 'function') {
      throw new TypeError(`nn.ParameterList: values must be an array (an iterable) of tensors; got ${describeValue(values)}`);
    }
    let i = 0;
    for (const v of values) this[i] = asParameter('nn.ParameterList', v, `values[${i++}]`);
  }

  get length(): number {
    let n = 0;
    while (this[n] !== undefined) n++;
    return n;
  }

  *[Symbol.iterator](): Iterator<Tensor> {
    for (let i = 0; i < this.length; i++) yield this[i]!;
  }

  /** The parameter at index i; a negative i counts from the end, as list[-1] in Python. */
  at(i: number): Tensor | undefined {
    return this[i < 0 ? this.length + i : i];
  }

  append(value: Tensor): this {
    this[this.length] = asParameter('nn.ParameterList.append', value, 'value');
    return this;
  }

  extend(values: Iterable<Tensor>): this {
    let i = 0;
    for (const v of values) this.append(asParameter('nn.ParameterList.extend', v, `values[${i++}]`));
    return this;
  }

  /** One line per parameter, as PyTorch's: `(0): Parameter containing: [float32 of size [3]]`. */
  protected override childLines(): string[] {
    return [...this].map((p, i) => `(${i}): Parameter containing: [${p.dtype} of size [${p.shape.join(', ')}]]`);
  }

  forward(..._inputs: Tensor[]): Tensor {
    throw new TypeError('nn.ParameterList: has no forward; use its parameters, e.g. x.mul(list[0])');
  }
}
