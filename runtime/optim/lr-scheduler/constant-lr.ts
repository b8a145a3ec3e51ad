// A constant factor on the lr for the first totalIters steps, then the lr itself
// (torch.optim.lr_scheduler.ConstantLR's recursive form): a flat warmup.
import type { Optimizer } from '../optimizer.js';
import { checkInteger, LRScheduler } from './scheduler.js';
import { loaded, type SchedulerStateDict } from './scheduler-state.js';
import { readOptions } from '../../options.js';

export interface ConstantLROptions {
  factor?: number;
  totalIters?: number;
}

/**
 * Scales each group's lr by factor (1/3) until step totalIters (5), then restores it
 * (torch.optim.lr_scheduler.ConstantLR).
 * @example const sched = new tpu.optim.lrScheduler.ConstantLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), { factor: 0.5, totalIters: 1 }); sched.step(); sched.getLastLr() // [0.1]
 */
export class ConstantLR extends LRScheduler {
  factor: number;
  totalIters: number;

  constructor(optimizer: Optimizer, options: ConstantLROptions = {}) {
    super(optimizer, 'ConstantLR');
    const o = readOptions<ConstantLROptions>('ConstantLR', options, ['factor', 'totalIters']);
    this.factor = checkFactor('ConstantLR', o.factor ?? 1 / 3);
    this.totalIters = checkInteger('ConstantLR', 'totalIters', o.totalIters ?? 5, 0);
    this.initialStep();
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((lr) => lr * (this.factor + (this.lastEpoch >= this.totalIters ? 1 - this.factor : 0)));
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    if (this.lastEpoch === 0) return lrs.map((lr) => lr * this.factor);
    if (this.lastEpoch !== this.totalIters) return lrs;
    return lrs.map((lr) => lr * (1 / this.factor));
  }

  protected ownState(): SchedulerStateDict {
    return { factor: this.factor, totalIters: this.totalIters };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const factor = loaded(s, 'factor', this.factor, (v) => checkFactor(who, v));
    const totalIters = loaded(s, 'totalIters', this.totalIters, (v, k) => checkInteger(who, k, v, 0));
    return () => Object.assign(this, { factor, totalIters });
  }
}

function checkFactor(who: string, value: unknown): number {
  if (!(typeof value === 'number' && value > 0 && value <= 1)) throw new RangeError(`${who}: factor must be a number in (0, 1]; got ${JSON.stringify(value)}`);
  return value;
}
