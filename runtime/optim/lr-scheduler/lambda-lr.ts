// Schedules by the user's functions of the step: LambdaLR (each group's lr as its base lr times
// the function) and MultiplicativeLR (the lr times the function at each step), as
// torch.optim.lr_scheduler's. The functions are not saved in stateDict(), as PyTorch's.
import type { Optimizer } from '../optimizer.js';
import { LRScheduler, required, schedulerOptions } from './scheduler.js';
import { type SchedulerStateDict } from './scheduler-state.js';

/** The factor of the base learning rate at a step (lastEpoch: 0 for the constructor's step). */
export type LrLambda = (epoch: number) => number;

export interface LambdaLROptions {
  lrLambda?: LrLambda | readonly LrLambda[];
}

/** A schedule by one function of the step, or one per param group. */
abstract class FunctionSchedule extends LRScheduler {
  readonly lrLambdas: readonly LrLambda[];

  constructor(optimizer: Optimizer, name: string, lrLambda: LrLambda | readonly LrLambda[] | LambdaLROptions, options?: LambdaLROptions) {
    super(optimizer, name);
    const o = schedulerOptions<LambdaLROptions>(name, 'lrLambda', lrLambda, options, ['lrLambda']);
    const given = required(name, 'lrLambda', o.lrLambda, 'a function of the step, or one per param group');
    const n = optimizer.paramGroups.length;
    const fns = Array.isArray(given) ? given : Array.from({ length: n }, () => given);
    if (fns.length !== n) throw new RangeError(`${name}: lrLambda must be one function or one per param group (${n}); got ${fns.length}`);
    fns.forEach((f, i) => {
      if (typeof f !== 'function') throw new TypeError(`${name}: lrLambda${Array.isArray(given) ? `[${i}]` : ''} must be a function of the step; got ${typeof f}`);
    });
    this.lrLambdas = fns;
  }

  /** Group i's function at the current step. */
  protected factor(i: number): number {
    const factor = this.lrLambdas[i]!(this.lastEpoch);
    if (typeof factor !== 'number' || Number.isNaN(factor)) throw new TypeError(`${this.name}: lrLambda(${this.lastEpoch}) must return a number; got ${JSON.stringify(factor)}`);
    return factor;
  }

  /** lrLambdas last, as PyTorch's: the functions are not saved, null each (PyTorch's None for a function). */
  override stateDict(): SchedulerStateDict {
    const { lrLambdas, ...rest } = super.stateDict();
    return { ...rest, lrLambdas };
  }

  protected ownState(): SchedulerStateDict {
    return { lrLambdas: this.lrLambdas.map(() => null) };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const n = this.lrLambdas.length;
    const saved = s.lrLambdas;
    if (saved !== undefined && !(Array.isArray(saved) && saved.length === n && saved.every((f) => f === null))) {
      throw new TypeError(`${who}: lrLambdas must be ${n} nulls (functions are not saved: the scheduler keeps its own); got ${JSON.stringify(saved)}`);
    }
    return () => {};
  }
}

/**
 * Sets each group's lr to its base lr times lrLambda(step); one function, or one per group
 * (torch.optim.lr_scheduler.LambdaLR).
 * @example const sched = new tpu.optim.lrScheduler.LambdaLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), (epoch) => 1 / (epoch + 1)); sched.step(); sched.getLastLr() // [0.05]
 */
export class LambdaLR extends FunctionSchedule {
  constructor(optimizer: Optimizer, lrLambda: LrLambda | readonly LrLambda[] | LambdaLROptions, options?: LambdaLROptions) {
    super(optimizer, 'LambdaLR', lrLambda, options);
    this.initialStep();
  }

  protected getLr(): number[] {
    return this.optimizer.paramGroups.map((_, i) => this.baseLr(i) * this.factor(i));
  }
}

/**
 * Multiplies each group's lr by lrLambda(step) at every step after the first; one function, or
 * one per group (torch.optim.lr_scheduler.MultiplicativeLR).
 * @example const sched = new tpu.optim.lrScheduler.MultiplicativeLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), () => 0.5); sched.step(); sched.getLastLr() // [0.05]
 */
export class MultiplicativeLR extends FunctionSchedule {
  constructor(optimizer: Optimizer, lrLambda: LrLambda | readonly LrLambda[] | LambdaLROptions, options?: LambdaLROptions) {
    super(optimizer, 'MultiplicativeLR', lrLambda, options);
    this.initialStep();
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    if (this.lastEpoch === 0) return lrs;
    return lrs.map((lr, i) => lr * this.factor(i));
  }
}
