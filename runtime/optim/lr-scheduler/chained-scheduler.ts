// ChainedScheduler (torch.optim.lr_scheduler.ChainedScheduler): one step() steps every
// scheduler in turn, each scaling the lr the one before it left (the chainable forms).
import { Optimizer } from '../optimizer.js';
import { isOptions, readOptions } from '../../options.js';
import { onEachCall } from '../../jit/trace-record.js';
import { numberValue } from '../../jit/live-number.js';
import { checkOptimizer, schedulerSteps, type LRScheduler } from './scheduler.js';
import { groupNumbers, loaded, type SchedulerStateDict } from './scheduler-state.js';
import { drivenSchedulers, loadDriven } from './driven-schedulers.js';

/**
 * Steps every scheduler at each step(), in order (torch.optim.lr_scheduler.ChainedScheduler):
 * new ChainedScheduler([s1, s2]) (the optimizer, the schedulers' own, may follow: as PyTorch's
 * optimizer= argument, positionally or { optimizer }).
 * @example const opt = new tpu.optim.SGD(model.parameters(), { lr: 1 }); const S = tpu.optim.lrScheduler; const sched = new S.ChainedScheduler([new S.ConstantLR(opt, { factor: 0.5, totalIters: 2 }), new S.ExponentialLR(opt, 0.5)]); sched.step(); sched.getLastLr() // [0.25]
 */
export class ChainedScheduler {
  readonly optimizer: Optimizer;
  readonly #schedulers: readonly LRScheduler[];
  #lastLr: number[];
  readonly #advance = this.#step.bind(this);

  constructor(schedulers: readonly LRScheduler[], optimizer?: Optimizer | { optimizer?: Optimizer }) {
    const who = 'ChainedScheduler';
    const given = isOptions(optimizer) ? readOptions<{ optimizer: Optimizer }>(who, optimizer, ['optimizer']).optimizer : optimizer;
    if (given !== undefined && given !== null) checkOptimizer(who, given);
    const driven = drivenSchedulers(who, schedulers, given ?? null);
    this.optimizer = driven.optimizer;
    this.#schedulers = driven.schedulers;
    this.#lastLr = this.#currentLrs();
  }

  #currentLrs(): number[] {
    return this.optimizer.paramGroups.map((g) => numberValue(g.lr) as number);
  }

  /**
   * Steps each scheduler in turn. Call it after opt.step().
   * @example sched.step()
   */
  step(): void {
    if (arguments.length) throw new TypeError('ChainedScheduler.step: takes no argument');
    this.#advance();
    onEachCall(this.#advance);
  }

  #step(): void {
    for (const s of this.#schedulers) schedulerSteps.step(s);
    this.#lastLr = this.#currentLrs();
  }

  /**
   * The learning rate of each param group after the last step().
   * @example sched.getLastLr()
   */
  getLastLr(): number[] {
    return [...this.#lastLr];
  }

  /**
   * PyTorch's state_dict() in camelCase: _lastLr, then each scheduler's stateDict() in _schedulers.
   * @example const saved = sched.stateDict()
   */
  stateDict(): SchedulerStateDict {
    return { _lastLr: this.getLastLr(), _schedulers: this.#schedulers.map((s) => s.stateDict()) };
  }

  /**
   * Loads a stateDict() (its schedulers' states too); load the optimizer's state as well.
   * @example sched.loadStateDict(saved)
   */
  loadStateDict(saved: SchedulerStateDict): void {
    const who = 'ChainedScheduler.loadStateDict';
    const s = readOptions<SchedulerStateDict>(who, saved, ['_lastLr', '_schedulers']);
    const lastLr = loaded(s, '_lastLr', this.#lastLr, (v, k) => groupNumbers(who, k, v, this.optimizer.paramGroups.length));
    if (s._schedulers !== undefined) loadDriven(who, this.#schedulers, s._schedulers);
    this.#lastLr = lastLr;
  }
}
