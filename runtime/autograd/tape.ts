// The tape: an apply hook gives every op output that depends on a tensor requiring grad a
// record of how it was made (op, operands, attrs). The gradient rules live with the ops.
import { isFloating } from '../dtype.js';
import { addApplyHook } from '../modes/dispatch.js';
import type { OpDef, Operand } from '../ops/op.js';
import { Tensor } from '../tensor.js';
import { gradEnabled } from './grad-mode.js';
import { versionOf } from './past-values.js';
import { compositeCall } from '../modes/composite.js';
import { recordTime } from './grad-clock.js';

export interface GradNode {
  readonly op: OpDef<any>;
  /** Null once backward has freed the graph (retainGraph: false). */
  operands: readonly Operand[] | null;
  readonly attrs: unknown;
  /** Each operand's in-place write count when recorded (backward refuses a changed one). */
  readonly versions: readonly number[];
  /** The output's write count when recorded (a rule reading it after an in-place write throws). */
  readonly outVersion?: number;
  /** The grad clock when recorded: operands that started requiring grad later get no gradient (grad-clock.ts). */
  readonly recordedAt: number;
  /** A collective's outputs on every chip of the call: backward runs their rules together. */
  group?: CollectiveGroup;
  /** The composed op (one call of it) that recorded this op: backward runs its rules as one op. */
  readonly call?: object | null;
}

/**
 * One collective call across chips: its per-chip applications. Their gradient rules are
 * collectives too, so every chip of the call must run its rule in the same backward step,
 * the chips whose result got no gradient with zeros (autograd/backward.ts).
 */
export interface CollectiveGroup {
  readonly members: readonly { readonly out: Tensor; readonly op: OpDef<any>; readonly operands: readonly Operand[]; readonly attrs: unknown }[];
  /**
   * A gradient that needs every chip's seed at once (DTensor.fromLocal's gradPlacements): the
   * gradient of each member's one operand, from every member's seed. Without it each member's
   * op.grad runs on its own seed.
   */
  readonly rule?: (seeds: readonly Tensor[]) => readonly Tensor[];
}

/**
 * Links the per-chip outputs of one collective call for backward. Each chip's result depends
 * on every chip's input: all of them require grad when one input does.
 */
export function linkCollective(members: CollectiveGroup['members'], rule?: CollectiveGroup['rule']): void {
  if (!members.some((m) => m.out._gradNode) || !members.every((m) => isFloating(m.out.dtype))) return;
  const group: CollectiveGroup = { members, rule };
  for (const m of members) {
    m.out.requiresGrad = true;
    m.out._gradNode ??= { op: m.op, operands: [...m.operands], attrs: m.attrs, versions: m.operands.map((v) => (v instanceof Tensor ? versionOf(v) : 0)), recordedAt: recordTime() };
    m.out._gradNode.group = group;
  }
}

addApplyHook((op, operands, attrs, out) => {
  let needed = false;
  for (const v of operands) {
    if (v instanceof Tensor && v.requiresGrad) needed = true;
  }
  if (!needed || !gradEnabled() || op.grad === 'not-differentiable' || !isFloating(out.dtype)) return;
  out.requiresGrad = true;
  // A copy: a fused region rewires its recipes' inputs (to the buffers they read, or to the
  // value before an in-place write); gradients still belong to the tensors the user passed.
  out._gradNode = { op, operands: [...operands], attrs, versions: operands.map((v) => (v instanceof Tensor ? versionOf(v) : 0)), outVersion: out._version, call: compositeCall(), recordedAt: recordTime() };
});
