// tpu.autograd.grad: the gradients of outputs with respect to inputs, returned, not added to
// any tensor's .grad (torch.autograd.grad).
import { freshen, Tensor } from '../tensor.js';
import { readOptions } from '../options.js';
import { zerosLike } from '../ops/like.js';
import { describeValue } from '../distributed/describe-value.js';
import { beginCallSite, endCallSite } from '../call-site.js';
import { gradients, refuseCreateGraph } from './backward.js';
import { noGrad } from './grad-mode.js';

export interface AutogradGradOptions {
  /** The gradient of each output (torch's grad_outputs): needed for an output of more than one element; null for a one-element one. */
  gradOutputs?: Tensor | readonly (Tensor | null)[] | null;
  /** Keep the graph for another backward through it (default false: it is freed). */
  retainGraph?: boolean;
  /** A graph of the gradients for second derivatives: not supported, true is an error. */
  createGraph?: boolean;
  /** An input the outputs do not depend on gets null instead of an error. */
  allowUnused?: boolean;
  /** An input the outputs do not depend on gets zeros (allowUnused implied). */
  materializeGrads?: boolean;
}

const WHO = 'tpu.autograd.grad';

export function tensorList(value: unknown, name: string, who = WHO): Tensor[] {
  const list = value instanceof Tensor ? [value] : Array.isArray(value) ? value : null;
  if (list === null) throw new TypeError(`${who}: ${name} must be a tensor or an array of tensors; got ${describeValue(value)}`);
  list.forEach((t, i) => {
    if (!(t instanceof Tensor)) throw new TypeError(`${who}: ${name}[${i}] must be a tensor; got ${describeValue(t)}`);
  });
  return list as Tensor[];
}

/** One seed per output: gradOutputs as a tensor (one output) or an array as long as outputs. */
function seedList(gradOutputs: AutogradGradOptions['gradOutputs'], count: number): (Tensor | undefined)[] {
  if (gradOutputs === undefined || gradOutputs === null) return new Array<undefined>(count).fill(undefined);
  const list = gradOutputs instanceof Tensor ? [gradOutputs] : gradOutputs;
  if (!Array.isArray(list) || list.length !== count) {
    throw new RangeError(`${WHO}: gradOutputs must hold one gradient (or null) per output: ${count}; got ${describeValue(gradOutputs)}`);
  }
  return list.map((g) => g ?? undefined);
}

/**
 * The gradients of `outputs` (summed over them) with respect to each of `inputs`, in an array
 * (torch.autograd.grad); no tensor's .grad changes. An output of more than one element needs
 * its gradient in `gradOutputs`. Inputs may be intermediate values, not only leaves.
 * @example
 * const p = tpu.tensor([1, 2], { requiresGrad: true });
 * tpu.autograd.grad(p.square().sum(), [p])[0] // [2, 4]
 */
export function gradOf(outputs: Tensor | readonly Tensor[], inputs: Tensor | readonly Tensor[], options?: AutogradGradOptions): (Tensor | null)[] {
  const began = beginCallSite(gradOf);
  try {
    const o = readOptions<AutogradGradOptions>(WHO, options, ['gradOutputs', 'retainGraph', 'createGraph', 'allowUnused', 'materializeGrads']);
    refuseCreateGraph(WHO, o.createGraph);
    const outs = tensorList(outputs, 'outputs');
    const ins = tensorList(inputs, 'inputs');
    if (outs.length === 0) throw new RangeError(`${WHO}: outputs must hold at least one tensor`);
    ins.forEach((t, i) => {
      if (!t.requiresGrad) throw new Error(`${WHO}: inputs[${i}] (${t.describe()}) does not require grad, so it has no gradient`);
    });
    const seeds = seedList(o.gradOutputs, outs.length);
    const wanted = new Set(ins);
    // One backward pass per output, the graph kept for the next; the gradients summed.
    const sums = new Map<Tensor, Tensor>();
    outs.forEach((out, k) => {
      freshen(out);
      const last = k === outs.length - 1;
      const grads = gradients(out, seeds[k], `${WHO}: outputs[${k}]`, { retainGraph: !last || o.retainGraph }, wanted);
      for (const [t, given] of grads) {
        // the caller's own gradOutputs tensor (an input that is an output) is not handed back
        const g = given === seeds[k] ? noGrad(() => given.clone()) : given;
        const before = sums.get(t);
        if (!before) {
          sums.set(t, g);
          continue;
        }
        sums.set(t, noGrad(() => before.add(g)));
        before.dispose();
        g.dispose();
      }
    });
    return ins.map((t, i) => {
      const g = sums.get(t);
      if (g) return g;
      if (o.materializeGrads) return zerosLike(t);
      if (o.allowUnused) return null;
      throw new Error(`${WHO}: inputs[${i}] (${t.describe()}) was not used to compute the outputs; pass { allowUnused: true } to get null for it (or { materializeGrads: true } for zeros)`);
    });
  } finally {
    endCallSite(began);
  }
}

/** torch.autograd's functions. */
export const autograd = {
  /**
   * The gradients of outputs with respect to inputs, in an array; no .grad changes (torch.autograd.grad).
   * @example const v = tpu.tensor([3], { requiresGrad: true }); tpu.autograd.grad(v.square().sum(), [v])[0] // [6]
   */
  grad: gradOf,
};
