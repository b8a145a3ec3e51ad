// The autograd surface of Tensor: requiresGrad_(), backward(), detach(), isLeaf.
import { isFloating } from '../dtype.js';
import { keep } from '../scope.js';
import { freshen, Tensor } from '../tensor.js';
import { gradients, refuseCreateGraph, type BackwardOptions } from './backward.js';
import { runGradReducers } from './grad-reducers.js';
import { tensorList } from './grad-of-outputs.js';
import { noGrad } from './grad-mode.js';
import { startsRequiringGrad } from './grad-clock.js';
import { recordDetach } from './past-values.js';
import { beginCallSite, endCallSite } from '../call-site.js';
import { installGetters, installMethods } from '../install-methods.js';
import { gradLayout } from '../views/result-layout.js';
import { noteFreshGrad } from '../jit/trace-record.js';
import { isOptions, readOptions } from '../options.js';

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Marks a leaf as needing gradients (floating dtypes only); returns this.
     * @example tpu.zeros([2]).requiresGrad_().requiresGrad // true
     */
    requiresGrad_(on?: boolean): Tensor;
    /**
     * Accumulates d(this)/d(leaf) into leaf.grad for every leaf that requires grad.
     * `gradient` is required unless this has one element.
      * @example
      * const p = tpu.tensor([1, 2], { requiresGrad: true });
      * p.square().sum().backward();
      * p.grad // [2, 4]
     */
    backward(gradient?: Tensor, options?: BackwardOptions): void;
    /** PyTorch's keyword form: `y.backward({ retainGraph: true })`, `y.backward({ gradient: g })`. */
    backward(options: BackwardOptions & { gradient?: Tensor }): void;
    /**
     * The same value, cut from the graph (requiresGrad false).
     * @example tpu.ones([2], { requiresGrad: true }).mul(2).detach().requiresGrad // false
     */
    detach(): Tensor;
    /**
     * Cuts this tensor from the graph in place (requiresGrad false, a leaf); returns this, as
     * PyTorch's detach_(). Views refuse it, as in PyTorch (use detach()).
     * @example const h = tpu.ones([2], { requiresGrad: true }).mul(2); h.detach_().requiresGrad // false
     */
    detach_(): Tensor;
    /** True for tensors not computed from a tensor requiring grad. */
    readonly isLeaf: boolean;
    /**
     * Makes backward() keep this non-leaf's gradient in .grad, adding up as a leaf's (a leaf's
     * is kept anyway), as PyTorch's retain_grad().
     * @example const h = w.mul(3); h.retainGrad(); h.sum().backward(); h.grad // ones of w's shape
     */
    retainGrad(): void;
    /** True for a non-leaf given retainGrad(), as PyTorch's retains_grad. */
    readonly retainsGrad: boolean;
  }
}

export function setRequiresGrad(t: Tensor, on: boolean, who: string): Tensor {
  if (typeof on !== 'boolean') throw new TypeError(`${who}: requiresGrad must be a boolean; got ${JSON.stringify(on)}`);
  if (on && !isFloating(t.dtype)) {
    throw new TypeError(`${who}: only floating point tensors (float32, bfloat16) can require gradients; got ${t.dtype}`);
  }
  if (!on && t._gradNode) {
    throw new Error(`${who}: requiresGrad can be turned off only on a leaf; this tensor was computed from tensors requiring grad (use .detach())`);
  }
  if (on && !t.requiresGrad) startsRequiringGrad(t);
  t.requiresGrad = on;
  return t;
}

/** root.backward(): adds d(root)/d(leaf) to each leaf's .grad. */
function accumulateGradients(root: Tensor, gradient: Tensor | undefined, options: BackwardOptions): void {
  const grads = gradients(root, gradient, 'backward', options, options.inputs === undefined ? undefined : backwardInputs(options.inputs));
  noGrad(() => runGradReducers(grads));
  for (const [leaf, g] of grads) {
    // Like PyTorch: gradients add up across backward calls until zeroGrad().
    const before = leaf._grad;
    if (!before || before.disposed) {
      // a copy of the caller's own gradient tensor (with its strides), as PyTorch's: the
      // next backward adds into .grad in place and must not change the caller's tensor
      leaf.grad = keep(g === gradient ? noGrad(() => g.clone()) : gradLayout(leaf, g));
      noteFreshGrad(leaf);
      continue;
    }
    // In place, as PyTorch's AccumulateGrad: `const g = p.grad` held across backward calls
    // sees the sum (zeroGrad() sets .grad to null: autograd/release-grad.ts).
    noGrad(() => before.add_(g));
    if (g !== gradient) g.dispose();
  }
}

/** backward's inputs: tensors that require grad, at least one (PyTorch's checks). */
function backwardInputs(inputs: unknown): Set<Tensor> {
  const list = tensorList(inputs, 'inputs', 'backward');
  if (list.length === 0) throw new RangeError('backward: inputs must hold at least one tensor (leave it out for every leaf)');
  list.forEach((t, i) => {
    if (!t.requiresGrad) throw new Error(`backward: inputs[${i}] (${t.describe()}) does not require grad, so it has no gradient`);
  });
  return new Set(list);
}

installMethods({
  requiresGrad_(on = true) {
    return setRequiresGrad(this, on, 'requiresGrad_');
  },
  // Every op of the backward pass is attributed to the line that called backward().
  backward: function backward(gradient?: unknown, options?: BackwardOptions) {
    // begin/end, not withCallSite's closure per call (call-site.ts)
    const began = beginCallSite(backward);
    try {
      freshen(this); // a view whose base was written since: its graph node is the new value's
      let g: Tensor | undefined;
      let o: BackwardOptions;
      if (isOptions(gradient)) {
        if (options !== undefined) throw new TypeError('backward: give the options once: backward({ gradient, retainGraph }) or backward(gradient, { retainGraph })');
        ({ gradient: g, ...o } = readOptions<BackwardOptions & { gradient?: Tensor }>('backward', gradient, ['gradient', 'retainGraph', 'createGraph', 'inputs']));
      } else {
        g = gradient as Tensor | undefined;
        o = readOptions<BackwardOptions>('backward', options, ['retainGraph', 'createGraph', 'inputs']);
      }
      refuseCreateGraph('backward', o.createGraph);
      accumulateGradients(this, g, o);
    } finally {
      endCallSite(began);
    }
  },
  retainGrad() {
    if (!this.requiresGrad) throw new Error(`retainGrad: the tensor ${this.describe()} does not require grad, so it has no gradient to keep`);
    if (this._gradNode) this._retainsGrad = true;
  },
  detach() {
    const out = noGrad(() => this.reshape([...this.shape]));
    // It shares storage but is no view of the leaf to autograd, as PyTorch's detach():
    // `w.detach().add_(1)` writes w without the leaf's in-place error.
    if (out._viewOf) out._viewOf = { ...out._viewOf, gradLeaf: null };
    return out;
  },
  detach_() {
    if (this._viewOf?.differentiable) {
      throw new Error(`detach_: can't detach views in-place (${this.describe()} is a view of another tensor); use detach() instead`);
    }
    // the old node stays reachable from nodes recorded before (kept: a scope's end must not free it)
    if (this._gradNode) recordDetach(this, keep(this.detach()));
    this._gradNode = null;
    this.requiresGrad = false;
    this._retainsGrad = false;
    return this;
  },
});

installGetters({
  isLeaf() {
    return this._gradNode === null;
  },
  retainsGrad() {
    return this._retainsGrad;
  },
});
