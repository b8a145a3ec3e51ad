// SequentialLR (torch.optim.lr_scheduler.SequentialLR): one scheduler after another, switching
// at the milestones; at a milestone the next scheduler restarts at its step 0 (by its closed
// form where it has one), as PyTorch's _update_lr(0).
import { Optimizer } from '../optimizer.js';
import { isOptions, readOptions } from '../../options.js';
import { onEachCall } from '../../jit/trace-record.js';
import { checkInteger, checkOptimizer, schedulerSteps, type LRScheduler } from './scheduler.js';
import { groupNumbers, loaded, savedInteger, type SchedulerStateDict } from './scheduler-state.js';
import { drivenSchedulers, loadDriven } from './driven-schedulers.js';

export interface SequentialLROptions {
  schedulers?: readonly LRScheduler[];
  /** The steps at which the next scheduler takes over: one fewer than the schedulers. */
  milestones?: readonly number[];
}

/** How many milestones are <= step (Python's bisect_right on the milestones as given). */
function bisectRight(milestones: readonly number[], step: number): number {
  let lo = 0;
  let hi = milestones.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (step < milestones[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function checkMilestones(who: string, key: string, value: unknown, count: number): number[] {
  if (!Array.isArray(value)) throw new TypeError(`${who}: ${key} must be an array of step numbers; got ${JSON.stringify(value)}`);
  if (value.length !== count) throw new RangeError(`${who}: ${key} must have one fewer entry than the schedulers (${count}), as in PyTorch; got ${value.length}`);
  return value.map((m, i) => checkInteger(who, `${key}[${i}]`, m, 0));
}

/**
 * Runs schedulers one after another, the next taking over at each milestone
 * (torch.optim.lr_scheduler.SequentialLR): new SequentialLR(opt, [warmup, decay], [5]).
 * @example const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 }); const S = tpu.optim.lrScheduler; const sched = new S.SequentialLR(opt, [new S.ConstantLR(opt, { factor: 0.5, totalIters: 2 }), new S.ExponentialLR(opt, 0.9)], [2]); sched.step(); sched.step(); sched.getLastLr() // [0.1]
 */
export class SequentialLR {
  readonly optimizer: Optimizer;
  /** The steps taken (PyTorch's last_epoch): 0 after the constructor. */
  lastEpoch = 0;
  readonly #schedulers: readonly LRScheduler[];
  #milestones: number[];
  #lastLr: number[];
  readonly #advance = this.#step.bind(this);

  constructor(optimizer: Optimizer, schedulers: readonly LRScheduler[] | SequentialLROptions, milestones?: readonly number[] | SequentialLROptions) {
    const who = 'SequentialLR';
    checkOptimizer(who, optimizer);
    const o: SequentialLROptions = isOptions(schedulers)
      ? readOptions<SequentialLROptions>(who, schedulers, ['schedulers', 'milestones'])
      : { schedulers: schedulers as readonly LRScheduler[], milestones: isOptions(milestones) ? readOptions<SequentialLROptions>(who, milestones, ['milestones']).milestones : milestones as readonly number[] | undefined };
    const driven = drivenSchedulers(who, o.schedulers, optimizer).schedulers;
    this.#milestones = checkMilestones(who, 'milestones', o.milestones, driven.length - 1);
    optimizer.paramGroups.forEach((g, i) => {
      if (g.initialLr === undefined) throw new TypeError(`${who}: param group ${i} has no initialLr: make the schedulers over this optimizer first`);
      g.lr = g.initialLr;
    });
    this.optimizer = optimizer;
    this.#schedulers = driven;
    // undo the steps the schedulers' constructors took, then the first one takes its own again
    for (const s of driven) s.lastEpoch -= 1;
    const first = driven[bisectRight(this.#milestones, 0)]!;
    schedulerSteps.initialStep(first);
    this.#lastLr = first.getLastLr();
  }

  /**
   * Steps the scheduler in charge, or starts the next one at a milestone. Call it after opt.step().
   * @example sched.step()
   */
  step(): void {
    if (arguments.length) throw new TypeError('SequentialLR.step: takes no argument');
    this.#advance();
    onEachCall(this.#advance);
  }

  #step(): void {
    this.lastEpoch++;
    const idx = bisectRight(this.#milestones, this.lastEpoch);
    const s = this.#schedulers[idx]!;
    if (idx > 0 && this.#milestones[idx - 1] === this.lastEpoch) schedulerSteps.restart(s);
    else schedulerSteps.step(s);
    this.#lastLr = s.getLastLr();
  }

  /**
   * The learning rate of each param group after the last step().
   * @example sched.getLastLr()
   */
  getLastLr(): number[] {
    return [...this.#lastLr];
  }

  /**
   * PyTorch's state_dict() in camelCase: _milestones, lastEpoch, _lastLr, then each scheduler's stateDict() in _schedulers.
   * @example const saved = sched.stateDict()
   */
  stateDict(): SchedulerStateDict {
    return { _milestones: [...this.#milestones], lastEpoch: this.lastEpoch, _lastLr: this.getLastLr(), _schedulers: this.#schedulers.map((s) => s.stateDict()) };
  }

  /**
   * Loads a stateDict() (its schedulers' states too); load the optimizer's state as well.
   * @example sched.loadStateDict(saved)
   */
  loadStateDict(saved: SchedulerStateDict): void {
    const who = 'SequentialLR.loadStateDict';
    const s = readOptions<SchedulerStateDict>(who, saved, ['_milestones', 'lastEpoch', '_lastLr', '_schedulers']);
    const milestones = loaded(s, '_milestones', this.#milestones, (v, k) => checkMilestones(who, k, v, this.#milestones.length));
    const lastEpoch = loaded(s, 'lastEpoch', this.lastEpoch, (v, k) => savedInteger(who, k, v, 0));
    const lastLr = loaded(s, '_lastLr', this.#lastLr, (v, k) => groupNumbers(who, k, v, this.optimizer.paramGroups.length));
    if (s._schedulers !== undefined) loadDriven(who, this.#schedulers, s._schedulers);
    this.#milestones = milestones;
    this.lastEpoch = lastEpoch;
    this.#lastLr = lastLr;
  }
}
