// Lowers the learning rates when a metric stops improving
// (torch.optim.lr_scheduler.ReduceLROnPlateau): step(metric) once per evaluation.
import { numberValue } from '../../jit/live-number.js';
import { readOptions } from '../../options.js';
import { Tensor } from '../../tensor.js';
import { checkHyper, type Optimizer } from '../optimizer.js';
import { checkInteger, checkOptimizer, perGroup } from './scheduler.js';

export interface ReduceLROnPlateauOptions {
  mode?: 'min' | 'max';
  factor?: number;
  patience?: number;
  threshold?: number;
  thresholdMode?: 'rel' | 'abs';
  cooldown?: number;
  minLr?: number | readonly number[];
  eps?: number;
}

const KEYS = ['mode', 'factor', 'patience', 'threshold', 'thresholdMode', 'cooldown', 'minLr', 'eps'] as const;

/**
 * Multiplies each group's lr by factor (0.1) once the metric given to step() has not improved
 * for more than patience (10) steps (torch.optim.lr_scheduler.ReduceLROnPlateau).
 * @example const sched = new tpu.optim.lrScheduler.ReduceLROnPlateau(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), { patience: 0 }); sched.step(1); sched.step(2); sched.getLastLr() // [0.01]
 */
export class ReduceLROnPlateau {
  readonly mode: 'min' | 'max';
  readonly factor: number;
  readonly patience: number;
  readonly threshold: number;
  readonly thresholdMode: 'rel' | 'abs';
  readonly cooldown: number;
  minLrs: readonly number[];
  /** minLr given as one number: it applies to groups added later too. */
  readonly #minLr: number | null;
  readonly eps: number;
  /** The best metric so far. */
  best: number;
  /** Steps since the metric last improved (0 in a cooldown). */
  numBadEpochs = 0;
  cooldownCounter = 0;
  lastEpoch = 0;
  #lastLr: number[];

  constructor(readonly optimizer: Optimizer, options: ReduceLROnPlateauOptions = {}) {
    const name = 'ReduceLROnPlateau';
    checkOptimizer(name, optimizer);
    const o = readOptions<ReduceLROnPlateauOptions>(name, options, [...KEYS]);
    this.mode = o.mode ?? 'min';
    if (this.mode !== 'min' && this.mode !== 'max') throw new TypeError(`${name}: mode must be 'min' or 'max'; got ${JSON.stringify(this.mode)}`);
    this.thresholdMode = o.thresholdMode ?? 'rel';
    if (this.thresholdMode !== 'rel' && this.thresholdMode !== 'abs') throw new TypeError(`${name}: thresholdMode must be 'rel' or 'abs'; got ${JSON.stringify(this.thresholdMode)}`);
    this.factor = checkHyper(name, 'factor', o.factor ?? 0.1, 0, 1, true);
    this.patience = checkInteger(name, 'patience', o.patience ?? 10, 0);
    this.threshold = checkHyper(name, 'threshold', o.threshold ?? 1e-4, 0);
    this.cooldown = checkInteger(name, 'cooldown', o.cooldown ?? 0, 0);
    this.minLrs = perGroup(name, 'minLr', o.minLr ?? 0, optimizer, 0);
    this.#minLr = Array.isArray(o.minLr) ? null : this.minLrs[0]!;
    this.eps = checkHyper(name, 'eps', o.eps ?? 1e-8, 0);
    this.best = this.mode === 'min' ? Infinity : -Infinity;
    this.#lastLr = this.#lrs();
  }

  /**
   * Takes the metric of this evaluation (a number or a one-element tensor: read on the host,
   * so not inside tpu.compile) and lowers the learning rates after patience bad steps.
   * @example sched.step(valLoss)
   */
  step(metric: number | Tensor): void {
    const current = metric instanceof Tensor ? Number(metric.item()) : numberValue(metric);
    if (typeof current !== 'number') throw new TypeError(`ReduceLROnPlateau.step: metric must be a number or a one-element tensor; got ${typeof metric}`);
    this.lastEpoch++;
    if (this.#isBetter(current)) {
      this.best = current;
      this.numBadEpochs = 0;
    } else {
      this.numBadEpochs++;
    }
    if (this.cooldownCounter > 0) {
      this.cooldownCounter--;
      this.numBadEpochs = 0; // bad steps in a cooldown do not count
    }
    if (this.numBadEpochs > this.patience) {
      this.#reduce();
      this.cooldownCounter = this.cooldown;
      this.numBadEpochs = 0;
    }
    this.#lastLr = this.#lrs();
  }

  /**
   * The learning rate of each param group after the last step().
   * @example sched.getLastLr() // [0.1]
   */
  getLastLr(): number[] {
    return [...this.#lastLr];
  }

  #isBetter(a: number): boolean {
    const { best, threshold } = this;
    if (this.mode === 'min') return this.thresholdMode === 'rel' ? a < best * (1 - threshold) : a < best - threshold;
    return this.thresholdMode === 'rel' ? a > best * (threshold + 1) : a > best + threshold;
  }

  #reduce(): void {
    const groups = this.optimizer.paramGroups;
    if (groups.length !== this.minLrs.length) {
      if (this.#minLr === null) throw new RangeError(`ReduceLROnPlateau: the optimizer has ${groups.length} param groups, ${this.minLrs.length} when the scheduler was made: set sched.minLrs to one value per group`);
      this.minLrs = groups.map(() => this.#minLr!);
    }
    groups.forEach((g, i) => {
      const old = numberValue(g.lr) as number;
      const lr = Math.max(old * this.factor, this.minLrs[i]!);
      if (old - lr > this.eps) g.lr = lr;
    });
  }

  #lrs(): number[] {
    return this.optimizer.paramGroups.map((g) => numberValue(g.lr) as number);
  }
}
