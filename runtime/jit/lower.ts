// Ahead-of-time stages of a compiled function, as in JAX: `tpu.compile(fn).lower(...args)`
// traces fn once into ONE program, written as StableHLO (a Lowered), and
// `await lowered.compile({ topology })` compiles it with XLA:TPU through libtpu (no TPU
// needed). Arguments may be tpu.spec placeholders: nothing is allocated and nothing runs,
// the trace only records. Tensors the body reads from outside (parameters, optimizer state)
// become program inputs too, described by their shapes; in-place updates the body makes
// (an optimizer step) are program outputs and are undone here. Not undone: JS state the body
// changes (an optimizer's step count, state an optimizer creates on its first step).
import { Tensor } from '../tensor.js';
import type { DType } from '../dtype.js';
import type { Shape } from '../shape.js';
import { currentMode, inMode } from '../modes/mode.js';
import { FusedMode } from '../modes/fused.js';
import { Region } from '../modes/region.js';
import { materialize } from '../modes/materialize.js';
import { readOptions } from '../options.js';
import { lowerToStableHlo, type StableHloModule } from '../device/stablehlo/lower-program.js';
import { compileForTpu, type TpuCompiled } from '../device/pjrt/compile.js';
import type { Program } from '../program/program.js';
import { collectTensors } from './plan.js';
import { withPlaceholders } from './spec.js';
import { traceBody } from './trace-body.js';

/** One tensor input of the lowered program: the call's tensor or spec argument #argument, or a tensor captured from outside. */
export interface LoweredInput {
  readonly shape: Shape;
  readonly dtype: DType;
  /** Index among the call's tensor and spec arguments (walk order), or null for a captured tensor. */
  readonly argument: number | null;
  /** The captured tensor (a parameter, optimizer state), null for an argument. */
  readonly captured: Tensor | null;
}

export interface LowerCompileOptions {
  /** A named TPU topology: 'v5e:1x1', 'v5e:2x2', 'v5p:2x2x1', 'v6e:2x2', ... */
  readonly topology: string;
  /** SPMD partitions the program spans (default 1). */
  readonly numPartitions?: number;
}

export class Lowered {
  constructor(
    /** The program the trace recorded. */
    readonly program: Program,
    private readonly module: StableHloModule,
    /** @main's tensor inputs, in order; its scalar inputs follow them. */
    readonly inputs: readonly LoweredInput[],
    /** The trace's values of @main's scalar inputs (numbers the body passed to ops). */
    readonly scalars: readonly number[],
  ) {}

  /** The StableHLO module (MLIR text) XLA compiles. */
  get stablehlo(): string {
    return this.module.text;
  }

  asText(): string {
    return this.module.text;
  }

  /** Compiles with XLA:TPU for a named topology: cost analysis, memory analysis, optimized HLO. */
  async compile(options: LowerCompileOptions): Promise<TpuCompiled> {
    const o = readOptions<LowerCompileOptions>('Lowered.compile', options, ['topology', 'numPartitions']);
    if (typeof o.topology !== 'string') {
      throw new TypeError(
        `Lowered.compile: topology must be a named TPU topology such as 'v5e:2x2' or 'v5p:2x2x1'; got ${JSON.stringify(o.topology)}`);
    }
    return compileForTpu(this.module.text, { topology: o.topology, numPartitions: o.numPartitions });
  }
}

/** Traces fn(...args) into one program without running it. */
export function lowerFunction(fn: (...args: never[]) => unknown, name: string, callArgs: readonly unknown[]): Lowered {
  const { args, placeholders } = withPlaceholders(callArgs);
  const argTensors = new Set<Tensor>();
  collectTensors(args, argTensors);
  const argList = [...argTensors];
  currentMode().leave('tpu.compile(...).lower'); // earlier work is not part of this program
  argList.forEach((t, j) => {
    if (t.disposed) throw new ReferenceError(`tpu.compile(${name}).lower: tensor argument #${j} ${t.describe()} was disposed`);
    if (!placeholders.has(t)) materialize(t, 'tpu.compile(...).lower');
  });
  const region = new Region(Infinity);
  const lowered = inMode(new FusedMode(region), () => {
    try {
      const result = traceBody(name, `tpu.compile(${name}).lower`, () => fn(...(args as never[])));
      // The program's outputs: what fn returns, then every value it left alive (in-place updates).
      const returned = new Set<Tensor>();
      collectTensors(result, returned);
      const required = [...returned].filter((t) => !t._buf && !t.disposed);
      for (const t of region.liveValues()) if (!returned.has(t)) required.push(t);
      return region.programOnly(required);
    } catch (e) {
      region.drop();
      throw e;
    }
  });
  if (!lowered) throw new Error(`tpu.compile(${name}).lower: the function computes nothing on the device (no program to lower)`);
  const { bound, updated, made } = lowered;
  // A tensor updated in place is read through a hidden tensor holding its old value: name the tensor itself.
  const updatedBy = new Map([...updated].map(([target, old]) => [old, target]));
  const program = bound.program();
  const inputs = bound.inputTensors.map((t, k): LoweredInput => {
    const buffer = bound.inputs[k]!;
    const arg = argList.findIndex((a) => a._buf === buffer);
    return { shape: buffer.shape, dtype: buffer.dtype, argument: arg >= 0 ? arg : null, captured: arg >= 0 ? null : updatedBy.get(t) ?? t };
  });
  // Gradients the body's backward() left on captured leaves are values of a program that never
  // runs: the leaves are left without a gradient, as after zeroGrad().
  for (const input of inputs) if (input.captured?._grad && made.has(input.captured._grad)) input.captured.grad = null;
  return new Lowered(program, lowerToStableHlo(program), inputs, bound.scalars);
}
