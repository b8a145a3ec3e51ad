// The lr decayed by (1 - t / totalIters)^power, down to 0 at totalIters, then kept
// (torch.optim.lr_scheduler.PolynomialLR's recursive form).
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { checkInteger, LRScheduler } from './scheduler.js';
import { loaded, type SchedulerStateDict } from './scheduler-state.js';
import { readOptions } from '../../options.js';

export interface PolynomialLROptions {
  totalIters?: number;
  power?: number;
}

/**
 * Decays each group's lr as (1 - step / totalIters)^power from its value at the start, reaching 0
 * at totalIters (5; power 1) (torch.optim.lr_scheduler.PolynomialLR).
 * @example const sched = new tpu.optim.lrScheduler.PolynomialLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), { totalIters: 4 }); sched.step(); sched.getLastLr() // [0.075]
 */
export class PolynomialLR extends LRScheduler {
  totalIters: number;
  power: number;

  constructor(optimizer: Optimizer, options: PolynomialLROptions = {}) {
    super(optimizer, 'PolynomialLR');
    const o = readOptions<PolynomialLROptions>('PolynomialLR', options, ['totalIters', 'power']);
    this.totalIters = checkInteger('PolynomialLR', 'totalIters', o.totalIters ?? 5, 1);
    this.power = checkHyper('PolynomialLR', 'power', o.power ?? 1, 0);
    this.initialStep();
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((lr) => lr * (1 - Math.min(this.totalIters, this.lastEpoch) / this.totalIters) ** this.power);
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    const t = this.lastEpoch;
    if (t === 0 || t > this.totalIters) return lrs;
    const factor = ((1 - t / this.totalIters) / (1 - (t - 1) / this.totalIters)) ** this.power;
    return lrs.map((lr) => lr * factor);
  }

  protected ownState(): SchedulerStateDict {
    return { totalIters: this.totalIters, power: this.power };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const totalIters = loaded(s, 'totalIters', this.totalIters, (v, k) => checkInteger(who, k, v, 1));
    const power = loaded(s, 'power', this.power, (v, k) => checkHyper(who, k, v, 0));
    return () => Object.assign(this, { totalIters, power });
  }
}
