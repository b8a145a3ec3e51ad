// A traced call of a compiled function as a replayable plan: the one program, where each of
// its inputs comes from (a tensor argument by position, a tensor held from outside by
// identity: parameters, optimizer state, gradients; or a tensor the body made on the host,
// made again), which tensors its outputs update in place, and how the returned value is
// built. Built while the trace's region is still bound (its buffers alive).
import type { BoundRegion } from '../program/bind-program.js';
import type { Program } from '../program/program.js';
import type { WeakScalar } from '../tensor.js';
import type { DeviceBuffer } from '../device/memory.js';
import type { DType } from '../dtype.js';
import type { Shape } from '../shape.js';
import { isKept } from '../scope.js';
import { Tensor } from '../tensor.js';
import type { ReplayAction, TraceRecord } from './trace-record.js';
import { isPlainObject } from '../plain-object.js';
import { tensorPartsOf, type TensorParts } from '../tensor-parts.js';
import { viewConstraints, type ViewConstraint } from './view-arguments.js';
import type { ViewStep } from '../views/view-tracking.js';

/** A step of a replay before its program runs: a recorded effect or live read, or a host tensor made again. */
export type ReplayStep = Exclude<ReplayAction, { readonly upload: Tensor }> | { readonly remake: number };

/** Where a tensor of a replay comes from: the call's tensor argument, a held tensor, or a host tensor made again. */
export type Source = { readonly arg: number } | { readonly held: Tensor } | { readonly remade: number };

/**
 * Where a program output goes: a tensor updated in place, or the gradient slot of a leaf
 * (`leaf.grad`, made anew if zeroGrad() emptied it since: a gradient is not captured by
 * identity, as every trace's zeroGrad() disposes the gradients of the one before).
 */
export type Target = Source | { readonly gradOf: Tensor };

/** A leaf's gradient slot; `add`: the program's value is added to the gradient the leaf has then (the body's backward() found none and emptied none). */
export type GradTarget = { readonly gradOf: Tensor; readonly add: boolean };

/** Where a program output goes; `discard`: a collective the body disposed ran for its peers, its value is dropped. */
export type OutputTarget = Source | GradTarget | { readonly discard: true };

/**
 * A tensor in the returned value: program output `out`, else `source`. `view`: the traced one
 * was a view of a tensor from outside or of another returned one (x.reshape([2, 2]), x an
 * argument): each replay's is a view of that call's, so a write through it reaches its base.
 */
export class ResultLeaf {
  constructor(readonly out: number | null, readonly source: Target | null, readonly view: ResultView | null = null) {}
}

/** A returned view: `steps` applied to a tensor from outside (an argument, or a view argument's end of them), or to program output `out`. */
export interface ResultView {
  readonly from: Source | { readonly out: number };
  readonly steps: readonly ViewStep[];
}

/** An object made of tensors (a DTensor) in the returned value: built again from its parts' templates. */
export class ResultParts {
  constructor(readonly rebuild: TensorParts['rebuild'], readonly parts: readonly unknown[]) {}
}

export interface PlanOutput {
  readonly shape: Shape;
  readonly dtype: DType;
  readonly chip: number;
  /** Where the value goes, or null for a new tensor of the returned value. */
  readonly into: OutputTarget | null;
  /** A new tensor's strides when the traced one's were not row-major (x.T.mul(2)): each replay's has them too. */
  readonly strides: readonly number[] | undefined;
  /** A new tensor that required grad when traced: each replay's does too, with no graph to pass back through (replay-grad.ts). */
  readonly requiresGrad: boolean;
}

/** One program of a plan and how many of the plan's inputs, scalars and outputs are its own (they come in program order). */
export interface PlanProgram {
  readonly signature: string;
  readonly structure: string;
  readonly ir: Program;
  readonly label: string;
  readonly inputs: number;
  readonly scalars: number;
  readonly outputs: number;
}

export interface Plan {
  /** The program (one per chip over several chips); none when the body left nothing to compute on the device. */
  readonly programs: readonly PlanProgram[];
  readonly inputs: readonly Source[];
  readonly scalars: readonly WeakScalar[];
  readonly outputs: readonly PlanOutput[];
  /** The returned value with ResultLeaf for its tensors in arrays and plain objects; other values are the trace's. */
  readonly result: unknown;
  readonly record: TraceRecord;
  /** Host tensors the body made and dropped, made again on each replay (`steps` says when). */
  readonly remakes: readonly (() => Tensor)[];
  /** The body's per-call work in its order: effects, live reads, and remakes (their index in `remakes`). */
  readonly steps: readonly ReplayStep[];
  /** Every tensor bound or updated by identity: a replay needs each of them alive. */
  readonly held: readonly Tensor[];
  /** Whether each held tensor required grad when traced: one that started or stopped since (requiresGrad_(false) to freeze a layer) traces again. */
  readonly heldRequiresGrad: readonly boolean[];
  /** Index tensors whose values the trace checked on the host: each replay checks its own first (trace-record.ts). */
  readonly indexChecks: readonly { readonly source: Source; readonly check: (t: Tensor) => boolean }[];
  /** Whether its program may fail on the device (then a replay records its call site, call-site.ts). */
  readonly mayFail: boolean;
  /** Tensor arguments written in place (or through their base) whose view-ness a replay must share (view-arguments.ts). */
  readonly viewConstraints: readonly ViewConstraint[];
}

export interface TraceFacts {
  /** The tensor arguments and their buffers when the trace started. */
  readonly args: readonly Tensor[];
  readonly argBuffers: readonly DeviceBuffer[];
  readonly result: unknown;
  readonly record: TraceRecord;
  /** Whether the region traced holds an op that may fail on the device (modes/may-fail.ts). */
  readonly mayFail: boolean;
}

/** The plan, or why this trace cannot be replayed. */
export function buildPlan(bp: BoundRegion | null, updates: ReadonlyMap<Tensor, Tensor>, facts: TraceFacts): Plan | string {
  const { args, argBuffers, record } = facts;
  const held = new Set<Tensor>();
  const sourceOf = (t: Tensor): Source => {
    const arg = args.indexOf(t);
    if (arg >= 0) return { arg };
    held.add(t);
    return { held: t };
  };
  // Host tensors made inside and not kept: made again on each replay (kept ones are held), as
  // each eager call makes them; one the body updates in place is made again as it was before
  // the update, and the update does not carry over to the next call.
  const remakes: (() => Tensor)[] = [];
  const remadeIndex = new Map<DeviceBuffer, number>();
  const madeInside = new Map<Tensor, number>();
  for (const [made, remake] of record.uploads) {
    if (isKept(made)) continue;
    const made0 = updates.get(made)?._buf ?? made._buf;
    if (!made0) continue;
    madeInside.set(made, remakes.length);
    remadeIndex.set(made0, remakes.length);
    remakes.push(remake);
  }
  const steps: ReplayStep[] = [];
  for (const a of record.actions) {
    if (!('upload' in a)) steps.push(a);
    else if (madeInside.has(a.upload)) steps.push({ remake: madeInside.get(a.upload)! });
  }
  const updatedFrom = new Map<DeviceBuffer, Tensor>();
  for (const [target, before] of updates) if (before._buf && !madeInside.has(target)) updatedFrom.set(before._buf, target);
  const bufferSource = (b: DeviceBuffer, t: Tensor): Source | string => {
    const arg = argBuffers.indexOf(b);
    if (arg >= 0) return { arg };
    const target = updatedFrom.get(b);
    if (target) return sourceOf(target);
    const remade = remadeIndex.get(b);
    if (remade !== undefined) return { remade };
    if (!t.disposed) return sourceOf(t);
    return `it reads ${t.describe()}, a tensor disposed while the function ran`;
  };

  const inputs: Source[] = [];
  const outputs: PlanOutput[] = [];
  const outIndex = new Map<Tensor, number>();
  const resultTensors = new Set<Tensor>();
  collectTensors(facts.result, resultTensors);
  if (bp) {
    for (let k = 0; k < bp.inputs.length; k++) {
      const s = bufferSource(bp.inputs[k]!, bp.inputTensors[k]!);
      if (typeof s === 'string') return s;
      inputs.push(s);
    }
    const gradOf = new Map<Tensor, Tensor>();
    for (const leaf of [...held, ...updates.keys()]) if (leaf._grad) gradOf.set(leaf._grad, leaf);
    bp.outputs.forEach((t, i) => {
      outIndex.set(t, i);
      const fresh = resultTensors.has(t) && (!updates.has(t) || madeInside.has(t)) && !isKept(t) && !args.includes(t);
      const leaf = gradOf.get(t);
      // A collective disposed in the body ran for its peers: its value is dropped.
      const into: OutputTarget | null = fresh ? null : leaf ? { gradOf: leaf, add: record.freshGrads.get(leaf) === true }
        : t.disposed ? { discard: true } : sourceOf(t);
      outputs.push({ shape: t.shape, dtype: t.dtype, chip: t.chip, into, strides: into ? undefined : t._strides, requiresGrad: !into && t.requiresGrad });
    });
  }

  let unreplayable: string | null = null;
  const viewOf = (v: Tensor): ResultView | null => {
    const of = v._viewOf;
    if (!of || of.base.disposed) return null; // a base made and dropped inside: no one else sees it
    const out = outIndex.get(of.base);
    if (out !== undefined && !outputs[out]!.into) return { from: { out }, steps: of.steps };
    const arg = args.indexOf(of.base);
    if (arg >= 0) return { from: { arg }, steps: of.steps };
    // made from a view argument: the rest of the steps, applied to each call's argument
    let from: ResultView | null = null;
    args.forEach((a, j) => {
      const prefix = a._viewOf?.base === of.base ? a._viewOf.steps : null;
      if (!prefix || prefix.length >= of.steps.length || (from && from.steps.length <= of.steps.length - prefix.length)) return;
      if (prefix.every((step, k) => of.steps[k] === step)) from = { from: { arg: j }, steps: of.steps.slice(prefix.length) };
    });
    // else a view of a tensor from outside, held for it only (not read by the program, nor captured data to warn of)
    return from ?? { from: { held: of.base }, steps: of.steps };
  };
  const template = (v: unknown): unknown => {
    if (v instanceof Tensor) {
      const out = outIndex.get(v);
      // A returned tensor is never discarded (returned outputs are fresh or have a target).
      if (out !== undefined) {
        const into = outputs[out]!.into as Target | null;
        return new ResultLeaf(into ? null : out, into, into ? null : viewOf(v));
      }
      if (v.disposed || !v._buf) return (unreplayable = `it returns ${v.describe()}, a tensor disposed while the function ran`), null;
      const s = bufferSource(v._buf, v);
      if (typeof s === 'string') return (unreplayable = s), null;
      return new ResultLeaf(null, s);
    }
    if (Array.isArray(v)) return v.map(template);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, template(x)]));
    const parts = tensorPartsOf(v);
    if (parts) return new ResultParts(parts.rebuild, parts.tensors.map(template));
    // Other objects are returned as they are: tensors the body made inside them were disposed
    // by its scope, and tensors they hold from outside (a module's parameters) are updated in place.
    return v;
  };
  const result = template(facts.result);
  if (unreplayable !== null) return unreplayable;
  /** The tensors the plan writes in place: a view argument that is one or views one must stay as traced (view-arguments.ts). */
  const written = new Set<Tensor>();
  for (const o of outputs) if (o.into && 'arg' in o.into) written.add(args[o.into.arg]!); else if (o.into && 'held' in o.into) written.add(o.into.held);
  const indexChecks = record.indexChecks.map(({ tensor, check }) => ({ source: sourceOf(tensor), check }));

  return {
    programs: bp ? (bp.parts ?? [bp]).map((p) => ({
      signature: p.signature, structure: p.structure(), ir: p.program(), label: p.label(),
      inputs: p.inputs.length, scalars: p.scalars.length, outputs: p.outputs.length,
    })) : [],
    inputs,
    scalars: bp?.scalarOperands ?? [],
    outputs,
    result,
    record,
    remakes,
    steps,
    held: [...held],
    heldRequiresGrad: [...held].map((t) => t.requiresGrad),
    indexChecks,
    mayFail: bp !== null && facts.mayFail,
    viewConstraints: viewConstraints(args, written),
  };
}

/**
 * Tensors the plan reads from outside that are neither parameters, kept state nor updated by
 * it: most likely data captured from a closure, which a replay reads as the same object.
 */
export function capturedData(plan: Plan): Tensor[] {
  const updated = new Set(plan.outputs.map((o) => (o.into && 'held' in o.into ? o.into.held : null)));
  return plan.held.filter((t) => !t.requiresGrad && !isKept(t) && !updated.has(t));
}

/** Tensors anywhere in arrays, plain objects and DTensors. */
export function collectTensors(v: unknown, into: Set<Tensor>): void {
  if (v instanceof Tensor) into.add(v);
  else if (Array.isArray(v)) for (const x of v) collectTensors(x, into);
  else if (isPlainObject(v)) for (const x of Object.values(v)) collectTensors(x, into);
  else tensorPartsOf(v)?.tensors.forEach((t) => into.add(t));
}
