// The schedulers that SequentialLR and ChainedScheduler drive: tpu.optim.lrScheduler schedulers
// of one optimizer, as PyTorch's checks (ReduceLROnPlateau's step takes a metric, so it cannot be
// driven), and the state of each in a stateDict().
import type { Optimizer } from '../optimizer.js';
import { describeValue } from '../../distributed/describe-value.js';
import { LRScheduler } from './scheduler.js';
import type { SchedulerStateDict } from './scheduler-state.js';

/** The schedulers array, checked: at least one, each an LRScheduler of `optimizer`. */
export function drivenSchedulers(who: string, schedulers: unknown, optimizer: Optimizer | null): { schedulers: readonly LRScheduler[]; optimizer: Optimizer } {
  if (!Array.isArray(schedulers) || schedulers.length === 0) throw new TypeError(`${who}: schedulers must be an array of at least one scheduler; got ${describeValue(schedulers)}`);
  schedulers.forEach((s, i) => {
    if (!(s instanceof LRScheduler)) {
      const plateau = (s as { constructor?: { name?: string } } | null)?.constructor?.name === 'ReduceLROnPlateau';
      throw new TypeError(`${who}: schedulers[${i}] must be a tpu.optim.lrScheduler scheduler${plateau ? ' other than ReduceLROnPlateau (its step takes a metric), as in PyTorch' : ` (StepLR, LinearLR, ...); got ${describeValue(s)}`}`);
    }
  });
  const opt = optimizer ?? (schedulers[0] as LRScheduler).optimizer;
  schedulers.forEach((s: LRScheduler, i) => {
    if (s.optimizer !== opt) throw new TypeError(`${who}: every scheduler must belong to the same optimizer, as in PyTorch; schedulers[${i}] (${s.name}) has another one`);
  });
  return { schedulers: [...schedulers] as LRScheduler[], optimizer: opt };
}

/** Loads each driven scheduler's saved state (an array of one stateDict() each). */
export function loadDriven(who: string, schedulers: readonly LRScheduler[], saved: unknown): void {
  if (!Array.isArray(saved) || saved.length !== schedulers.length) throw new TypeError(`${who}: _schedulers must be an array of ${schedulers.length} scheduler states; got ${describeValue(saved)}`);
  schedulers.forEach((s, i) => s.loadStateDict(saved[i] as SchedulerStateDict));
}
