// V8's interrupt budget (bytecode units a function runs before V8 considers optimizing it)
// around a cell's code. The tensor runtime halves V8's default when it loads, for its hot loops
// (runtime/v8-tiering.ts). The kernel's own code (the protocol, TypeScript's parser, binder and
// checker) runs once a cell: under the runtime's budget V8 optimized about twice as many of its
// functions over a session's first few hundred cells, a few ms of compiling each, on the cores
// the cells need (docs/kernel.md, Speed). So the runtime's budget holds while a cell's code runs,
// and V8's default around it; while the kernel practises cells in a quiet spell (jit-warm-up.ts),
// a small one. The flag is the process's (worker threads included), so the state
// here is too.
import v8 from 'node:v8';

/** V8's own default in Node 20 (V8 11.3). */
export const KERNEL_INTERRUPT_BUDGET = 67_584;
/**
 * While the kernel practises cells (jit-warm-up.ts): about a thirtieth of V8's default, so what
 * the practice runs is optimized within it (with the default, 400 practice cells changed the
 * next cells' CPU little; docs/kernel.md, Speed).
 */
export const PRACTICE_INTERRUPT_BUDGET = 2048;

/** The runtime's budget; null until it loads, or where the user chose one (left alone). */
let runtimeBudget: number | null = null;

/** The runtime loaded and set its budget: the kernel's own holds until a cell's code runs. */
export function runtimeLoaded(budget: number | null): void {
  runtimeBudget = budget;
  setBudget(KERNEL_INTERRUPT_BUDGET);
}

/** Runs a cell's code with the runtime's interrupt budget, and restores the kernel's after it. */
export async function withRuntimeTiering<T>(run: () => Promise<T>): Promise<T> {
  setBudget(runtimeBudget);
  try {
    return await run();
  } finally {
    setBudget(KERNEL_INTERRUPT_BUDGET);
  }
}

/**
 * Runs practice cells (jit-warm-up.ts) with a small budget, so V8 optimizes the kernel's functions
 * within the practice, in a quiet spell, not over the cells after it; the kernel's budget after.
 */
export function withPracticeTiering(practise: () => void): void {
  setBudget(PRACTICE_INTERRUPT_BUDGET);
  try {
    practise();
  } finally {
    setBudget(KERNEL_INTERRUPT_BUDGET);
  }
}

function setBudget(budget: number | null): void {
  if (runtimeBudget !== null && budget !== null) v8.setFlagsFromString(`--interrupt-budget=${budget}`);
}
