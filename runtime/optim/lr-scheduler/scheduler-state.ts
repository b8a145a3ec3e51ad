// Checks for the values of a scheduler's saved state (torch.optim.lr_scheduler's state_dict(),
// camelCase): each names the scheduler, the key, what it must be and what came.

/** A scheduler's stateDict(): PyTorch's scheduler __dict__ without the optimizer, in camelCase. */
export type SchedulerStateDict = Record<string, unknown>;

/** A saved list of one number per param group. */
export function groupNumbers(who: string, key: string, value: unknown, groups: number): number[] {
  if (!Array.isArray(value) || value.length !== groups || !value.every((v) => typeof v === 'number')) {
    throw new TypeError(`${who}: ${key} must be an array of ${groups} numbers (one per param group); got ${JSON.stringify(value)}`);
  }
  return [...value];
}

/** A saved integer >= lo. */
export function savedInteger(who: string, key: string, value: unknown, lo: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < lo) throw new TypeError(`${who}: ${key} must be an integer >= ${lo}; got ${JSON.stringify(value)}`);
  return value;
}

/** A saved value the scheduler's optimizer or constructor fixed: it must be what this one has. */
export function sameAsMade<T>(who: string, key: string, value: unknown, mine: T): T {
  if (value !== undefined && value !== mine) throw new TypeError(`${who}: ${key} is ${JSON.stringify(mine)} for this scheduler (set by its optimizer and constructor); got ${JSON.stringify(value)}`);
  return mine;
}

/** saved[key] checked, or `current` where the saved state lacks it (PyTorch's dict update keeps it). */
export function loaded<T>(saved: SchedulerStateDict, key: string, current: T, check: (value: unknown, key: string) => T): T {
  return saved[key] === undefined ? current : check(saved[key], key);
}
