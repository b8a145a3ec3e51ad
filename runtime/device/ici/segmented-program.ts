// A chip's program that holds collectives runs as ONE program in segments: the parts between
// collectives are compiled by the backend as programs of their own, and each collective is a
// step of the device thread between them (collective-step.ts). Values crossing a cut stay in
// device buffers; the collective reads its input's host copy and uploads its result.
import type { Backend, BackendBuffer } from '../backend.js';
import type { Program, ProgramNode, ProgramValue } from '../../program/program.js';
import { valueOf } from '../../program/program.js';
import { COLLECTIVE_PRIMITIVES } from '../../program/collective-nodes.js';
import type { DType } from '../../dtype.js';
import { CollectiveNotRun, runCollective } from './collective-step.js';
import { Failed, type IciLinks } from './links.js';
import type { CollectiveTiming, FailureRoot } from '../protocol.js';

type Step<E> =
  /** Value ids (of the whole program) the part reads as buffers and scalars, and those it writes. */
  | { readonly kind: 'part'; readonly exe: E; readonly ins: readonly number[]; readonly scalars: readonly number[]; readonly outs: readonly number[] }
  | { readonly kind: 'collective'; readonly node: ProgramNode; readonly input: number; readonly output: number; readonly inputShape: readonly number[] };

export class SegmentedExecutable<E> {
  constructor(readonly program: Program, readonly steps: readonly Step<E>[]) {}
}


/** Cuts `program` at its collectives and compiles each part. */
export async function compileSegmented<E>(program: Program, backend: Backend<E, BackendBuffer>): Promise<SegmentedExecutable<E>> {
  const base = program.inputs.length + program.scalars.length;
  const isScalar = (v: number) => v >= program.inputs.length && v < base;
  // Steps in order: a part's node indices, or a collective's.
  const plan: ({ nodes: number[] } | { collective: number })[] = [];
  let part: number[] = [];
  program.nodes.forEach((n, i) => {
    if (!COLLECTIVE_PRIMITIVES.has(n.op)) return void part.push(i);
    if (part.length) plan.push({ nodes: part });
    plan.push({ collective: i });
    part = [];
  });
  if (part.length) plan.push({ nodes: part });
  // The last step reading each value, so a part writes out what later steps or the program need.
  const lastUse = new Map<number, number>();
  plan.forEach((s, step) => {
    const reads = 'collective' in s ? program.nodes[s.collective]!.inputs : s.nodes.flatMap((k) => program.nodes[k]!.inputs);
    for (const v of reads) lastUse.set(v, step);
  });
  for (const o of program.outputs) lastUse.set(o, Infinity);

  const steps: Step<E>[] = [];
  for (let step = 0; step < plan.length; step++) {
    const s = plan[step]!;
    if ('collective' in s) {
      const node = program.nodes[s.collective]!;
      const input = node.inputs[0]!;
      steps.push({ kind: 'collective', node, input, output: base + s.collective, inputShape: valueOf(program, input).shape });
      continue;
    }
    const defined = new Set(s.nodes.map((k) => base + k));
    const ins: number[] = [];
    const scalars: number[] = [];
    const local = new Map<number, number>();
    for (const k of s.nodes) {
      for (const v of program.nodes[k]!.inputs) {
        if (defined.has(v) || local.has(v)) continue;
        local.set(v, -1);
        (isScalar(v) ? scalars : ins).push(v);
      }
    }
    const outs = s.nodes.map((k) => base + k).filter((v) => (lastUse.get(v) ?? -1) > step);
    ins.forEach((v, i) => local.set(v, i));
    scalars.forEach((v, i) => local.set(v, ins.length + i));
    const nodes: ProgramNode[] = [];
    for (const k of s.nodes) {
      local.set(base + k, ins.length + scalars.length + nodes.length);
      const n = program.nodes[k]!;
      nodes.push({ ...n, inputs: n.inputs.map((v) => local.get(v)!) });
    }
    const sub: Program = {
      inputs: ins.map((v) => shapeOf(valueOf(program, v))),
      scalars: scalars.map((v) => valueOf(program, v).dtype as DType),
      nodes,
      outputs: outs.map((v) => local.get(v)!),
    };
    steps.push({ kind: 'part', exe: await backend.compile(sub), ins, scalars, outs });
  }
  return new SegmentedExecutable(program, steps);
}

const shapeOf = (v: ProgramValue): ProgramValue => ({ shape: v.shape, dtype: v.dtype });

/**
 * A program that failed at a step: the outputs computed before it (null: not computed) stay
 * readable, e.g. a chip's loss whose gradients' all-reduce a peer's error failed.
 */
export class PartlyRun {
  constructor(readonly error: unknown, readonly outputs: readonly (BackendBuffer | null)[]) {}
}

/** Why a step failed, as its peers get it: a collective that could not run passes on the failure it met. */
export function failedOf(error: unknown, self: FailureRoot): Failed {
  if (error instanceof CollectiveNotRun) return new Failed(error.reason, error.root);
  return new Failed(error instanceof Error ? error.message : String(error), self);
}

/**
 * Runs the parts and collectives in order; returns the program's output buffers. `self`: this
 * launch, the root of a failure that begins in it.
 */
export async function runSegmented<E>(
  exe: SegmentedExecutable<E>, backend: Backend<E, BackendBuffer>, inputs: readonly BackendBuffer[],
  scalars: readonly number[], self: FailureRoot, links: IciLinks | null, timings: CollectiveTiming[] | null,
): Promise<BackendBuffer[]> {
  const chip = self.chip;
  const program = exe.program;
  const values = new Map<number, BackendBuffer>();
  inputs.forEach((b, i) => values.set(i, b));
  const scalarOf = (v: number) => scalars[v - program.inputs.length]!;
  const made: BackendBuffer[] = [];
  // After an error the chip still meets its peers at each later collective, with the reason.
  let failure: { error: unknown; failed: Failed } | null = null;
  try {
    for (const s of exe.steps) {
      if (failure) {
        if (s.kind === 'collective') meetFailed(s.node, s.inputShape, failure.failed, chip, links);
        continue;
      }
      try {
        await runStep(s);
      } catch (error) {
        failure = { error, failed: failedOf(error, self) };
      }
    }
    const outputs = program.outputs.map((v) => values.get(v) ?? null);
    const kept = new Set(outputs);
    for (const b of made) if (!kept.has(b)) backend.free(b);
    if (failure) throw new PartlyRun(failure.error, outputs);
    return outputs as BackendBuffer[];
  } catch (e) {
    if (e instanceof PartlyRun) throw e;
    for (const b of made) backend.free(b);
    throw e;
  }

  async function runStep(s: Step<E>): Promise<void> {
    if (s.kind === 'part') {
      const outs = await backend.execute(s.exe, s.ins.map((v) => values.get(v)!), s.scalars.map(scalarOf));
      outs.forEach((b, i) => {
        values.set(s.outs[i]!, b);
        made.push(b);
      });
      return;
    }
    const start = performance.timeOrigin + performance.now();
    const sentBefore = links?.bytesSent ?? 0;
    const host = await backend.toHost(values.get(s.input)!);
    const result = backend.toDevice(s.node.dtype, runCollective(s.node, host, s.inputShape, chip, links));
    values.set(s.output, result);
    made.push(result);
    timings?.push({ op: s.node.op, bytes: (links?.bytesSent ?? 0) - sentBefore, start, end: performance.timeOrigin + performance.now() });
  }
}

/**
 * A chip whose program cannot run (a failed input, a failed compile) still meets its peers at
 * each collective of it, with the reason: none of them waits for it.
 */
export function skipCollectives(program: Program, failed: Failed, chip: number, links: IciLinks | null): void {
  for (const node of program.nodes) {
    if (COLLECTIVE_PRIMITIVES.has(node.op)) meetFailed(node, valueOf(program, node.inputs[0]!).shape, failed, chip, links);
  }
}

function meetFailed(node: ProgramNode, inputShape: readonly number[], failed: Failed, chip: number, links: IciLinks | null): void {
  try {
    runCollective(node, failed, inputShape, chip, links);
  } catch {
    // it throws by design: the peers now have the reason
  }
}
