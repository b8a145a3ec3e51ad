// SGDR: cosine annealing from each group's base lr down to etaMin over t0 steps, then a restart
// at the base lr, each period tMult times the last (torch.optim.lr_scheduler.
// CosineAnnealingWarmRestarts, stepped without an epoch argument).
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { checkInteger, LRScheduler, required, schedulerOptions } from './scheduler.js';
import { loaded, type SchedulerStateDict } from './scheduler-state.js';

export interface CosineAnnealingWarmRestartsOptions {
  t0?: number;
  tMult?: number;
  etaMin?: number;
}

/**
 * Anneals each group's lr along a cosine from its base lr to etaMin (0) in t0 steps, restarts,
 * and makes each next period tMult (1) times longer (PyTorch's T_0, T_mult, eta_min).
 * @example const sched = new tpu.optim.lrScheduler.CosineAnnealingWarmRestarts(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), 2); sched.step(); sched.getLastLr() // [0.05]
 */
export class CosineAnnealingWarmRestarts extends LRScheduler {
  t0: number;
  /** The current period's length (PyTorch's T_i). */
  tI: number;
  tMult: number;
  etaMin: number;
  /** Steps into the current period (PyTorch's T_cur). */
  tCur = 0;

  constructor(optimizer: Optimizer, t0: number | CosineAnnealingWarmRestartsOptions, options?: CosineAnnealingWarmRestartsOptions) {
    const who = 'CosineAnnealingWarmRestarts';
    super(optimizer, who);
    const o = schedulerOptions<CosineAnnealingWarmRestartsOptions>(who, 't0', t0, options, ['t0', 'tMult', 'etaMin']);
    this.t0 = checkInteger(who, 't0', required(who, 't0', o.t0, 'the steps of the first period'), 1);
    this.tI = this.t0;
    this.tMult = checkInteger(who, 'tMult', o.tMult ?? 1, 1);
    this.etaMin = checkHyper(who, 'etaMin', o.etaMin ?? 0, 0);
    this.initialStep();
  }

  protected getLr(): number[] {
    if (!this.initial && ++this.tCur >= this.tI) {
      this.tCur -= this.tI;
      this.tI *= this.tMult;
    }
    const cosine = (1 + Math.cos((Math.PI * this.tCur) / this.tI)) / 2;
    return this.optimizer.paramGroups.map((_, i) => this.etaMin + (this.baseLr(i) - this.etaMin) * cosine);
  }

  /** _stepCount 0, as PyTorch's: its step() of this scheduler does not count steps. */
  override stateDict(): SchedulerStateDict {
    return { ...super.stateDict(), _stepCount: 0 };
  }

  protected ownState(): SchedulerStateDict {
    return { t0: this.t0, tI: this.tI, tMult: this.tMult, etaMin: this.etaMin, tCur: this.tCur };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const t0 = loaded(s, 't0', this.t0, (v, k) => checkInteger(who, k, v, 1));
    const tI = loaded(s, 'tI', this.tI, (v, k) => checkInteger(who, k, v, 1));
    const tMult = loaded(s, 'tMult', this.tMult, (v, k) => checkInteger(who, k, v, 1));
    const etaMin = loaded(s, 'etaMin', this.etaMin, (v, k) => checkHyper(who, k, v, 0));
    const tCur = loaded(s, 'tCur', this.tCur, (v, k) => checkInteger(who, k, v, 0));
    return () => Object.assign(this, { t0, tI, tMult, etaMin, tCur });
  }
}
