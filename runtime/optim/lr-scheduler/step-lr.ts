// Decay by gamma at fixed epochs: every stepSize steps (StepLR), at given milestones
// (MultiStepLR), or every step (ExponentialLR): torch.optim.lr_scheduler's recursive forms.
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { checkInteger, LRScheduler, required, schedulerOptions } from './scheduler.js';
import { loaded, savedInteger, type SchedulerStateDict } from './scheduler-state.js';

export interface StepLROptions {
  stepSize?: number;
  gamma?: number;
}

/**
 * Multiplies each group's lr by gamma every stepSize steps (torch.optim.lr_scheduler.StepLR).
 * @example const sched = new tpu.optim.lrScheduler.StepLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), 2, { gamma: 0.5 }); sched.step(); sched.step(); sched.getLastLr() // [0.05]
 */
export class StepLR extends LRScheduler {
  stepSize: number;
  gamma: number;

  constructor(optimizer: Optimizer, stepSize: number | StepLROptions, options?: StepLROptions) {
    super(optimizer, 'StepLR');
    const o = schedulerOptions<StepLROptions>('StepLR', 'stepSize', stepSize, options, ['stepSize', 'gamma']);
    this.stepSize = checkInteger('StepLR', 'stepSize', required('StepLR', 'stepSize', o.stepSize, 'steps between decays'), 1);
    this.gamma = checkHyper('StepLR', 'gamma', o.gamma ?? 0.1, 0);
    this.initialStep();
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((lr) => lr * this.gamma ** Math.floor(this.lastEpoch / this.stepSize));
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    return this.lastEpoch === 0 || this.lastEpoch % this.stepSize !== 0 ? lrs : lrs.map((lr) => lr * this.gamma);
  }

  protected ownState(): SchedulerStateDict {
    return { stepSize: this.stepSize, gamma: this.gamma };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const stepSize = loaded(s, 'stepSize', this.stepSize, (v, k) => checkInteger(who, k, v, 1));
    const gamma = loaded(s, 'gamma', this.gamma, (v, k) => checkHyper(who, k, v, 0));
    return () => Object.assign(this, { stepSize, gamma });
  }
}

export interface MultiStepLROptions {
  milestones?: readonly number[];
  gamma?: number;
}

/**
 * Multiplies each group's lr by gamma at each milestone step (torch.optim.lr_scheduler.MultiStepLR).
 * @example const sched = new tpu.optim.lrScheduler.MultiStepLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), [1, 3]); sched.step(); sched.getLastLr() // [0.01]
 */
export class MultiStepLR extends LRScheduler {
  /** How many times each milestone was given (PyTorch's Counter: a repeated milestone decays that many times). */
  milestones: ReadonlyMap<number, number>;
  gamma: number;

  constructor(optimizer: Optimizer, milestones: readonly number[] | MultiStepLROptions, options?: MultiStepLROptions) {
    super(optimizer, 'MultiStepLR');
    const o = schedulerOptions<MultiStepLROptions>('MultiStepLR', 'milestones', milestones, options, ['milestones', 'gamma']);
    const given = required('MultiStepLR', 'milestones', o.milestones, 'an array of step numbers');
    if (!Array.isArray(given)) throw new TypeError(`MultiStepLR: milestones must be an array of step numbers; got ${JSON.stringify(given)}`);
    const counts = new Map<number, number>();
    given.forEach((m, i) => {
      checkInteger('MultiStepLR', `milestones[${i}]`, m, 0);
      counts.set(m, (counts.get(m) ?? 0) + 1);
    });
    this.milestones = counts;
    this.gamma = checkHyper('MultiStepLR', 'gamma', o.gamma ?? 0.1, 0);
    this.initialStep();
  }

  protected override closedFormLr(): number[] {
    let times = 0;
    for (const [m, n] of this.milestones) if (m <= this.lastEpoch) times += n;
    return this.baseLrs.map((lr) => lr * this.gamma ** times);
  }

  protected getLr(): number[] {
    const times = this.milestones.get(this.lastEpoch);
    const lrs = this.currentLrs();
    return times === undefined ? lrs : lrs.map((lr) => lr * this.gamma ** times);
  }

  /** milestones as PyTorch's Counter saves them: { [step]: times }. */
  protected ownState(): SchedulerStateDict {
    return { milestones: Object.fromEntries(this.milestones), gamma: this.gamma };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const milestones = loaded(s, 'milestones', this.milestones, (v, k) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${who}: ${k} must be an object { [step]: times }; got ${JSON.stringify(v)}`);
      return new Map(Object.entries(v).map(([step, times]) => [savedInteger(who, `${k} step`, Number(step), 0), savedInteger(who, `${k}[${step}]`, times, 1)]));
    });
    const gamma = loaded(s, 'gamma', this.gamma, (v, k) => checkHyper(who, k, v, 0));
    return () => Object.assign(this, { milestones, gamma });
  }
}

export interface ExponentialLROptions {
  gamma?: number;
}

/**
 * Multiplies each group's lr by gamma at every step (torch.optim.lr_scheduler.ExponentialLR).
 * @example const sched = new tpu.optim.lrScheduler.ExponentialLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), 0.5); sched.step(); sched.getLastLr() // [0.05]
 */
export class ExponentialLR extends LRScheduler {
  gamma: number;

  constructor(optimizer: Optimizer, gamma: number | ExponentialLROptions, options?: ExponentialLROptions) {
    super(optimizer, 'ExponentialLR');
    const o = schedulerOptions<ExponentialLROptions>('ExponentialLR', 'gamma', gamma, options, ['gamma']);
    this.gamma = checkHyper('ExponentialLR', 'gamma', required('ExponentialLR', 'gamma', o.gamma, 'the factor of each step'), 0);
    this.initialStep();
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((lr) => lr * this.gamma ** this.lastEpoch);
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    return this.initial ? lrs : lrs.map((lr) => lr * this.gamma);
  }

  protected ownState(): SchedulerStateDict {
    return { gamma: this.gamma };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const gamma = loaded(s, 'gamma', this.gamma, (v, k) => checkHyper(who, k, v, 0));
    return () => Object.assign(this, { gamma });
  }
}
