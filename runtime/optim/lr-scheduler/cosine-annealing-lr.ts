// Cosine annealing from each group's base lr down to etaMin over tMax steps, and back up over
// the next tMax (torch.optim.lr_scheduler.CosineAnnealingLR's recursive form, SGDR without restarts).
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { LRScheduler, required, schedulerOptions } from './scheduler.js';
import { loaded, type SchedulerStateDict } from './scheduler-state.js';

export interface CosineAnnealingLROptions {
  tMax?: number;
  etaMin?: number;
}

/**
 * Anneals each group's lr along a cosine from its base lr to etaMin (0) in tMax steps
 * (torch.optim.lr_scheduler.CosineAnnealingLR; PyTorch's T_max, eta_min).
 * @example const sched = new tpu.optim.lrScheduler.CosineAnnealingLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), 2); sched.step(); sched.getLastLr() // [0.05]
 */
export class CosineAnnealingLR extends LRScheduler {
  tMax: number;
  etaMin: number;

  constructor(optimizer: Optimizer, tMax: number | CosineAnnealingLROptions, options?: CosineAnnealingLROptions) {
    super(optimizer, 'CosineAnnealingLR');
    const o = schedulerOptions<CosineAnnealingLROptions>('CosineAnnealingLR', 'tMax', tMax, options, ['tMax', 'etaMin']);
    this.tMax = checkTMax('CosineAnnealingLR', required('CosineAnnealingLR', 'tMax', o.tMax, 'the steps of half a cosine period'));
    this.etaMin = checkHyper('CosineAnnealingLR', 'etaMin', o.etaMin ?? 0, 0);
    this.initialStep();
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((lr) => this.etaMin + ((lr - this.etaMin) * (1 + Math.cos((Math.PI * this.lastEpoch) / this.tMax))) / 2);
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    const { lastEpoch: t, tMax, etaMin } = this;
    if (this.initial) return lrs;
    // at the bottom of each cycle: the closed form's step up, as the ratio below would divide by 0
    if ((t - 1 - tMax) % (2 * tMax) === 0) return lrs.map((lr, i) => lr + ((this.baseLr(i) - etaMin) * (1 - Math.cos(Math.PI / tMax))) / 2);
    return lrs.map((lr) => ((1 + Math.cos((Math.PI * t) / tMax)) / (1 + Math.cos((Math.PI * (t - 1)) / tMax))) * (lr - etaMin) + etaMin);
  }

  protected ownState(): SchedulerStateDict {
    return { tMax: this.tMax, etaMin: this.etaMin };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const tMax = loaded(s, 'tMax', this.tMax, (v) => checkTMax(who, v));
    const etaMin = loaded(s, 'etaMin', this.etaMin, (v, k) => checkHyper(who, k, v, 0));
    return () => Object.assign(this, { tMax, etaMin });
  }
}

function checkTMax(who: string, value: unknown): number {
  if (!(typeof value === 'number' && value > 0 && value < Infinity)) throw new RangeError(`${who}: tMax must be a number > 0; got ${JSON.stringify(value)}`);
  return value;
}
