// Each group's lr as its base lr times a function of the step (torch.optim.lr_scheduler.LambdaLR).
import type { Optimizer } from '../optimizer.js';
import { LRScheduler, required, schedulerOptions } from './scheduler.js';
import { type SchedulerStateDict } from './scheduler-state.js';

/** The factor of the base learning rate at a step (lastEpoch: 0 for the constructor's step). */
export type LrLambda = (epoch: number) => number;

export interface LambdaLROptions {
  lrLambda?: LrLambda | readonly LrLambda[];
}

/**
 * Sets each group's lr to its base lr times lrLambda(step); one function, or one per group
 * (torch.optim.lr_scheduler.LambdaLR).
 * @example const sched = new tpu.optim.lrScheduler.LambdaLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), (epoch) => 1 / (epoch + 1)); sched.step(); sched.getLastLr() // [0.05]
 */
export class LambdaLR extends LRScheduler {
  readonly lrLambdas: readonly LrLambda[];

  constructor(optimizer: Optimizer, lrLambda: LrLambda | readonly LrLambda[] | LambdaLROptions, options?: LambdaLROptions) {
    super(optimizer, 'LambdaLR');
    const o = schedulerOptions<LambdaLROptions>('LambdaLR', 'lrLambda', lrLambda, options, ['lrLambda']);
    const given = required('LambdaLR', 'lrLambda', o.lrLambda, 'a function of the step, or one per param group');
    const n = optimizer.paramGroups.length;
    const fns = Array.isArray(given) ? given : Array.from({ length: n }, () => given);
    if (fns.length !== n) throw new RangeError(`LambdaLR: lrLambda must be one function or one per param group (${n}); got ${fns.length}`);
    fns.forEach((f, i) => {
      if (typeof f !== 'function') throw new TypeError(`LambdaLR: lrLambda${Array.isArray(given) ? `[${i}]` : ''} must be a function of the step; got ${typeof f}`);
    });
    this.lrLambdas = fns;
    this.initialStep();
  }

  protected getLr(): number[] {
    return this.optimizer.paramGroups.map((_, i) => {
      const base = this.baseLr(i);
      const factor = this.lrLambdas[i]!(this.lastEpoch);
      if (typeof factor !== 'number' || Number.isNaN(factor)) throw new TypeError(`LambdaLR: lrLambda(${this.lastEpoch}) must return a number; got ${JSON.stringify(factor)}`);
      return base * factor;
    });
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
