// A linear ramp of the lr factor from startFactor to endFactor over totalIters steps
// (torch.optim.lr_scheduler.LinearLR's recursive form): a warmup.
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { checkInteger, LRScheduler } from './scheduler.js';
import { loaded, type SchedulerStateDict } from './scheduler-state.js';
import { readOptions } from '../../options.js';
import { specializedOptions } from '../../jit/live-number.js';

export interface LinearLROptions {
  startFactor?: number;
  endFactor?: number;
  totalIters?: number;
}

/**
 * Scales each group's lr by a factor going linearly from startFactor (1/3) to endFactor (1)
 * over totalIters (5) steps, then keeps it (torch.optim.lr_scheduler.LinearLR).
 * @example const sched = new tpu.optim.lrScheduler.LinearLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), { startFactor: 0.5, totalIters: 2 }); sched.step(); sched.getLastLr() // [0.075]
 */
export class LinearLR extends LRScheduler {
  startFactor: number;
  endFactor: number;
  totalIters: number;

  constructor(optimizer: Optimizer, options: LinearLROptions = {}) {
    super(optimizer, 'LinearLR');
    const o = specializedOptions(readOptions<LinearLROptions>('LinearLR', options, ['startFactor', 'endFactor', 'totalIters']));
    this.startFactor = checkStartFactor('LinearLR', o.startFactor ?? 1 / 3);
    this.endFactor = checkHyper('LinearLR', 'endFactor', o.endFactor ?? 1, 0, 1);
    this.totalIters = checkInteger('LinearLR', 'totalIters', o.totalIters ?? 5, 0);
    this.initialStep();
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((lr) => lr * (this.startFactor + ((this.endFactor - this.startFactor) * Math.min(this.totalIters, this.lastEpoch)) / this.totalIters));
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    if (this.lastEpoch === 0) return lrs.map((lr) => lr * this.startFactor);
    if (this.initial || this.lastEpoch > this.totalIters) return lrs;
    const span = this.endFactor - this.startFactor;
    return lrs.map((lr) => lr * (1 + span / (this.totalIters * this.startFactor + (this.lastEpoch - 1) * span)));
  }

  protected ownState(): SchedulerStateDict {
    return { startFactor: this.startFactor, endFactor: this.endFactor, totalIters: this.totalIters };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const startFactor = loaded(s, 'startFactor', this.startFactor, (v) => checkStartFactor(who, v));
    const endFactor = loaded(s, 'endFactor', this.endFactor, (v, k) => checkHyper(who, k, v, 0, 1));
    const totalIters = loaded(s, 'totalIters', this.totalIters, (v, k) => checkInteger(who, k, v, 0));
    return () => Object.assign(this, { startFactor, endFactor, totalIters });
  }
}

function checkStartFactor(who: string, value: unknown): number {
  if (!(typeof value === 'number' && value > 0 && value <= 1)) throw new RangeError(`${who}: startFactor must be a number in (0, 1]; got ${JSON.stringify(value)}`);
  return value;
}
