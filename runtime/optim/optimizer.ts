// Optimizer base: holds the parameters, zeroGrad(), and applies each step as ONE batch of
// in-place updates (fused mode: one program for the pending forward, backward and update).
// Hyperparameters are plain JS properties; updates read them through live numbers
// (hyper()), so they reach programs as scalar inputs read at every step, also on a
// tpu.compile replay where the step's JS does not run: changing the learning rate every
// step never recompiles. The step counts advance through onEachCall, so a replay advances
// them too; JS choices that shape the program (momentum on or off) are guards.
// A DTensor parameter (tensor parallel) is stepped piece by piece with the pieces of its
// .grad (summed over its Replicate mesh dims), so its state is sharded like it and its
// replicas stay equal.
import { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { releaseGrad } from '../autograd/release-grad.js';
import { assignAll } from '../modes/assign.js';
import { keep, scope } from '../scope.js';
import { zeros } from '../creation.js';
import { LiveNumber, numberValue } from '../jit/live-number.js';
import { guard, onEachCall } from '../jit/trace-record.js';
import { beginCallSite, endCallSite } from '../call-site.js';
import { asOneOp } from '../modes/composite.js';
import { DTensor } from '../distributed/dtensor.js';
import { describeValue } from '../distributed/describe-value.js';
import { Module } from '../nn/module.js';

/**
 * Base of the optimizers (torch.optim.Optimizer): step() updates, zeroGrad() clears gradients.
 * @example const loss = model.forward(x).sum(); opt.zeroGrad(); loss.backward(); opt.step()
 */
export abstract class Optimizer {
  /** The tensors updated: each tensor parameter, and every piece of each DTensor parameter. */
  readonly params: Tensor[];
  /** The DTensor parameters: their pieces' gradients are read from the DTensor's .grad. */
  readonly #dtensors: DTensor[];
  /** Per-parameter state tensors (momentum, moments), by name. */
  protected readonly state = new Map<Tensor, Record<string, Tensor>>();
  /** Steps taken. */
  stepCount = 0;
  /** Steps in which each parameter was updated. */
  protected readonly updatesOf = new Map<Tensor, number>();

  constructor(params: Iterable<Tensor | DTensor>, readonly name: string) {
    if (params instanceof Tensor || params instanceof DTensor) throw new TypeError(`${name}: params must be an array of tensors (e.g. model.parameters()); got one ${params instanceof Tensor ? 'tensor' : 'DTensor'}: give [w]`);
    if (params === null || typeof params !== 'object' || !(Symbol.iterator in params)) {
      throw new TypeError(`${name}: params must be an array of tensors (e.g. model.parameters()); got ${describeValue(params)}${(params as unknown) instanceof Module ? ': give model.parameters()' : ''}`);
    }
    const given = [...params];
    if (given.length === 0) throw new RangeError(`${name}: params is empty`);
    given.forEach((p, i) => {
      if (!(p instanceof Tensor) && !(p instanceof DTensor)) throw new TypeError(`${name}: params[${i}] must be a tensor or a DTensor; got ${describeValue(p)}`);
      if (!p.requiresGrad) throw new Error(`${name}: params[${i}] ${p instanceof Tensor ? p.describe() : p} does not require grad`);
      // PyTorch warns ("in future, this will cause an error"); stepped twice, it would be wrong
      if (given.indexOf(p) !== i) throw new Error(`${name}: params[${i}] is params[${given.indexOf(p)}] again: each parameter may be given once`);
    });
    this.#dtensors = given.filter((p) => p instanceof DTensor);
    this.params = given.flatMap((p) => (p instanceof DTensor ? p.localTensors() : [p]));
  }

  /** Sets every gradient to null (disposing the old ones), like PyTorch's set_to_none. */
  zeroGrad(): void {
    for (const p of this.params) {
      releaseGrad(p);
    }
    for (const d of this.#dtensors) d.grad = null;
  }

  /** Each updated tensor's gradient: its .grad, or for a DTensor's piece that piece of the DTensor's .grad. */
  #gradients(): Map<Tensor, Tensor> {
    const grads = new Map<Tensor, Tensor>();
    for (const p of this.params) if (p._grad) grads.set(p, p._grad);
    for (const d of this.#dtensors) {
      const pieces = d.localTensors();
      d._gradValue()?.localTensors().forEach((g, k) => grads.set(pieces[k]!, g));
    }
    return grads;
  }

  /**
   * One update of every parameter that has a gradient (its ops attributed to the line calling
   * step()); in strict mode one program for all of them, as PyTorch's foreach update.
   */
  step(): void {
    // begin/end and bound methods, not closures made per step: those lost their optimized code
    // at each full collection (call-site.ts).
    const began = beginCallSite(Optimizer.prototype.step);
    try {
      // A DTensor's .grad may all-reduce its pieces' gradients: collectives, before the one-program update.
      const grads = this.#gradients();
      asOneOp(this.#update.bind(this, grads));
    } finally {
      endCallSite(began);
    }
  }

  #update(grads: Map<Tensor, Tensor>): void {
    const stepped = this.params.filter((p) => grads.has(p));
    const advance = this.#advance.bind(this, stepped);
    advance();
    onEachCall(advance);
    // The update's intermediates (lr * g, ...) are disposed: left to the collector, each would
    // keep its inputs' buffers (the gradients) alive in fused mode until a full collection.
    const updates = scope(this.#newValues.bind(this, stepped, grads));
    if (updates.length) assignAll(updates, `${this.name}.step`);
  }

  #advance(stepped: readonly Tensor[]): void {
    this.stepCount++;
    for (const p of stepped) this.updatesOf.set(p, (this.updatesOf.get(p) ?? 0) + 1);
  }

  /** Each stepped parameter and its new value, out of autograd. */
  #newValues(stepped: readonly Tensor[], grads: ReadonlyMap<Tensor, Tensor>): [Tensor, Tensor][] {
    return noGrad(() => {
      const out: [Tensor, Tensor][] = [];
      for (const p of stepped) {
        const g = grads.get(p)!;
        if (g.disposed) throw new ReferenceError(`${this.name}.step: the gradient of ${p.describe()} was disposed`);
        out.push([p, this.update(p, g, this.stateOf(p))]);
      }
      return out;
    });
  }

  /** The parameter's new value; updates its `state` tensors with setState. */
  protected abstract update(p: Tensor, grad: Tensor, state: Record<string, Tensor>): Tensor;

  /**
   * A hyperparameter as an op operand: read now, and again on each tpu.compile replay.
   * Typed as a number: ops take a live number wherever they take one.
   */
  protected hyper(read: () => number): number {
    return new LiveNumber(read) as unknown as number;
  }

  /** A JS choice that shapes the update's program (a replay traces again when it changes). */
  protected choice(what: string, read: () => boolean): boolean {
    return guard(`${this.name} ${what}`, read);
  }

  protected stateOf(p: Tensor): Record<string, Tensor> {
    let s = this.state.get(p);
    if (!s) this.state.set(p, (s = {}));
    return s;
  }

  /**
   * Updates a state tensor in place (created as zeros of the parameter's shape the first
   * time), so it is a program output of the step, like the parameter itself.
   */
  protected setState(p: Tensor, state: Record<string, Tensor>, key: string, value: (current: Tensor) => Tensor): Tensor {
    const target = (state[key] ??= keep(zeros([...p.shape], { dtype: p.dtype, chip: p.chip })));
    assignAll([[target, value(target)]], `${this.name}.step`);
    return target;
  }
}

export function checkHyper(who: string, name: string, value: unknown, lo: number, hi = Infinity, hiOpen = false): number {
  const v = numberValue(value); // a number argument of a compiled step set as opt.lr
  if (typeof v !== 'number' || !(v >= lo) || (hiOpen ? !(v < hi) : !(v <= hi))) {
    throw new RangeError(`${who}: ${name} must be a number in [${lo}, ${hi}${hiOpen ? ')' : ']'}; got ${JSON.stringify(v)}`);
  }
  return v;
}
