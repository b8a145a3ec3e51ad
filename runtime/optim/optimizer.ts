// Optimizer base: holds the parameters, zeroGrad(), and applies each step as ONE batch of
// in-place updates (fused mode: one program for the pending forward, backward and update).
// Hyperparameters are plain JS numbers read at every step: they reach the program as
// scalar inputs, so changing the learning rate every step never recompiles.
import { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { assignAll } from '../modes/assign.js';
import { keep } from '../scope.js';
import { zeros } from '../creation.js';
import { withCallSite } from '../call-site.js';

export abstract class Optimizer {
  readonly params: Tensor[];
  /** Per-parameter state tensors (momentum, moments), by name. */
  protected readonly state = new Map<Tensor, Record<string, Tensor>>();
  /** Steps taken. */
  stepCount = 0;

  constructor(params: Iterable<Tensor>, readonly name: string) {
    if (params === null || typeof params !== 'object' || !(Symbol.iterator in params)) {
      throw new TypeError(`${name}: params must be an array of tensors (e.g. model.parameters()); got ${params === null ? 'null' : typeof params}`);
    }
    this.params = [...params];
    if (this.params.length === 0) throw new RangeError(`${name}: params is empty`);
    this.params.forEach((p, i) => {
      if (!(p instanceof Tensor)) throw new TypeError(`${name}: params[${i}] must be a tensor; got ${typeof p}`);
      if (!p.requiresGrad) throw new Error(`${name}: params[${i}] ${p.describe()} does not require grad`);
    });
  }

  /** Sets every gradient to null (disposing the old ones), like PyTorch's set_to_none. */
  zeroGrad(): void {
    for (const p of this.params) {
      p.grad?.dispose();
      p.grad = null;
    }
  }

  /** One update of every parameter that has a gradient (its ops attributed to the line calling step()). */
  step(): void {
    withCallSite(Optimizer.prototype.step, () => {
      this.stepCount++;
      const updates: [Tensor, Tensor][] = [];
      noGrad(() => {
        for (const p of this.params) {
          if (!p.grad) continue;
          if (p.grad.disposed) throw new ReferenceError(`${this.name}.step: the gradient of ${p.describe()} was disposed`);
          updates.push([p, this.update(p, p.grad, this.stateOf(p))]);
        }
      });
      if (updates.length) assignAll(updates, `${this.name}.step`);
    });
  }

  /** The parameter's new value; updates its `state` tensors with setState. */
  protected abstract update(p: Tensor, grad: Tensor, state: Record<string, Tensor>): Tensor;

  protected stateOf(p: Tensor): Record<string, Tensor> {
    let s = this.state.get(p);
    if (!s) this.state.set(p, (s = {}));
    return s;
  }

  /**
   * Updates a state tensor in place (created as zeros of the parameter's shape the first
   * time), so it is a program output of the step, like the parameter itself.
   */
  protected setState(p: Tensor, state: Record<string, Tensor>, key: string, value: (current: Tensor, first: boolean) => Tensor): Tensor {
    const first = state[key] === undefined;
    const target = first ? (state[key] = keep(zeros([...p.shape], { dtype: p.dtype }))) : state[key]!;
    assignAll([[target, value(target, first)]], `${this.name}.step`);
    return target;
  }
}

export function checkHyper(who: string, name: string, v: unknown, lo: number, hi = Infinity, hiOpen = false): number {
  if (typeof v !== 'number' || !(v >= lo) || (hiOpen ? !(v < hi) : !(v <= hi))) {
    throw new RangeError(`${who}: ${name} must be a number in [${lo}, ${hi}${hiOpen ? ')' : ']'}; got ${JSON.stringify(v)}`);
  }
  return v;
}
