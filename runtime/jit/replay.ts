// Replaying a plan: the JS body does not run. Checks that the plan still describes the state
// (staleReason), redoes the body's per-call effects and re-reads its live numbers in trace
// order, binds the call's tensor arguments and the current buffers of the held tensors, runs
// the one program, writes the in-place updates back into the same Tensor objects and builds
// a fresh returned value.
import { performance } from 'node:perf_hooks';
import { promoteWithScalar, scalarKind } from '../dtype.js';
import type { WeakScalar } from '../tensor.js';
import type { Site } from '../call-site.js';
import { emit, profiling } from '../profiler/events.js';
import { adopt } from '../modes/adopt.js';
import { launch, launchAll } from '../modes/launch.js';
import { materialize } from '../modes/materialize.js';
import { freshen, Tensor } from '../tensor.js';
import { keep } from '../scope.js';
import { viewMismatch } from './view-arguments.js';
import { ResultLeaf, ResultParts, type OutputTarget, type Plan, type Source, type Target } from './plan.js';
import { isPlainObject } from '../plain-object.js';
import { gradLayout } from '../views/result-layout.js';
import { viewAgain } from '../views/view-tracking.js';
import { withoutGraph } from './replay-grad.js';
import { noGrad } from '../autograd/grad-mode.js';

/** Why a plan cannot be replayed now; `guard`: only a guard reads another value, which a later call may read again. */
export interface Stale {
  readonly why: string;
  readonly guard: boolean;
}

/**
 * Why the plan cannot be replayed now on the call's tensor arguments `args` (then the call
 * traces again), or null. Throws when an index value known on the host is out of range, as
 * the body would at that call.
 */
export function staleReason(plan: Plan, args: readonly Tensor[]): Stale | null {
  for (let k = 0; k < plan.held.length; k++) {
    const t = plan.held[k]!;
    if (t.disposed) return { why: `the captured tensor ${t.describe()} was disposed`, guard: false };
    if (t._buf?.lostWithSession) return { why: `the captured tensor ${t.describe()} was freed by tpu.reset()`, guard: false };
    if (t.requiresGrad !== plan.heldRequiresGrad[k]) return { why: `the captured tensor ${t.describe()} ${t.requiresGrad ? 'requires grad now' : 'no longer requires grad'}`, guard: true };
  }
  for (const g of plan.record.guards) {
    const now = g.read();
    if (!Object.is(now, g.value)) return { why: `${g.what} changed (${String(g.value)} -> ${String(now)})`, guard: true };
  }
  for (const c of plan.viewConstraints) {
    const why = viewMismatch(c, args);
    if (why !== null) return { why, guard: true };
  }
  for (const { source, check } of plan.indexChecks) {
    const t = 'arg' in source ? args[source.arg]! : 'held' in source ? source.held : null;
    if (t === null || !check(t)) {
      return { why: 'an index tensor checked on the host when traced holds device data now, or a value the trace relied on its not holding (crossEntropy\'s ignoreIndex)', guard: false };
    }
  }
  return null;
}

/** `site`: the call of the compiled function, named by device errors of its program. */
export function replay(plan: Plan, args: readonly Tensor[], name: string, site: Site | null): unknown {
  for (const t of plan.held) {
    freshen(t); // a captured view whose base was written since the trace
    if (!t._buf) materialize(t, 'tpu.compile');
  }
  const values = new Map<WeakScalar, number>();
  const remade: Tensor[] = new Array(plan.remakes.length);
  for (const a of plan.steps) {
    if ('effect' in a) a.effect();
    else if ('read' in a) values.set(a.read, a.read.live!.read());
    else remade[a.remake] = plan.remakes[a.remake]!();
  }
  const tensorOf = (s: Source): Tensor => ('arg' in s ? args[s.arg]! : 'held' in s ? s.held : remade[s.remade]!);
  const targetOf = (s: Target): Tensor => ('gradOf' in s ? s.gradOf._grad! : tensorOf(s));
  const outs = plan.outputs.map((o) => {
    const t = new Tensor(null, o.shape, o.dtype, o.chip);
    if (o.strides) t._strides = o.strides;
    if (o.requiresGrad) withoutGraph(t, name);
    return t;
  });
  const scalars = plan.scalars.map((s) => scalarValue(s, values, name));
  const inputs = plan.inputs.map((s) => tensorOf(s)._buf!);
  if (profiling.on && plan.programs.length) {
    const nodes = plan.programs.reduce((n, p) => n + p.ir.nodes.length, 0);
    emit({ kind: 'region', time: performance.now(), reason: `compiled ${name} (replay)`, nodes, outputs: outs.length });
  }
  // One program per chip over several chips, each with its share of inputs, scalars and outputs.
  let at = { inputs: 0, scalars: 0, outputs: 0 };
  const bound = plan.programs.map((p) => {
    const bp = {
      signature: p.signature,
      structure: () => p.structure,
      program: () => p.ir,
      inputs: inputs.slice(at.inputs, at.inputs + p.inputs),
      scalars: scalars.slice(at.scalars, at.scalars + p.scalars),
      outputs: outs.slice(at.outputs, at.outputs + p.outputs),
      label: () => p.label,
      site,
    };
    at = { inputs: at.inputs + p.inputs, scalars: at.scalars + p.scalars, outputs: at.outputs + p.outputs };
    return bp;
  });
  if (bound.length === 1) launch(bound[0]!);
  else launchAll(bound);
  plan.outputs.forEach((o, i) => o.into && write(o.into, outs[i]!, tensorOf));
  const returned = new Set<Tensor>();
  /** Returned views made again from this call's tensors (the program's value is the same), by the output they replace. */
  const viewsAgain = new Map<Tensor, Tensor>();
  const result = rebuild(plan.result, (leaf) => {
    let t = leaf.out !== null ? outs[leaf.out]! : targetOf(leaf.source!);
    const from = leaf.view && ('out' in leaf.view.from ? outs[leaf.view.from.out]! : tensorOf(leaf.view.from));
    if (from && !from.disposed) {
      const out = t;
      t = viewsAgain.get(out) ?? viewAgain(from, leaf.view!.steps);
      viewsAgain.set(out, t);
    }
    returned.add(t);
    return t;
  });
  for (const out of viewsAgain.keys()) if (!returned.has(out)) out.dispose();
  for (const t of remade) if (!returned.has(t)) t.dispose();
  return result;
}

/**
 * An output to its target: in place, or as the leaf's gradient: the new one if it has none,
 * else added to it when the body's backward() added to none (eager accumulation).
 */
function write(into: OutputTarget, out: Tensor, tensorOf: (s: Source) => Tensor): void {
  if ('discard' in into) return out.dispose();
  if (!('gradOf' in into)) {
    const target = tensorOf(into);
    adopt(target, out);
    target._version++; // an in-place write, as the traced call's: views of it recompute when read
    return;
  }
  const leaf = into.gradOf;
  const had = leaf._grad && !leaf._grad.disposed ? leaf._grad : null;
  if (!had) leaf.grad = keep(gradLayout(leaf, out));
  else if (!into.add) adopt(had, out);
  else {
    noGrad(() => had.add_(out));
    out.dispose();
  }
}

function scalarValue(s: WeakScalar, values: ReadonlyMap<WeakScalar, number>, name: string): number {
  if (!s.live) return s.value;
  const v = values.get(s) ?? s.live.read();
  // A float value where the trace had an integer scalar on an integer tensor changes the program.
  if (promoteWithScalar(s.dtype, scalarKind(v)) !== s.dtype) {
    throw new TypeError(`tpu.compile(${name}): a live number traced as ${s.dtype} is now ${v}, which would change the program's dtypes; pass numbers of one kind (integer or not)`);
  }
  return v;
}

function rebuild(template: unknown, leaf: (l: ResultLeaf) => Tensor): unknown {
  if (template instanceof ResultLeaf) return leaf(template);
  if (Array.isArray(template)) return template.map((x) => rebuild(x, leaf));
  if (isPlainObject(template)) return Object.fromEntries(Object.entries(template).map(([k, x]) => [k, rebuild(x, leaf)]));
  if (template instanceof ResultParts) return template.rebuild(template.parts.map((x) => rebuild(x, leaf) as Tensor));
  return template;
}
