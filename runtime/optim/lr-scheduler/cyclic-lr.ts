// The cyclical learning rate policy (torch.optim.lr_scheduler.CyclicLR): each step moves the lr
// from baseLr up to maxLr over stepSizeUp steps and back over stepSizeDown, the cycle's height
// scaled by the mode (triangular: 1, triangular2: halved each cycle, exp_range: gamma^step) or
// the user's scaleFn; the momentum (SGD's, or Adam's beta1) moves the opposite way.
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { isOptions } from '../../options.js';
import { checkInteger, checkOptimizer, LRScheduler, perGroup, required, schedulerOptions } from './scheduler.js';
import { groupNumbers, loaded, sameAsMade, type SchedulerStateDict } from './scheduler-state.js';
import { cyclesBeta1, setCycledMomentum } from './cycled-momentum.js';

export type CyclicMode = 'triangular' | 'triangular2' | 'exp_range';
export type ScaleMode = 'cycle' | 'iterations';

export interface CyclicLROptions {
  /** The lowest lr of the cycle (each group's, or one per group): given positionally, or here. */
  baseLr?: number | readonly number[];
  /** The highest lr of the cycle (each group's, or one per group). */
  maxLr?: number | readonly number[];
  /** Steps from baseLr up to maxLr (2000 by default). */
  stepSizeUp?: number;
  /** Steps back down (stepSizeUp by default). */
  stepSizeDown?: number;
  mode?: CyclicMode;
  /** exp_range's factor per step (1 by default). */
  gamma?: number;
  /** Your scale of the cycle's height, of the cycle number or the step (then mode is not used). */
  scaleFn?: ((x: number) => number) | null;
  /** What scaleFn is a function of: 'cycle' (the default) or 'iterations'. */
  scaleMode?: ScaleMode;
  cycleMomentum?: boolean;
  baseMomentum?: number | readonly number[];
  maxMomentum?: number | readonly number[];
}

const KEYS = ['baseLr', 'maxLr', 'stepSizeUp', 'stepSizeDown', 'mode', 'gamma', 'scaleFn', 'scaleMode', 'cycleMomentum', 'baseMomentum', 'maxMomentum'] as const;
const MODES: readonly CyclicMode[] = ['triangular', 'triangular2', 'exp_range'];
const SCALE_MODES: readonly ScaleMode[] = ['cycle', 'iterations'];

/**
 * Cycles each group's lr between baseLr and maxLr, stepped after each batch
 * (torch.optim.lr_scheduler.CyclicLR): new CyclicLR(opt, baseLr, maxLr, { stepSizeUp, mode, ... }).
 * @example const sched = new tpu.optim.lrScheduler.CyclicLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 }), 0.01, 0.1, { stepSizeUp: 2 }); sched.step(); sched.getLastLr() // [0.055]
 */
export class CyclicLR extends LRScheduler {
  maxLrs: number[];
  totalSize: number;
  stepRatio: number;
  mode: CyclicMode;
  gamma: number;
  scaleMode: ScaleMode;
  readonly cycleMomentum: boolean;
  readonly #scaleFn: ((x: number) => number) | null;
  readonly #beta1: boolean;
  #momenta: { base: number[]; max: number[] } | null;

  constructor(optimizer: Optimizer, baseLr: number | readonly number[] | CyclicLROptions, maxLr?: number | readonly number[] | CyclicLROptions, options?: CyclicLROptions) {
    const name = 'CyclicLR';
    checkOptimizer(name, optimizer);
    let rest: unknown = options;
    if (isOptions(maxLr)) {
      if (options !== undefined) throw new TypeError(`${name}: give maxLr positionally with options after it, or in the options; got two objects`);
      rest = maxLr;
    } else if (maxLr !== undefined) {
      if (isOptions(rest) && 'maxLr' in rest) throw new TypeError(`${name}: maxLr is given twice: positionally and in the options`);
      rest = { ...(rest as object | undefined), maxLr };
    }
    const o = schedulerOptions<CyclicLROptions>(name, 'baseLr', baseLr, rest, [...KEYS]);
    const baseLrs = perGroup(name, 'baseLr', required(name, 'baseLr', o.baseLr, 'the lowest lr of the cycle'), optimizer, 0);
    const maxLrs = perGroup(name, 'maxLr', required(name, 'maxLr', o.maxLr, 'the highest lr of the cycle'), optimizer, 0);
    const up = checkInteger(name, 'stepSizeUp', o.stepSizeUp ?? 2000, 1);
    const down = o.stepSizeDown === undefined || o.stepSizeDown === null ? up : checkInteger(name, 'stepSizeDown', o.stepSizeDown, 0);
    const scaleFn = o.scaleFn ?? null;
    if (scaleFn !== null && typeof scaleFn !== 'function') throw new TypeError(`${name}: scaleFn must be a function of the cycle or step; got ${typeof scaleFn}`);
    const mode = o.mode ?? 'triangular';
    if (scaleFn === null) checkChoice(name, 'mode', mode, MODES);
    const cycleMomentum = o.cycleMomentum ?? true;
    if (typeof cycleMomentum !== 'boolean') throw new TypeError(`${name}: cycleMomentum must be true or false; got ${JSON.stringify(cycleMomentum)}`);
    const beta1 = cycleMomentum && cyclesBeta1(name, optimizer);
    const momenta = cycleMomentum
      ? { base: perGroup(name, 'baseMomentum', o.baseMomentum ?? 0.8, optimizer, 0), max: perGroup(name, 'maxMomentum', o.maxMomentum ?? 0.9, optimizer, 0) }
      : null;
    // PyTorch starts each group at its baseLr and its maxMomentum
    optimizer.paramGroups.forEach((g, i) => {
      g.lr = baseLrs[i]!;
      if (momenta) setCycledMomentum(g, momenta.max[i]!, beta1);
    });
    super(optimizer, name);
    this.maxLrs = maxLrs;
    this.totalSize = up + down;
    this.stepRatio = up / this.totalSize;
    this.mode = mode;
    this.gamma = checkHyper(name, 'gamma', o.gamma ?? 1, 0);
    this.#scaleFn = scaleFn;
    this.scaleMode = scaleFn === null ? builtInScaleMode(mode) : checkChoice(name, 'scaleMode', o.scaleMode ?? 'cycle', SCALE_MODES);
    this.cycleMomentum = cycleMomentum;
    this.#beta1 = beta1;
    this.#momenta = momenta;
    // the constructor's step runs from the base lrs the optimizer's groups give, as PyTorch's
    this.initialStep();
    this.baseLrs = baseLrs;
  }

  #scale(x: number): number {
    if (this.#scaleFn) {
      const v = this.#scaleFn(x);
      if (typeof v !== 'number') throw new TypeError(`CyclicLR: scaleFn(${x}) must return a number; got ${JSON.stringify(v)}`);
      return v;
    }
    return this.mode === 'triangular2' ? 1 / 2 ** (x - 1) : this.mode === 'exp_range' ? this.gamma ** x : 1;
  }

  protected getLr(): number[] {
    const cycle = Math.floor(1 + this.lastEpoch / this.totalSize);
    const x = 1 + this.lastEpoch / this.totalSize - cycle;
    const rise = x <= this.stepRatio ? x / this.stepRatio : (x - 1) / (this.stepRatio - 1);
    const scale = this.#scale(this.scaleMode === 'cycle' ? cycle : this.lastEpoch);
    const lrs = this.optimizer.paramGroups.map((_, i) => {
      const base = this.baseLr(i);
      return base + (this.maxLrs[i]! - base) * rise * scale;
    });
    if (this.#momenta) {
      const { base, max } = this.#momenta;
      this.optimizer.paramGroups.forEach((g, i) => setCycledMomentum(g, max[i]! - (max[i]! - base[i]!) * rise * scale, this.#beta1));
    }
    return lrs;
  }

  /** _scaleFnCustom last, as PyTorch's: a function is not saved (null). */
  override stateDict(): SchedulerStateDict {
    const { _scaleFnCustom, ...rest } = super.stateDict();
    return { ...rest, _scaleFnCustom };
  }

  protected ownState(): SchedulerStateDict {
    const momenta = this.#momenta ? { useBeta1: this.#beta1, baseMomentums: [...this.#momenta.base], maxMomentums: [...this.#momenta.max] } : {};
    return {
      maxLrs: [...this.maxLrs], totalSize: this.totalSize, stepRatio: this.stepRatio, mode: this.mode, gamma: this.gamma,
      scaleMode: this.scaleMode, cycleMomentum: this.cycleMomentum, ...momenta, _scaleFnCustom: null,
    };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const groups = this.optimizer.paramGroups.length;
    const maxLrs = loaded(s, 'maxLrs', this.maxLrs, (v, k) => groupNumbers(who, k, v, groups));
    const totalSize = loaded(s, 'totalSize', this.totalSize, (v, k) => checkHyper(who, k, v, 0));
    const stepRatio = loaded(s, 'stepRatio', this.stepRatio, (v, k) => checkHyper(who, k, v, 0, 1));
    const mode = loaded(s, 'mode', this.mode, (v, k) => (this.#scaleFn ? (v as CyclicMode) : checkChoice(who, k, v, MODES)));
    const gamma = loaded(s, 'gamma', this.gamma, (v, k) => checkHyper(who, k, v, 0));
    const scaleMode = loaded(s, 'scaleMode', this.scaleMode, (v, k) => checkChoice(who, k, v, SCALE_MODES));
    sameAsMade(who, 'cycleMomentum', s.cycleMomentum, this.cycleMomentum);
    if (this.#momenta) sameAsMade(who, 'useBeta1', s.useBeta1, this.#beta1);
    const momenta = this.#momenta && {
      base: loaded(s, 'baseMomentums', this.#momenta.base, (v, k) => groupNumbers(who, k, v, groups)),
      max: loaded(s, 'maxMomentums', this.#momenta.max, (v, k) => groupNumbers(who, k, v, groups)),
    };
    if (s._scaleFnCustom !== undefined && s._scaleFnCustom !== null) throw new TypeError(`${who}: _scaleFnCustom must be null (functions are not saved: the scheduler keeps its own); got ${JSON.stringify(s._scaleFnCustom)}`);
    return () => {
      Object.assign(this, { maxLrs, totalSize, stepRatio, mode, gamma });
      // PyTorch's _init_scale_fn: a built-in mode fixes what it scales by
      this.scaleMode = this.#scaleFn ? scaleMode : builtInScaleMode(mode);
      this.#momenta = momenta;
    };
  }
}

function builtInScaleMode(mode: CyclicMode): ScaleMode {
  return mode === 'exp_range' ? 'iterations' : 'cycle';
}

function checkChoice<T extends string>(who: string, key: string, value: unknown, choices: readonly T[]): T {
  if (!choices.includes(value as T)) throw new TypeError(`${who}: ${key} must be one of ${choices.map((c) => `'${c}'`).join(', ')}; got ${JSON.stringify(value)}`);
  return value as T;
}
