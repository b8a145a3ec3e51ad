// Reverse-mode differentiation, micrograd-sized: order the graph topologically, walk it in
// reverse, call each op's gradient rule (built from ops, so dispatched, traced and fused
// like the forward pass), sum the gradients of values used more than once.
import { isFloating } from '../dtype.js';
import { formatShape, shapesEqual } from '../shape.js';
import { unbroadcast } from '../ops/grad-helpers.js';
import { scope } from '../scope.js';
import { Tensor } from '../tensor.js';
import { onesLike } from '../ops/like.js';
import { noGrad } from './grad-mode.js';

export interface BackwardOptions {
  /** Keep the graph for another backward through it (default false: it is freed). */
  retainGraph?: boolean;
}

/** Leaves and values reachable from root through tensors that require grad, inputs first. */
function topologicalOrder(root: Tensor): Tensor[] {
  const order: Tensor[] = [];
  const seen = new Set<Tensor>([root]);
  // Iterative DFS: graphs of long loops are deeper than the JS stack.
  const stack: [Tensor, number][] = [[root, 0]];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const [t, i] = top;
    const operands = t._gradNode?.operands ?? [];
    if (i < operands.length) {
      top[1]++;
      const o = operands[i];
      if (o instanceof Tensor && o.requiresGrad && !seen.has(o)) {
        seen.add(o);
        stack.push([o, 0]);
      }
      continue;
    }
    stack.pop();
    order.push(t);
  }
  return order;
}

function checkSeed(root: Tensor, seed: Tensor | undefined, who: string): Tensor {
  if (!root.requiresGrad) {
    throw new Error(`${who}: the tensor ${root.describe()} does not require grad: no input of its computation has requiresGrad (create one with { requiresGrad: true } or call .requiresGrad_())`);
  }
  if (seed === undefined) {
    if (root.size !== 1) {
      throw new RangeError(`${who}: a gradient can be created implicitly only for a one-element output; got shape ${formatShape(root.shape)}. Reduce it first (e.g. .sum()) or pass a gradient of that shape`);
    }
    return onesLike(root);
  }
  if (!(seed instanceof Tensor)) throw new TypeError(`${who}: gradient must be a tensor; got ${typeof seed}`);
  if (!shapesEqual(seed.shape, root.shape)) {
    throw new RangeError(`${who}: gradient has shape ${formatShape(seed.shape)}, but the output has shape ${formatShape(root.shape)}`);
  }
  return seed;
}

/** Fits a rule's result to its operand: sums broadcast dims, matches a floating dtype. */
function fit(g: Tensor, operand: Tensor): Tensor {
  let out = shapesEqual(g.shape, operand.shape) ? g : unbroadcast(g, operand.shape);
  if (out.dtype !== operand.dtype && isFloating(operand.dtype)) out = out.to(operand.dtype);
  return out;
}

/**
 * Gradients of root with respect to the leaves it depends on (or only `wanted`). Every
 * intermediate gradient is disposed; the returned ones belong to the caller's scope.
 */
export function gradients(root: Tensor, seed: Tensor | undefined, who: string, opts: BackwardOptions = {}, wanted?: ReadonlySet<Tensor>): Map<Tensor, Tensor> {
  const start = checkSeed(root, seed, who);
  const order = topologicalOrder(root);
  const leafGrads = noGrad(() =>
    scope(() => {
      const pending = new Map<Tensor, Tensor>([[root, start]]);
      const leaves = new Map<Tensor, Tensor>();
      for (let k = order.length - 1; k >= 0; k--) {
        const t = order[k]!;
        const g = pending.get(t);
        if (!g) continue;
        pending.delete(t);
        const node = t._gradNode;
        if (!node) {
          if (!wanted || wanted.has(t)) leaves.set(t, g);
          continue;
        }
        if (!node.operands) {
          throw new Error(`${who}: trying to backward through the graph a second time (its intermediate values were freed after the first backward); call backward({ retainGraph: true }) the first time`);
        }
        const rule = node.op.grad;
        if (rule === 'not-differentiable') continue;
        node.operands.forEach((o, i) => {
          if (o instanceof Tensor && o._version !== node.versions[i]) {
            throw new Error(`${who}: one of the variables needed for gradient computation has been modified by an inplace operation: ${o.describe()} is at version ${o._version}; expected version ${node.versions[i]}`);
          }
        });
        const ins = rule(g, node.operands, t, node.attrs);
        node.operands.forEach((o, i) => {
          const gi = ins[i];
          if (!(o instanceof Tensor) || !o.requiresGrad || !gi) return;
          const fitted = fit(gi, o);
          const before = pending.get(o);
          pending.set(o, before ? before.add(fitted) : fitted);
        });
      }
      return [...leaves];
    }),
  );
  if (!opts.retainGraph) for (const t of order) if (t._gradNode) t._gradNode.operands = null;
  return new Map(leafGrads);
}
