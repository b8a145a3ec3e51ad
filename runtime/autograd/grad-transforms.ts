// JAX-style functional gradients: tpu.grad(fn) and tpu.valueAndGrad(fn) return functions.
// The differentiated arguments are fresh leaves, so no tensor's .grad is touched.
import { Tensor } from '../tensor.js';
import { scope } from '../scope.js';
import { gradients } from './backward.js';
import { setRequiresGrad } from './tensor-methods.js';
import { noGrad } from './grad-mode.js';
import { isPlainObject } from '../plain-object.js';

/** A tensor, or arrays / plain objects of tensors (like a JAX pytree, for parameters). */
export type TensorTree = Tensor | readonly TensorTree[] | { readonly [key: string]: TensorTree };

export interface GradOptions {
  /** Which arguments to differentiate with respect to (default 0). */
  argnums?: number | readonly number[];
}

function mapTree(tree: unknown, f: (t: Tensor) => Tensor, path: string, who: string): TensorTree {
  if (tree instanceof Tensor) return f(tree);
  if (Array.isArray(tree)) return tree.map((v, i) => mapTree(v, f, `${path}[${i}]`, who));
  if (isPlainObject(tree)) {
    return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, mapTree(v, f, `${path}.${k}`, who)]));
  }
  throw new TypeError(`${who}: argument ${path} must be a tensor, or an array or plain object of tensors; got ${tree === null ? 'null' : typeof tree}`);
}

function argnumList(opts: GradOptions | undefined, count: number, who: string): number[] {
  const a = opts?.argnums ?? 0;
  const list = typeof a === 'number' ? [a] : [...a];
  for (const i of list) {
    if (!Number.isInteger(i) || i < 0 || i >= count) {
      throw new RangeError(`${who}: argnums entry ${JSON.stringify(i)} is not an argument index (the call has ${count} arguments)`);
    }
  }
  return list;
}

/**
 * How many gradient transforms are running their fn. Gradients are computed outside autograd
 * (no graph of the backward pass), so one taken inside another's fn (grad of grad: a second
 * derivative, a gradient penalty) would reach the outer one as a constant: its part of the outer
 * gradient would be silently zero. That nesting is refused.
 */
let runningTransforms = 0;

function makeValueAndGrad<A extends unknown[]>(fn: (...args: A) => Tensor, opts: GradOptions | undefined, who: string) {
  if (typeof fn !== 'function') throw new TypeError(`${who}: fn must be a function; got ${typeof fn}`);
  return (...args: A): [Tensor, TensorTree | TensorTree[]] => {
    if (runningTransforms > 0) {
      throw new Error(`${who}: a gradient inside the function of tpu.grad or tpu.valueAndGrad (a second derivative) is not supported: `
        + 'the inner gradient is computed outside autograd, so the outer gradient would miss its part');
    }
    const nums = argnumList(opts, args.length, who);
    // A flat list out of the scope (the value, then one gradient per leaf), so the scope
    // frees every intermediate and hands these to the caller's scope.
    const flat = scope(() => {
      const leaves: Tensor[] = [];
      const inputs = [...args] as unknown[];
      for (const i of nums) {
        inputs[i] = mapTree(args[i], (t) => {
          const leaf = setRequiresGrad(t.detach(), true, who);
          leaves.push(leaf);
          return leaf;
        }, `${i}`, who);
      }
      runningTransforms++;
      let value: Tensor;
      try {
        value = fn(...(inputs as A));
      } finally {
        runningTransforms--;
      }
      if (!(value instanceof Tensor)) throw new TypeError(`${who}: fn must return a tensor; got ${typeof value}`);
      if (value.numel() !== 1) throw new RangeError(`${who}: fn must return a one-element tensor (a loss); got shape [${value.shape.join(', ')}]`);
      const grads = value.requiresGrad ? gradients(value, undefined, who, {}, new Set(leaves)) : new Map<Tensor, Tensor>();
      // A leaf the value does not depend on gets a zero gradient, as in JAX.
      const gradOf = (leaf: Tensor) => grads.get(leaf) ?? noGrad(() => leaf.mul(0));
      return [value.detach(), ...leaves.map(gradOf)];
    });
    let k = 1;
    const out = nums.map((i) => mapTree(args[i], () => flat[k++]!, `${i}`, who));
    return [flat[0]!, typeof opts?.argnums === 'object' ? out : out[0]!];
  };
}

/**
 * tpu.grad(fn)(...args): the gradient of a scalar-valued fn with respect to args[argnums] (torch.func.grad).
 * @example const df = tpu.grad((w: Tensor) => w.square().sum()); df(w)
 */
export function grad<A extends unknown[]>(fn: (...args: A) => Tensor, opts?: GradOptions) {
  const vg = makeValueAndGrad(fn, opts, 'tpu.grad');
  return (...args: A) => vg(...args)[1];
}

/**
 * tpu.valueAndGrad(fn)(...args): [fn(...args), its gradient], computed in one pass (torch.func.grad_and_value).
 * @example const [loss, g] = tpu.valueAndGrad(lossFn)(w)
 */
export function valueAndGrad<A extends unknown[]>(fn: (...args: A) => Tensor, opts?: GradOptions) {
  return makeValueAndGrad(fn, opts, 'tpu.valueAndGrad');
}
