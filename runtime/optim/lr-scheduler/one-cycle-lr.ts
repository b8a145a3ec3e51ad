// The 1cycle policy (torch.optim.lr_scheduler.OneCycleLR): the lr rises from maxLr / divFactor
// to maxLr over pctStart of the steps, then falls to that / finalDivFactor; the momentum (SGD's
// momentum, Adam's beta1) moves the opposite way between maxMomentum and baseMomentum.
import type { Optimizer } from '../optimizer.js';
import { checkHyper } from '../optimizer.js';
import { checkInteger, checkOptimizer, LRScheduler, perGroup, schedulerOptions } from './scheduler.js';
import { loaded, sameAsMade, type SchedulerStateDict } from './scheduler-state.js';
import { cyclesBeta1, setCycledMomentum } from './cycled-momentum.js';

export interface OneCycleLROptions {
  maxLr?: number | readonly number[];
  totalSteps?: number;
  epochs?: number;
  stepsPerEpoch?: number;
  pctStart?: number;
  annealStrategy?: 'cos' | 'linear';
  cycleMomentum?: boolean;
  baseMomentum?: number | readonly number[];
  maxMomentum?: number | readonly number[];
  divFactor?: number;
  finalDivFactor?: number;
  threePhase?: boolean;
}

const KEYS = ['maxLr', 'totalSteps', 'epochs', 'stepsPerEpoch', 'pctStart', 'annealStrategy', 'cycleMomentum', 'baseMomentum', 'maxMomentum', 'divFactor', 'finalDivFactor', 'threePhase'] as const;

type Level = 'initial' | 'max' | 'min';
/** A phase's levels in a stateDict(), named as PyTorch's param group keys. */
const LR_KEYS: Readonly<Record<string, Level>> = { initialLr: 'initial', maxLr: 'max', minLr: 'min' };
const MOMENTUM_KEYS: Readonly<Record<string, 'max' | 'base'>> = { maxMomentum: 'max', baseMomentum: 'base' };
/** One phase: up to which step (a fraction of the steps, minus 1), and the levels it goes between. */
interface Phase {
  readonly endStep: number;
  readonly lr: readonly [Level, Level];
  readonly momentum: readonly ['max' | 'base', 'max' | 'base'];
}

/**
 * The 1cycle learning-rate policy, stepped after each batch (torch.optim.lr_scheduler.OneCycleLR,
 * cosine annealing by default; give totalSteps, or epochs and stepsPerEpoch).
 * @example const sched = new tpu.optim.lrScheduler.OneCycleLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), 1, { totalSteps: 10 }); sched.getLastLr() // [0.04]
 */
export class OneCycleLR extends LRScheduler {
  totalSteps: number;
  annealStrategy: 'cos' | 'linear';
  readonly cycleMomentum: boolean;
  #phases: readonly Phase[];
  readonly #lrs: readonly Record<Level, number>[];
  readonly #momenta: readonly Record<'max' | 'base', number>[];
  /** Whether the momentum cycled is Adam's beta1 (else SGD's momentum). */
  readonly #beta1: boolean;

  constructor(optimizer: Optimizer, maxLr: number | readonly number[] | OneCycleLROptions, options?: OneCycleLROptions) {
    const name = 'OneCycleLR';
    checkOptimizer(name, optimizer);
    const o = schedulerOptions<OneCycleLROptions>(name, 'maxLr', maxLr, options, [...KEYS]);
    if (o.maxLr === undefined) throw new TypeError(`${name}: maxLr is required (the peak learning rate, or one per param group)`);
    let totalSteps: number;
    if (o.totalSteps !== undefined) totalSteps = checkInteger(name, 'totalSteps', o.totalSteps, 1);
    else if (o.epochs !== undefined && o.stepsPerEpoch !== undefined) totalSteps = checkInteger(name, 'epochs', o.epochs, 1) * checkInteger(name, 'stepsPerEpoch', o.stepsPerEpoch, 1);
    else throw new TypeError(`${name}: give totalSteps, or epochs and stepsPerEpoch`);
    const pct = checkHyper(name, 'pctStart', o.pctStart ?? 0.3, 0, 1);
    const anneal = checkAnneal(name, 'annealStrategy', o.annealStrategy ?? 'cos');
    const cycleMomentum = o.cycleMomentum ?? true;
    if (typeof cycleMomentum !== 'boolean') throw new TypeError(`${name}: cycleMomentum must be true or false; got ${JSON.stringify(cycleMomentum)}`);
    const divFactor = checkHyper(name, 'divFactor', o.divFactor ?? 25, 0);
    const finalDivFactor = checkHyper(name, 'finalDivFactor', o.finalDivFactor ?? 1e4, 0);
    const maxLrs = perGroup(name, 'maxLr', o.maxLr, optimizer, 0);
    // the schedule starts at maxLr / divFactor: that is each group's base (PyTorch sets initial_lr)
    const lrs = maxLrs.map((max) => ({ initial: max / divFactor, max, min: max / divFactor / finalDivFactor }));
    optimizer.paramGroups.forEach((g, i) => (g.initialLr = lrs[i]!.initial));
    let momenta: Record<'max' | 'base', number>[] = [];
    let beta1 = false;
    if (cycleMomentum) {
      beta1 = cyclesBeta1(name, optimizer);
      const max = perGroup(name, 'maxMomentum', o.maxMomentum ?? 0.95, optimizer, 0);
      const base = perGroup(name, 'baseMomentum', o.baseMomentum ?? 0.85, optimizer, 0);
      momenta = max.map((m, i) => ({ max: m, base: base[i]! }));
    }
    super(optimizer, name);
    this.totalSteps = totalSteps;
    this.annealStrategy = anneal;
    this.cycleMomentum = cycleMomentum;
    this.#lrs = lrs;
    this.#momenta = momenta;
    this.#beta1 = beta1;
    optimizer.paramGroups.forEach((g, i) => momenta[i] && setCycledMomentum(g, momenta[i].max, beta1));
    this.#phases = o.threePhase
      ? [
        { endStep: pct * totalSteps - 1, lr: ['initial', 'max'], momentum: ['max', 'base'] },
        { endStep: 2 * pct * totalSteps - 2, lr: ['max', 'initial'], momentum: ['base', 'max'] },
        { endStep: totalSteps - 1, lr: ['initial', 'min'], momentum: ['max', 'max'] },
      ]
      : [
        { endStep: pct * totalSteps - 1, lr: ['initial', 'max'], momentum: ['max', 'base'] },
        { endStep: totalSteps - 1, lr: ['max', 'min'], momentum: ['base', 'max'] },
      ];
    this.initialStep();
  }

  /** PyTorch's own names: _schedulePhases (levels named as its param group keys), _annealFuncType, useBeta1. */
  protected ownState(): SchedulerStateDict {
    return {
      totalSteps: this.totalSteps,
      _schedulePhases: this.#phases.map((p) => ({
        endStep: p.endStep,
        startLr: `${p.lr[0]}Lr`,
        endLr: `${p.lr[1]}Lr`,
        startMomentum: `${p.momentum[0]}Momentum`,
        endMomentum: `${p.momentum[1]}Momentum`,
      })),
      _annealFuncType: this.annealStrategy,
      cycleMomentum: this.cycleMomentum,
      useBeta1: this.#beta1,
    };
  }

  protected loadOwnState(s: SchedulerStateDict, who: string): () => void {
    const totalSteps = loaded(s, 'totalSteps', this.totalSteps, (v, k) => checkInteger(who, k, v, 1));
    const phases = loaded(s, '_schedulePhases', this.#phases, (v, k) => {
      if (!Array.isArray(v) || v.length === 0) throw new TypeError(`${who}: ${k} must be an array of phases; got ${JSON.stringify(v)}`);
      return v.map((p: Record<string, unknown>, i): Phase => {
        const level = <L>(key: string, names: Readonly<Record<string, L>>): L => {
          const given = p?.[key];
          if (typeof given !== 'string' || !Object.hasOwn(names, given)) throw new TypeError(`${who}: ${k}[${i}].${key} must be one of ${Object.keys(names).map((n) => `'${n}'`).join(', ')}; got ${JSON.stringify(given)}`);
          return names[given]!;
        };
        if (typeof p?.endStep !== 'number') throw new TypeError(`${who}: ${k}[${i}].endStep must be a number; got ${JSON.stringify(p?.endStep)}`);
        return {
          endStep: p.endStep,
          lr: [level('startLr', LR_KEYS), level('endLr', LR_KEYS)],
          momentum: [level('startMomentum', MOMENTUM_KEYS), level('endMomentum', MOMENTUM_KEYS)],
        };
      });
    });
    const anneal = loaded(s, '_annealFuncType', this.annealStrategy, (v, k) => checkAnneal(who, k, v));
    sameAsMade(who, 'cycleMomentum', s.cycleMomentum, this.cycleMomentum);
    sameAsMade(who, 'useBeta1', s.useBeta1, this.#beta1);
    return () => {
      this.totalSteps = totalSteps;
      this.#phases = phases;
      this.annealStrategy = anneal;
    };
  }

  #anneal(start: number, end: number, pct: number): number {
    return this.annealStrategy === 'cos' ? end + ((start - end) / 2) * (Math.cos(Math.PI * pct) + 1) : (end - start) * pct + start;
  }

  protected getLr(): number[] {
    const step = this.lastEpoch;
    if (step > this.totalSteps) throw new RangeError(`OneCycleLR: stepped ${step} times, past totalSteps (${this.totalSteps})`);
    return this.optimizer.paramGroups.map((group, i) => {
      this.baseLr(i); // a group added later has no cycle (PyTorch: no initial_lr)
      let start = 0;
      let k = 0;
      while (step > this.#phases[k]!.endStep && k < this.#phases.length - 1) start = this.#phases[k++]!.endStep;
      const phase = this.#phases[k]!;
      const pct = (step - start) / (phase.endStep - start);
      if (this.cycleMomentum) setCycledMomentum(group, this.#anneal(this.#momenta[i]![phase.momentum[0]], this.#momenta[i]![phase.momentum[1]], pct), this.#beta1);
      return this.#anneal(this.#lrs[i]![phase.lr[0]], this.#lrs[i]![phase.lr[1]], pct);
    });
  }
}

function checkAnneal(who: string, key: string, value: unknown): 'cos' | 'linear' {
  if (value !== 'cos' && value !== 'linear') throw new TypeError(`${who}: ${key} must be 'cos' or 'linear'; got ${JSON.stringify(value)}`);
  return value;
}
