// How soon V8 optimizes the runtime's code. A recorded op passes through dozens of small
// functions (dispatch, the mode, autograd's tape, scopes, binding, the device thread's loop),
// each run a few times per op: with V8's default interrupt budget (67,584 bytecode units before
// a function is considered for optimization) a fused W6 step was still tiering up after
// 1,000 steps, and ran ~20% slower in its steady state than with half that budget (host
// recording, the cut, and the device thread's JS around each program; docs/runtime.md, W6).
// Like gc-pressure.ts's flags, it is set for the whole process, before the device thread starts;
// a budget given on the command line (node --interrupt-budget=N) or TPU_KERNEL_INTERRUPT_BUDGET
// (a number; 0 leaves V8's default) is kept. The kernel sets it only while a cell's code runs
// (kernel/session/cells/cell-tiering.ts): its own code runs once a cell, and optimizing it sooner costs more
// compiling than it saves.
import { setFlagsFromString } from 'node:v8';

/** Bytecode units a function runs before V8 considers optimizing it (V8's default: 67,584). */
export const INTERRUPT_BUDGET = 32768;

function chosenBudget(): number | null {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS?.split(/\s+/) ?? [])];
  if (given.some((a) => a.startsWith('--interrupt-budget') || a.startsWith('--interrupt_budget'))) return null;
  const env = process.env.TPU_KERNEL_INTERRUPT_BUDGET;
  if (env === undefined || env === '') return INTERRUPT_BUDGET;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`TPU_KERNEL_INTERRUPT_BUDGET must be a whole number of bytecode units (0: V8's default); got ${JSON.stringify(env)}`);
  return n === 0 ? null : n;
}

/** The budget set for the runtime's code; null where the command line or TPU_KERNEL_INTERRUPT_BUDGET=0 leaves it alone. */
export const runtimeInterruptBudget = chosenBudget();
if (runtimeInterruptBudget !== null) setFlagsFromString(`--interrupt-budget=${runtimeInterruptBudget}`);
