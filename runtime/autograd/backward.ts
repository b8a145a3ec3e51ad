// Reverse-mode differentiation, micrograd-sized: order the graph topologically, walk it in
// reverse, call each op's gradient rule (built from ops, so dispatched, traced and fused
// like the forward pass), sum the gradients of values used more than once.
import { isFloating } from '../dtype.js';
import { formatShape, shapesEqual } from '../shape.js';
import { unbroadcast } from '../ops/grad-helpers.js';
import { scope } from '../scope.js';
import { keepShape } from '../keep-shape.js';
import { Tensor } from '../tensor.js';
import { onesLike, zerosLike } from '../ops/like.js';
import type { GradRule, Operand } from '../ops/op.js';
import type { CollectiveGroup } from './tape.js';
import { noGrad } from './grad-mode.js';
import { checkDebugCollectives, deferChecks } from '../modes/eager.js';
import { untracked } from '../views/view-tracking.js';
import { asOneOp } from '../modes/composite.js';
import { holdingCuts } from '../modes/region.js';
import { edgeOf, valueAt, withoutGrad } from './past-values.js';
import { requiredGradAt } from './grad-clock.js';
import { makeCollectiveRoom } from '../device/collective-room.js';
import { readsNoValue, releaseFreedLayouts } from '../modes/recipes.js';
import { hookedGradient } from './tensor-hooks.js';

export interface BackwardOptions {
  /** Keep the graph for another backward through it (default false: it is freed). */
  retainGraph?: boolean;
  /** A graph of the gradients for second derivatives: not supported, true is an error. */
  createGraph?: boolean;
  /** backward() only: the tensors whose .grad gets the gradient (PyTorch's inputs=); others are left as they are. */
  inputs?: Tensor | readonly Tensor[];
}

/** PyTorch's create_graph=True: gradients are computed outside autograd here, so they have no graph to differentiate again. */
export function refuseCreateGraph(who: string, createGraph: unknown): void {
  if (createGraph === undefined || createGraph === false) return;
  if (createGraph !== true) throw new TypeError(`${who}: createGraph must be a boolean; got ${JSON.stringify(createGraph)}`);
  throw new Error(`${who}: createGraph: true (second derivatives: gradients of gradients) is not supported: gradients are computed outside autograd, so they have no graph of their own`);
}

/** Leaves and values reachable from root through tensors that require grad, inputs first. */
function topologicalOrder(root: Tensor): Tensor[] {
  const order: Tensor[] = [];
  const seen = new Set<Tensor>([root]);
  // Iterative DFS: graphs of long loops are deeper than the JS stack. A frame: the value and
  // the index of its next neighbour, in two stacks (no array per frame or per value's list).
  const values: Tensor[] = [root];
  const next: number[] = [0];
  while (values.length) {
    const top = values.length - 1;
    const t = values[top]!;
    const i = next[top]!;
    if (i < neighbourCount(t)) {
      next[top] = i + 1;
      const o = neighbour(t, i);
      if (o instanceof Tensor && o.requiresGrad && !seen.has(o)) {
        seen.add(o);
        values.push(o);
        next.push(0);
      }
      continue;
    }
    values.pop();
    next.pop();
    order.push(t);
  }
  return order;
}

/** What a value's gradient flows to: its operands, and for a collective's output the other chips' outputs of its call. */
function neighbourCount(t: Tensor): number {
  const node = t._gradNode;
  if (!node) return 0;
  return (node.operands?.length ?? 0) + (node.group?.members.length ?? 0);
}

function neighbour(t: Tensor, i: number): unknown {
  const node = t._gradNode!;
  const operands = node.operands ?? [];
  if (i >= operands.length) return node.group!.members[i - operands.length]!.out;
  return requiredGradAt(operands[i], node.recordedAt) ? edgeOf(operands[i]!, node.versions[i]!) : null;
}

/** Where each collective call is processed: at its member met last in the reverse walk (all their consumers are done then). */
function groupTurns(order: readonly Tensor[]): Map<CollectiveGroup, number> {
  const turns = new Map<CollectiveGroup, number>();
  order.forEach((t, k) => {
    const group = t._gradNode?.group;
    if (group && !turns.has(group)) turns.set(group, k);
  });
  return turns;
}

/**
 * The seed gradient, or null for ones made by the root's own rule: in strict mode they are
 * then a node of that rule's program, not a program of their own (one launch less a step).
 * A collective's root gets its ones at once (every chip's rule reads its seed).
 */
function checkSeed(root: Tensor, seed: Tensor | undefined, who: string): Tensor | null {
  if (!root.requiresGrad) {
    throw new Error(`${who}: the tensor ${root.describe()} does not require grad: no input of its computation has requiresGrad (create one with { requiresGrad: true } or call .requiresGrad_())`);
  }
  if (seed === undefined) {
    if (root.numel() !== 1) {
      throw new RangeError(`${who}: a gradient can be created implicitly only for a one-element output; got shape ${formatShape(root.shape)}. Reduce it first (e.g. .sum()) or pass a gradient of that shape`);
    }
    return root._gradNode && !root._gradNode.group ? null : onesLike(root);
  }
  if (!(seed instanceof Tensor)) throw new TypeError(`${who}: gradient must be a tensor; got ${typeof seed}`);
  if (!shapesEqual(seed.shape, root.shape)) {
    throw new RangeError(`${who}: gradient has shape ${formatShape(seed.shape)}, but the output has shape ${formatShape(root.shape)}`);
  }
  return seed;
}

/**
 * A collective call's rules, on every chip of the call together (each is a collective): the
 * chips whose result got no gradient run theirs with zeros; what they give is dropped unless
 * their input requires grad.
 */
function runGroup(group: CollectiveGroup, pending: Map<Tensor, Tensor>, add: (o: unknown, g: Tensor | null) => void, who: string): void {
  for (const m of group.members) {
    if (m.out._gradNode && !m.out._gradNode.operands) {
      throw new Error(`${who}: trying to backward through the graph a second time (its intermediate values were freed after the first backward); call backward({ retainGraph: true }) the first time`);
    }
  }
  // Every chip's rule is dispatched before any gradient is summed: in debug mode a sum waits
  // for its chip, whose collective would wait for the peers not dispatched yet (so would an op
  // of the rule itself reading its collective's result: they wait at the end, deferChecks). And no cut of
  // fused mode's region at its size cap falls between them: a chip's part run alone would wait
  // for peers still pending on the host, and a read of its result would wait for it.
  // Strict mode enqueues each chip's rule as it is called: every chip's seed is made and every
  // chip has room for its rule's collective (whose result has its operand's shape) first.
  const seeds = group.members.map((m) => {
    const g = pending.get(m.out);
    return g ? hookedGradient(m.out, g) : zerosLike(m.out);
  });
  group.members.forEach((m) => pending.delete(m.out));
  makeCollectiveRoom(group.members.map((m) => m.operands[0] as Tensor), `the backward of ${group.members[0]!.op.name}`);
  const grads = holdingCuts(() => {
    if (group.rule) return group.rule(seeds).map((g) => [g]);
    return deferChecks(() => group.members.map((m, j) => (m.op.grad as GradRule<unknown>)(seeds[j]!, m.operands, m.out, m.attrs)));
  });
  group.members.forEach((m, j) => m.operands.forEach((o, i) => add(o, fitTo(o, grads[j]![i], m.out._gradNode!.recordedAt))));
}

/**
 * The run of nodes ending at order[k] that one composed-op call recorded: the lowest index,
 * the nodes, and the leaves met between them (a linear's weight and bias). Those leaves'
 * gradients are complete once the run is done: only values later in the order feed them.
 */
function callRun(order: readonly Tensor[], k: number): { first: number; nodes: Tensor[]; leaves: Tensor[] } {
  const call = order[k]!._gradNode?.call;
  const nodes = [order[k]!];
  const leaves: Tensor[] = [];
  let first = k;
  for (let j = k - 1; call && j >= 0; j--) {
    const node = order[j]!._gradNode;
    if (!node) continue;
    if (node.call !== call || node.group) break;
    for (let l = first - 1; l > j; l--) leaves.push(order[l]!);
    nodes.push(order[j]!);
    first = j;
  }
  return { first, nodes, leaves };
}

/** A rule's result fitted to its operand, or null when the operand needs no gradient (or did not when its node was recorded at `recordedAt`). */
function fitTo(o: Operand, gi: Tensor | null | undefined, recordedAt: number): Tensor | null {
  return gi && requiredGradAt(o, recordedAt) ? fit(gi, o) : null;
}

/** Fits a rule's result to its operand: sums broadcast dims, matches a floating dtype. */
function fit(g: Tensor, operand: Tensor): Tensor {
  let out = shapesEqual(g.shape, operand.shape) ? g : unbroadcast(g, operand.shape);
  if (out.dtype !== operand.dtype && isFloating(operand.dtype)) out = out.to(operand.dtype);
  return out;
}

/**
 * Gradients of root with respect to the leaves it depends on (or only `wanted`, which may hold non-leaves). Every
 * intermediate gradient is disposed; the returned ones belong to the caller's scope.
 */
export function gradients(root: Tensor, seed: Tensor | undefined, who: string, opts: BackwardOptions = {}, wanted?: ReadonlySet<Tensor>): Map<Tensor, Tensor> {
  const start = checkSeed(root, seed, who);
  const order = topologicalOrder(root);
  const turns = groupTurns(order);
  // Gradients are fresh values, as in PyTorch: the views their rules take (x.mT, reshapes of
  // saved values) are not tracked, else every optimizer step would recompute them all.
  const walk = new GradientWalk(new Map(start ? [[root, start]] : []), start ? null : root, order, turns, who, wanted);
  const leafGrads = noGrad(() => untracked(() => scope(walk.run.bind(walk))));
  if (!opts.retainGraph) {
    for (const t of order) {
      const node = t._gradNode;
      if (!node?.operands) continue;
      const operands = node.operands;
      // a step whose rule reads no value stays: freeing it frees nothing, and a view made once
      // before a loop (w.T) is backpropagated through at every step
      if (!readsNoValue(node)) node.operands = null;
      releaseFreedLayouts(operands);
    }
  }
  return new Map(leafGrads);
}

/**
 * One backward pass: the gradients pending per value, and the leaves' once complete. A class,
 * not closures made per pass: V8 keeps a closure's optimized code only while one of its
 * closures lives, and these were compiled again after each full collection (docs/runtime.md, W6).
 */
class GradientWalk {
  private readonly leaves = new Map<Tensor, Tensor>();

  constructor(
    private readonly pending: Map<Tensor, Tensor>,
    /** The root whose seed is ones, made by its rule's step (checkSeed). */
    private onesRoot: Tensor | null,
    private readonly order: readonly Tensor[],
    private readonly turns: ReadonlyMap<CollectiveGroup, number>,
    private readonly who: string,
    private readonly wanted: ReadonlySet<Tensor> | undefined,
  ) {}

  /** Every rule, in reverse order; the leaves' gradients. */
  run(): [Tensor, Tensor][] {
    const { order } = this;
    for (let k = order.length - 1; k >= 0; k--) {
      const t = order[k]!;
      const group = t._gradNode?.group;
      if (group) {
        if (this.turns.get(group) === k) runGroup(group, this.pending, this.add.bind(this), this.who);
        continue;
      }
      // One op's gradient is one program in strict mode (PyTorch's backward kernel); so are
      // the rules of the ops one composed op recorded, met in a row.
      if (!t._gradNode) {
        this.step(t);
        continue;
      }
      const { first, nodes, leaves: between } = callRun(order, k);
      asOneOp(this.stepsLeaving.bind(this, nodes));
      for (const b of between) this.step(b);
      k = first;
    }
    // Every chip of each collective's call has run its rule: debug mode checks their results.
    checkDebugCollectives();
    return [...this.leaves];
  }

  /** `gi`: a rule's result already fitted to its operand (fitTo). */
  add(o: unknown, gi: Tensor | null): void {
    if (!(o instanceof Tensor) || !o.requiresGrad || !gi) return;
    const before = this.pending.get(o);
    this.pending.set(o, before ? before.add(gi) : gi);
  }

  /**
   * Runs the rules of `nodes` (one composed-op call) and returns the gradients they left
   * pending for tensors outside the run: the one program writes those; the gradients flowing
   * between the run's own nodes stay inside it, never materialized.
   */
  private stepsLeaving(nodes: readonly Tensor[]): Tensor[] {
    const before = new Map(this.pending);
    for (const t of nodes) this.step(t);
    const inRun = new Set(nodes);
    const out: Tensor[] = [];
    for (const [t, g] of this.pending) if (!inRun.has(t) && before.get(t) !== g) out.push(g);
    // a kept non-leaf's gradient (retainGrad, an input of tpu.autograd.grad) leaves the run too
    for (const t of nodes) {
      const kept = this.leaves.get(t);
      if (kept) out.push(kept);
    }
    return out;
  }

  /** One op's gradient, fitted to its operands (no one-op wrapping: the caller's). */
  private step(t: Tensor): void {
    let g = this.pending.get(t);
    if (t === this.onesRoot) {
      this.onesRoot = null;
      g = onesLike(t);
    }
    if (!g) return;
    this.pending.delete(t);
    g = hookedGradient(t, g);
    const node = t._gradNode;
    if (!node) {
      if (!this.wanted || this.wanted.has(t)) this.leaves.set(t, g);
      return;
    }
    // retainGrad(): backward() keeps this non-leaf's gradient too, in .grad as a leaf's; a
    // non-leaf asked for (an input of tpu.autograd.grad) is kept likewise
    if (this.wanted ? this.wanted.has(t) : t._retainsGrad) this.leaves.set(t, g);
    if (!node.operands) {
      throw new Error(`${this.who}: trying to backward through the graph a second time (its intermediate values were freed after the first backward); call backward({ retainGraph: true }) the first time`);
    }
    const rule = node.op.grad;
    if (rule === 'not-differentiable') return;
    // Operands and output as recorded: their past node, or a stand-in that throws PyTorch's
    // error if the rule reads a value changed in place since (past-values.ts).
    const operands = node.operands;
    const versions = node.versions;
    const seen: Operand[] = new Array(operands.length);
    for (let i = 0; i < operands.length; i++) {
      const o = operands[i]!;
      const value = valueAt(o, versions[i]);
      // (the value: a tensor detached in place since reads as its past value, which requires grad)
      seen[i] = value instanceof Tensor && value.requiresGrad && !requiredGradAt(o, node.recordedAt) ? withoutGrad(value) : value;
    }
    const out = valueAt(t, node.outVersion) as Tensor;
    const ins = rule(g, seen, out, node.attrs);
    const fitted: (Tensor | null)[] = new Array(ins.length);
    for (let i = 0; i < ins.length; i++) fitted[i] = fitTo(operands[i], ins[i], node.recordedAt);
    for (let i = 0; i < operands.length; i++) this.add(edgeOf(operands[i]!, versions[i]!), fitted[i]!);
  }
}
keepShape(new GradientWalk(new Map(), null, [], new Map(), '', undefined));
