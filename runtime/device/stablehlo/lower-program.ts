// Lowers a program to a StableHLO module (MLIR text) whose @main takes the buffer inputs,
// then the scalars as 0-d tensors (a new learning rate is a new argument, never a
// recompile), and returns the outputs, then the failure code of each device check (XLA has
// no assert: the backend reads the codes and fails the launch, ops/device-check.ts). Every
// value keeps its dtype: bfloat16 is bf16.
import { valueOf, verifyProgram, type Program } from '../../program/program.js';
import { ELEMENT_TYPE, MlirFunction, typeText, type TensorType } from './mlir-function.js';
import { stablehloLowerings, type StableHloLowerContext } from './lowerings/index.js';
import type { DeviceCheck } from '../device-check.js';

export interface StableHloModule {
  /** The module as MLIR text (what compileForTpu and XLA compile). */
  readonly text: string;
  /** Types of @main's arguments: the program's inputs, then its scalars. */
  readonly parameters: readonly TensorType[];
  /** The program's outputs, then one int32 scalar per check (0: passed, else the failure's code). */
  readonly results: readonly TensorType[];
  /** What each device check says when its code is not 0. */
  readonly checks: readonly DeviceCheck[];
}

export function lowerToStableHlo(program: Program): StableHloModule {
  verifyProgram(program);
  const fn = new MlirFunction();
  const parameters: TensorType[] = [
    ...program.inputs.map((v) => ({ shape: v.shape, element: ELEMENT_TYPE[v.dtype] })),
    ...program.scalars.map((d) => ({ shape: [], element: ELEMENT_TYPE[d] })),
  ];
  const values = parameters.map((t) => fn.param(t));
  const ctx: StableHloLowerContext = { fn, checks: [] };
  for (const n of program.nodes) {
    const types = { inputs: n.inputs.map((id) => valueOf(program, id)), output: n };
    const out = stablehloLowerings.get(n.op)(ctx, n.inputs.map((id) => values[id]!), n.attrs, types);
    const want = typeText({ shape: n.shape, element: ELEMENT_TYPE[n.dtype] });
    const got = typeText(fn.typeOf(out));
    if (got !== want) throw new Error(`stablehlo lowering of ${n.op}: made ${got}, the program says ${want}`);
    values.push(out);
  }
  const outputs = [...program.outputs.map((id) => values[id]!), ...ctx.checks.map((c) => c.code)];
  return { text: fn.moduleText('program', outputs), parameters, results: outputs.map((v) => fn.typeOf(v)), checks: ctx.checks.map((c) => c.check) };
}
