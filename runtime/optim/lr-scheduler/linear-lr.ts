// A linear ramp of the lr factor from startFactor to endFactor over totalIters steps
// (torch.optim.lr_scheduler.LinearLR's recursive form): a warmup.
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { checkInteger, LRScheduler } from './scheduler.js';
import { readOptions } from '../../options.js';

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
  readonly startFactor: number;
  readonly endFactor: number;
  readonly totalIters: number;

  constructor(optimizer: Optimizer, options: LinearLROptions = {}) {
    super(optimizer, 'LinearLR');
    const o = readOptions<LinearLROptions>('LinearLR', options, ['startFactor', 'endFactor', 'totalIters']);
    const startFactor = o.startFactor ?? 1 / 3;
    if (!(typeof startFactor === 'number' && startFactor > 0 && startFactor <= 1)) throw new RangeError(`LinearLR: startFactor must be a number in (0, 1]; got ${JSON.stringify(startFactor)}`);
    this.startFactor = startFactor;
    this.endFactor = checkHyper('LinearLR', 'endFactor', o.endFactor ?? 1, 0, 1);
    this.totalIters = checkInteger('LinearLR', 'totalIters', o.totalIters ?? 5, 0);
    this.initialStep();
  }

  protected getLr(): number[] {
    const lrs = this.currentLrs();
    if (this.lastEpoch === 0) return lrs.map((lr) => lr * this.startFactor);
    if (this.initial || this.lastEpoch > this.totalIters) return lrs;
    const span = this.endFactor - this.startFactor;
    return lrs.map((lr) => lr * (1 + span / (this.totalIters * this.startFactor + (this.lastEpoch - 1) * span)));
  }
}
