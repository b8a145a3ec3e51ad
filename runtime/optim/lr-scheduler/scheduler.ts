// Base of the learning-rate schedulers (torch.optim.lr_scheduler.LRScheduler): each step()
// sets every param group's lr to the scheduler's next value, computed as PyTorch's step()
// computes it (get_lr: from the group's current lr, so schedulers chain and a learning rate
// set by hand carries on). The optimizer reads group.lr as a live number, so a tpu.compile'd
// training step sees each new value without recompiling; step() called inside a compiled
// function is a per-call effect, redone by every replay.
import { numberValue, specialized, specializedOptions } from '../../jit/live-number.js';
import { onEachCall } from '../../jit/trace-record.js';
import { withPositional, readOptions } from '../../options.js';
import { checkHyper, Optimizer } from '../optimizer.js';
import { describeValue } from '../../distributed/describe-value.js';
import { groupNumbers, loaded, sameAsMade, savedInteger, type SchedulerStateDict } from './scheduler-state.js';

/** The keys every scheduler's stateDict() has after its own, in PyTorch's order. */
const COMMON_KEYS = ['baseLrs', 'lastEpoch', '_stepCount', '_isInitial', '_getLrCalledWithinStep', '_lastLr'] as const;

/**
 * What SequentialLR and ChainedScheduler do to the schedulers they drive, as PyTorch's do:
 * step one without registering a tpu.compile replay (the driver registers its own), redo one's
 * constructor step (_initial_step), restart one at step 0 (_update_lr(0)).
 */
export let schedulerSteps: {
  readonly step: (s: LRScheduler) => void;
  readonly initialStep: (s: LRScheduler) => void;
  readonly restart: (s: LRScheduler) => void;
};

/**
 * Base of the learning-rate schedulers (torch.optim.lr_scheduler.LRScheduler).
 * @example const sched = new tpu.optim.lrScheduler.StepLR(new tpu.optim.SGD(model.parameters(), { lr: 0.1 }), 30); sched.step(); sched.getLastLr() // [0.1]
 */
export abstract class LRScheduler {
  /** Each group's learning rate when the first scheduler was made (its initialLr). */
  baseLrs: number[];
  /** The steps taken (PyTorch's last_epoch): 0 after the constructor. */
  lastEpoch = -1;
  /** True during the constructor's step. */
  protected initial = false;
  #lastLr: number[] = [];
  /** step() calls, the constructor's included (PyTorch's _step_count). */
  #stepCount = 0;
  readonly #advance = this.#step.bind(this);

  static {
    schedulerSteps = {
      step: (s) => s.#step(),
      initialStep: (s) => {
        s.#stepCount = 0;
        s.initialStep();
      },
      restart: (s) => s.#restart(),
    };
  }

  constructor(readonly optimizer: Optimizer, readonly name: string) {
    checkOptimizer(name, optimizer);
    // PyTorch's setdefault: a second scheduler on the same optimizer keeps the first one's base
    for (const group of optimizer.paramGroups) group.initialLr ??= this.lrOf(group);
    this.baseLrs = optimizer.paramGroups.map((g) => g.initialLr!);
  }

  /** The constructor's step (lastEpoch 0); each subclass calls it once its fields are set. */
  protected initialStep(): void {
    this.initial = true;
    try {
      this.#step();
    } finally {
      this.initial = false;
    }
  }

  /**
   * Sets each param group's lr to the schedule's next value. Call it after opt.step().
   * @example sched.step()
   */
  step(): void {
    if (arguments.length) throw new TypeError(`${this.name}.step: takes no argument (PyTorch's deprecated step(epoch) is not supported)`);
    this.#advance();
    onEachCall(this.#advance);
  }

  #step(): void {
    this.#stepCount++;
    this.lastEpoch++;
    const lrs = this.getLr();
    this.optimizer.paramGroups.forEach((g, i) => (g.lr = lrs[i]!));
    this.#lastLr = this.optimizer.paramGroups.map((g) => this.lrOf(g));
  }

  /** PyTorch's _update_lr(0): back to step 0, by the closed form where the schedule has one (a SequentialLR milestone). */
  #restart(): void {
    this.lastEpoch = 0;
    const lrs = this.closedFormLr() ?? this.getLr();
    this.optimizer.paramGroups.forEach((g, i) => (g.lr = lrs[i]!));
    this.#lastLr = this.optimizer.paramGroups.map((g) => this.lrOf(g));
  }

  /**
   * The learning rate of each param group after the last step().
   * @example sched.getLastLr() // [0.1]
   */
  getLastLr(): number[] {
    return [...this.#lastLr];
  }

  /**
   * The schedule's state, to resume it (PyTorch's state_dict() in camelCase: its own settings,
   * then baseLrs, lastEpoch, _stepCount, _isInitial, _getLrCalledWithinStep, _lastLr). LambdaLR's
   * functions are not saved (null each, as PyTorch's None); the optimizer saves its own.
   * @example const saved = sched.stateDict(); sched2.loadStateDict(saved)
   */
  stateDict(): SchedulerStateDict {
    return {
      ...this.ownState(),
      baseLrs: [...this.baseLrs],
      lastEpoch: this.lastEpoch,
      _stepCount: this.#stepCount,
      _isInitial: false,
      _getLrCalledWithinStep: false,
      _lastLr: this.getLastLr(),
    };
  }

  /**
   * Loads a stateDict(), as PyTorch's load_state_dict() (keys it lacks keep their values). Load
   * the optimizer's state too: the next step() continues from each group's current lr.
   * @example opt.loadStateDict(savedOpt); sched.loadStateDict(savedSched)
   */
  loadStateDict(saved: SchedulerStateDict): void {
    const who = `${this.name}.loadStateDict`;
    const s = readOptions<SchedulerStateDict>(who, saved, [...Object.keys(this.ownState()), ...COMMON_KEYS]);
    const groups = this.optimizer.paramGroups.length;
    // all checked before anything is set
    const baseLrs = loaded(s, 'baseLrs', this.baseLrs, (v, k) => groupNumbers(who, k, v, groups));
    const lastLr = loaded(s, '_lastLr', this.#lastLr, (v, k) => groupNumbers(who, k, v, groups));
    // -1: a SequentialLR's scheduler not yet in charge (its constructor's step undone)
    const lastEpoch = loaded(s, 'lastEpoch', this.lastEpoch, (v, k) => savedInteger(who, k, v, -1));
    const stepCount = loaded(s, '_stepCount', this.#stepCount, (v, k) => savedInteger(who, k, v, 0));
    sameAsMade(who, '_isInitial', s._isInitial, false);
    sameAsMade(who, '_getLrCalledWithinStep', s._getLrCalledWithinStep, false);
    const setOwn = this.loadOwnState(s, who);
    setOwn();
    this.baseLrs = baseLrs;
    this.#lastLr = lastLr;
    this.lastEpoch = lastEpoch;
    this.#stepCount = stepCount;
  }

  /** The scheduler's own settings in its stateDict(), PyTorch's order and names in camelCase. */
  protected abstract ownState(): SchedulerStateDict;

  /** Checks the saved own settings (those given) and returns what sets them. */
  protected abstract loadOwnState(saved: SchedulerStateDict, who: string): () => void;

  /** Each group's next learning rate (PyTorch's get_lr), lastEpoch already advanced. */
  protected abstract getLr(): number[];

  /** Each group's learning rate at lastEpoch from the base lrs alone (PyTorch's _get_closed_form_lr), where the schedule has one. */
  protected closedFormLr(): number[] | null {
    return null;
  }

  /**
   * Group i's base lr. A group added after the scheduler was made has none: an error, where
   * PyTorch's raises too (schedules that only scale the current lr step it as PyTorch's do).
   */
  protected baseLr(i: number): number {
    if (i >= this.baseLrs.length) throw new RangeError(`${this.name}.step: param group ${i} was added after the scheduler was made and has no base lr: make the scheduler after addParamGroup`);
    return this.baseLrs[i]!;
  }

  /** A group's current learning rate (the value of a live number set from a compiled function's argument). */
  protected lrOf(group: { lr: number }): number {
    // no range check: PyTorch's schedules may go below 0 (OneCycleLR's linear phases stepped
    // past totalSteps - 1); the optimizer's step rejects a negative lr
    const lr = numberValue(group.lr);
    if (typeof lr !== 'number') throw new TypeError(`${this.name}: param group ${this.optimizer.paramGroups.indexOf(group as never)}'s lr must be a number; got ${JSON.stringify(lr)}`);
    return lr;
  }

  /** The current learning rates of the groups. */
  protected currentLrs(): number[] {
    return this.optimizer.paramGroups.map((g) => this.lrOf(g));
  }
}

/** A scheduler's optimizer argument. */
export function checkOptimizer(who: string, optimizer: unknown): asserts optimizer is Optimizer {
  if (!(optimizer instanceof Optimizer)) throw new TypeError(`${who}: optimizer must be a tpu.optim optimizer (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam); got ${describeValue(optimizer)}`);
}

/**
 * A scheduler's options, with its first argument given positionally or among them
 * (`new StepLR(opt, 30, { gamma })` or `new StepLR(opt, { stepSize: 30, gamma })`). A
 * tpu.compile number argument among them is its value (the schedule is JS arithmetic).
 */
export function schedulerOptions<T extends object>(name: string, first: string, value: unknown, options: unknown, accepted: readonly (keyof T & string)[]): Partial<T> {
  value = specialized(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value !== 'function') {
    if (options !== undefined) throw new TypeError(`${name}: give ${first} positionally with options after it, or one options object; got two objects`);
    return specializedOptions(readOptions<T>(name, value, accepted));
  }
  return specializedOptions(withPositional(name, first, value, readOptions<T>(name, options, accepted) as Record<string, unknown>, accepted) as Partial<T>);
}

/** An integer option in [lo, Infinity). */
export function checkInteger(who: string, name: string, value: unknown, lo: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < lo) throw new RangeError(`${who}: ${name} must be an integer >= ${lo}; got ${JSON.stringify(value)}`);
  return value;
}

/** A required option: its name and what it is, when missing. */
export function required<T>(who: string, name: string, value: T | undefined, what: string): T {
  if (value === undefined) throw new TypeError(`${who}: ${name} is required (${what})`);
  return value;
}

/** One value per param group: a number for all of them, or an array of one per group (PyTorch's _format_param). */
export function perGroup(who: string, name: string, value: number | readonly number[], optimizer: Optimizer, lo: number): number[] {
  const n = optimizer.paramGroups.length;
  if (Array.isArray(value)) {
    if (value.length !== n) throw new RangeError(`${who}: ${name} must have one value per param group (${n}); got ${value.length}`);
    return value.map((v, i) => checkHyper(who, `${name}[${i}]`, v, lo));
  }
  return Array.from({ length: n }, () => checkHyper(who, name, value, lo));
}
