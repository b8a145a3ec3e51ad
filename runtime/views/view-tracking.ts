// Views alias their base, as in PyTorch, by functionalization (PyTorch/XLA's model): a view
// remembers its base and how to recompute itself from it; a write through a view becomes a
// functional update of the base (scatter of the new values at the positions the view reads),
// the base takes it in place (modes/assign), and each view of it is recomputed when next read
// (stale-views.ts).
// Which results are views, and of what layout, follows PyTorch's strides (views/layout.ts):
// a reshape that no strides can express is a copy, and view() refuses it.
import { Tensor } from '../tensor.js';
import { filled } from '../ops/constant.js';
import { where } from '../ops/where.js';
import { addApplyHook } from '../modes/dispatch.js';
import { formatShape } from '../shape.js';
import { gradEnabled } from '../autograd/grad-mode.js';
import { contiguousStrides, hasInternalOverlap, layoutAfter, type Layout } from './layout.js';
import './stale-views.js';

/** One view method with its arguments, applied to a tensor. */
export type ViewStep = (t: Tensor) => Tensor;

export interface ViewOf {
  readonly base: Tensor;
  /** Recomputes the view from (a value of) its base. */
  readonly from: (base: Tensor) => Tensor;
  /** The view methods applied from the base, in order (`from` is their composition). */
  readonly steps: readonly ViewStep[];
  /** Its strides and offset in the base's storage, as PyTorch's. */
  readonly layout: Layout;
  /** Made with gradients on: recomputed from a written base, it joins the graph (detach's views never). */
  readonly differentiable: boolean;
  /** The nearest leaf that requires grad it views (its base, or a view made a leaf by requiresGrad_()). */
  readonly gradLeaf: Tensor | null;
  /** The base's version its value was computed at: behind the base's, it is recomputed when read. */
  seen: number;
}

// View methods call each other (T -> permute, at -> reshape): only the outermost records.
let depth = 0;

/** Runs fn with view methods returning plain tensors (values made for the runtime's own use). */
export function untracked<T>(fn: () => T): T {
  depth++;
  try { return fn(); } finally { depth--; }
}

/** A tensor's strides and offset: a view's own, else its strides over its own storage (row-major unless computed otherwise). */
export function layoutOf(t: Tensor): Layout {
  return t._viewOf?.layout ?? { strides: t._strides ?? contiguousStrides(t.shape), offset: 0 };
}

// While a view method runs: the layout of each value derived from its input by layout
// primitives (null: a reshape no strides express, so the result is a copy).
let tracing: Map<Tensor, Layout | null> | null = null;
addApplyHook((op, operands, attrs, out) => {
  if (!tracing) return;
  const input = operands[0];
  if (!(input instanceof Tensor) || !tracing.has(input)) return;
  const layout = tracing.get(input)!;
  tracing.set(out, layout && layoutAfter(op.name, attrs, operands, input.shape, layout, out.shape));
});

/** The result of a view method on `input`, and its layout (undefined: not derived by layout ops; null: a copy). */
export function traced(input: Tensor, run: () => Tensor): { out: Tensor; layout: Layout | null | undefined } {
  const outer = tracing;
  tracing = new Map([[input, layoutOf(input)]]);
  try {
    const out = untracked(run);
    return { out, layout: out === input ? undefined : tracing.get(out) };
  } finally {
    tracing = outer;
  }
}

function record(input: Tensor, out: Tensor, step: ViewStep, layout: Layout): void {
  const parent = input._viewOf;
  const base = parent ? parent.base : input;
  const from = parent ? (b: Tensor) => step(parent.from(b)) : step;
  const steps = parent ? [...parent.steps, step] : [step];
  const gradLeaf = input.requiresGrad && input._gradNode === null ? input : parent?.gradLeaf ?? null;
  // The base lists no views: a list would have to be read through WeakRef.deref, which keeps
  // every view of a synchronous loop alive to the end of the job (V8's KeepDuringJob).
  out._viewOf = { base, from, steps, layout, differentiable: gradEnabled(), gradLeaf, seen: base._version };
}

/**
 * `steps` (a view's, or the end of one) applied to `input` again as view methods: a view of
 * input's base where strides express it, else a copy, as the methods decide (a tpu.compile
 * replay returns a view of its call's argument where the trace returned one).
 */
export function viewAgain(input: Tensor, steps: readonly ViewStep[]): Tensor {
  let t = input;
  for (const step of steps) {
    const from = t;
    const { out, layout } = traced(from, () => step(from));
    if (layout) record(from, out, step, layout);
    t = out;
  }
  return t;
}

/** PyTorch's refusal of a view() that no strides express. */
function notAView(input: Tensor, shape: unknown): Error {
  const { strides } = layoutOf(input);
  return new Error(`view: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead. ` +
    `(input ${formatShape(input.shape)} with strides ${formatShape(strides)}, asked for ${JSON.stringify(shape)})`);
}

/**
 * Makes each named method (or getter) of Tensor return views of its input when PyTorch's
 * would (a result whose layout strides can express); `mustView` methods throw otherwise.
 */
export function trackViews(methods: readonly string[], getters: readonly string[], mustView: readonly string[]): void {
  const wrap = (name: string, call: (t: Tensor, args: unknown[]) => Tensor) => function (this: Tensor, ...args: unknown[]) {
    if (depth > 0) return call(this, args);
    const { out, layout } = traced(this, () => call(this, args));
    if (layout === null && mustView.includes(name)) {
      out.dispose();
      throw notAView(this, args.length === 1 ? args[0] : args); // view([2, 3]) or view(2, 3)
    }
    if (layout) record(this, out, (t) => call(t, args), layout);
    return out;
  };
  for (const name of methods) {
    const original = (Tensor.prototype as any)[name] as (...a: unknown[]) => Tensor;
    Object.defineProperty(Tensor.prototype, name, {
      value: wrap(name, (t, args) => original.apply(t, args)),
      writable: true, configurable: true, enumerable: true,
    });
  }
  for (const name of getters) {
    const get = Object.getOwnPropertyDescriptor(Tensor.prototype, name)!.get!;
    Object.defineProperty(Tensor.prototype, name, { get: wrap(name, (t) => get.call(t)), configurable: true });
  }
}

/**
 * Makes a Tensor method return views whose layout it states itself, from its input's and its
 * arguments: diagonal's stride (the sum of two dims' strides) is one that no chain of layout
 * primitives gives, though its value is computed by them.
 */
export function trackStatedViews(name: string, layout: (input: Tensor, args: unknown[]) => Layout): void {
  const original = (Tensor.prototype as any)[name] as (...a: unknown[]) => Tensor;
  const call = (t: Tensor, args: unknown[]) => untracked(() => original.apply(t, args));
  Object.defineProperty(Tensor.prototype, name, {
    value: function (this: Tensor, ...args: unknown[]) {
      if (depth > 0) return original.apply(this, args);
      const out = call(this, args);
      if (out !== this) record(this, out, (t) => call(t, args), layout(this, args));
      return out;
    },
    writable: true, configurable: true, enumerable: true,
  });
}

/** Which base element each element of `view` reads, flattened. */
function readPositions(view: Tensor): Tensor {
  const { base, from } = view._viewOf!;
  // The view applied to the base's positions (a running count of ones: an iota computed on
  // the device, not a constant of n values).
  const positions = filled('view', [base.numel()], 1, 'int32').cumsum(0).sub(1).reshape([...base.shape]);
  return from(positions).reshape([-1]);
}

/** How many elements of the view each base element is written by (0: left alone). */
function writeCounts(at: Tensor, n: number, written: Tensor): Tensor {
  return filled('view', [n], 0, 'int32').scatterAdd(0, at, written);
}

/** The base's new value after writing `value` (of the view's shape) through `view`. */
export function writeThrough(view: Tensor, value: Tensor): { base: Tensor; newBase: Tensor } {
  const { base, layout } = view._viewOf!;
  if (hasInternalOverlap(view.shape, layout.strides)) {
    throw new Error('unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation. ' +
      `(the target ${view.describe()} is expanded: strides ${formatShape(layout.strides)})`);
  }
  const n = base.numel();
  return untracked(() => {
    const at = readPositions(view);
    const written = writeCounts(at, n, filled('view', [at.numel()], 1, 'int32'));
    // added onto -0, each written value keeps its sign of zero (0 + -0 would be +0, as PyTorch's copy is not)
    const values = filled('view', [n], -0, base.dtype).scatterAdd(0, at, value.to(base.dtype).reshape([-1]));
    return { base, newBase: where(written.gt(0), values, base.reshape([n])).reshape([...base.shape]) };
  });
}

/**
 * The base's new value after filling the view's elements (those of `mask`, or all) with one
 * value: allowed on an expanded view too, as PyTorch's fill_, zero_ and masked_fill_.
 */
export function fillThrough(view: Tensor, value: Tensor, mask: Tensor | null): { base: Tensor; newBase: Tensor } {
  const { base } = view._viewOf!;
  const n = base.numel();
  return untracked(() => {
    const at = readPositions(view);
    const picked = mask ? mask.expand([...view.shape]).to('int32').reshape([-1]) : filled('view', [at.numel()], 1, 'int32');
    const written = writeCounts(at, n, picked);
    return { base, newBase: where(written.gt(0), value.to(base.dtype), base.reshape([n])).reshape([...base.shape]) };
  });
}
