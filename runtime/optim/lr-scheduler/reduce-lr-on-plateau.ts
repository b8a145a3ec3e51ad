// Lowers the learning rates when a metric stops improving
// (torch.optim.lr_scheduler.ReduceLROnPlateau): step(metric) once per evaluation.
import { numberValue, specializedOptions } from '../../jit/live-number.js';
import { readOptions } from '../../options.js';
import { Tensor } from '../../tensor.js';
import { checkHyper, type Optimizer } from '../optimizer.js';
import { checkInteger, checkOptimizer, perGroup } from './scheduler.js';
import { groupNumbers, loaded, savedInteger, type SchedulerStateDict } from './scheduler-state.js';

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
  mode: 'min' | 'max';
  factor: number;
  patience: number;
  threshold: number;
  thresholdMode: 'rel' | 'abs';
  cooldown: number;
  minLrs: readonly number[];
  /** minLr given as one number: it applies to groups added later too. */
  #minLr: number | null;
  eps: number;
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
    const o = specializedOptions(readOptions<ReduceLROnPlateauOptions>(name, options, [...KEYS]));
    this.mode = oneOf(name, 'mode', o.mode ?? 'min', ['min', 'max']);
    this.thresholdMode = oneOf(name, 'thresholdMode', o.thresholdMode ?? 'rel', ['rel', 'abs']);
    this.factor = checkHyper(name, 'factor', o.factor ?? 0.1, 0, 1, true);
    this.patience = checkInteger(name, 'patience', o.patience ?? 10, 0);
    this.threshold = checkHyper(name, 'threshold', o.threshold ?? 1e-4, 0);
    this.cooldown = checkInteger(name, 'cooldown', o.cooldown ?? 0, 0);
    this.minLrs = perGroup(name, 'minLr', o.minLr ?? 0, optimizer, 0);
    this.#minLr = Array.isArray(o.minLr) ? null : this.minLrs[0]!;
    this.eps = checkHyper(name, 'eps', o.eps ?? 1e-8, 0);
    this.best = worstOf(this.mode);
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

  /**
   * The state, to resume (PyTorch's state_dict() in camelCase, its keys in its order: defaultMinLr
   * is minLr given as one number, else null; modeWorse the starting best, Infinity for 'min').
   * @example const saved = sched.stateDict(); sched2.loadStateDict(saved)
   */
  stateDict(): SchedulerStateDict {
    return {
      factor: this.factor,
      defaultMinLr: this.#minLr,
      minLrs: [...this.minLrs],
      patience: this.patience,
      cooldown: this.cooldown,
      eps: this.eps,
      lastEpoch: this.lastEpoch,
      _lastLr: this.getLastLr(),
      modeWorse: worstOf(this.mode),
      mode: this.mode,
      threshold: this.threshold,
      thresholdMode: this.thresholdMode,
      best: this.best,
      cooldownCounter: this.cooldownCounter,
      numBadEpochs: this.numBadEpochs,
    };
  }

  /**
   * Loads a stateDict(), as PyTorch's load_state_dict() (keys it lacks keep their values).
   * @example opt.loadStateDict(savedOpt); sched.loadStateDict(savedSched)
   */
  loadStateDict(saved: SchedulerStateDict): void {
    const who = 'ReduceLROnPlateau.loadStateDict';
    const s = readOptions<SchedulerStateDict>(who, saved, Object.keys(this.stateDict()));
    const groups = this.optimizer.paramGroups.length;
    const number = (lo: number, hi = Infinity, hiOpen = false) => (v: unknown, k: string) => checkHyper(who, k, v, lo, hi, hiOpen);
    const integer = (v: unknown, k: string) => savedInteger(who, k, v, 0);
    const next = {
      factor: loaded(s, 'factor', this.factor, number(0, 1, true)),
      minLrs: loaded(s, 'minLrs', this.minLrs, (v, k) => groupNumbers(who, k, v, groups)),
      patience: loaded(s, 'patience', this.patience, integer),
      cooldown: loaded(s, 'cooldown', this.cooldown, integer),
      eps: loaded(s, 'eps', this.eps, number(0)),
      lastEpoch: loaded(s, 'lastEpoch', this.lastEpoch, integer),
      mode: loaded(s, 'mode', this.mode, (v, k) => oneOf(who, k, v, ['min', 'max'])),
      threshold: loaded(s, 'threshold', this.threshold, number(0)),
      thresholdMode: loaded(s, 'thresholdMode', this.thresholdMode, (v, k) => oneOf(who, k, v, ['rel', 'abs'])),
      best: loaded(s, 'best', this.best, (v, k) => checkHyper(who, k, v, -Infinity)),
      cooldownCounter: loaded(s, 'cooldownCounter', this.cooldownCounter, integer),
      numBadEpochs: loaded(s, 'numBadEpochs', this.numBadEpochs, integer),
    };
    const defaultMinLr = loaded(s, 'defaultMinLr', this.#minLr, (v, k) => (v === null ? null : checkHyper(who, k, v, 0)));
    const lastLr = loaded(s, '_lastLr', this.#lastLr, (v, k) => groupNumbers(who, k, v, groups));
    const worse = worstOf(next.mode);
    if (s.modeWorse !== undefined && s.modeWorse !== worse) throw new TypeError(`${who}: modeWorse must be ${worse} for mode '${next.mode}'; got ${String(s.modeWorse)}`);
    Object.assign(this, next);
    this.#minLr = defaultMinLr;
    this.#lastLr = lastLr;
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

/** The best metric before the first (PyTorch's mode_worse). */
function worstOf(mode: 'min' | 'max'): number {
  return mode === 'min' ? Infinity : -Infinity;
}

function oneOf<T extends string>(who: string, key: string, value: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) throw new TypeError(`${who}: ${key} must be ${allowed.map((a) => `'${a}'`).join(' or ')}; got ${JSON.stringify(value)}`);
  return value as T;
}
