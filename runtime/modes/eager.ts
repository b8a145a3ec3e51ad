// debug and strict: each op is its own (cached) program. strict enqueues it and returns;
// debug runs it before returning, checks outputs for NaN/Inf made from finite inputs and throws
// at the caller's line.
// A collective finishes only with its peers, dispatched after it: debug checks it once they
// are (checkDebugCollectives, at the sync that ends a collective call or a backward pass), and
// so the ops of the chips' gradient rules of a collective, which read its results (deferChecks).
// A composed op (composite.ts) is one op to the user: debug mode checks its result, not the ops
// inside (softmax over a -inf entry makes an infinite intermediate; its result is finite).
import { formatShape } from '../shape.js';
import { isScalar, Tensor, type TraceNode } from '../tensor.js';
import type { Abstract, OpDef } from '../ops/op.js';
import { bindSingle } from '../program/bind-program.js';
import { chipSession } from '../device/current.js';
import { captureSite, formatSite, type CallSite } from '../call-site.js';
import { collectMade, type Scoped } from '../scope.js';
import { launch } from './launch.js';
import { COLLECTIVE_PRIMITIVES } from '../program/collective-nodes.js';
import { materialize } from './materialize.js';
import { adopt } from './adopt.js';
import { runAsOneProgram } from './composite-program.js';
import { mayFailOnDevice } from './may-fail.js';
import type { Mode } from './mode-type.js';

export class NonFiniteError extends Error {
  override name = 'NonFiniteError';
}

/** Debug mode's collectives (and deferred ops) launched and not yet checked. */
const uncheckedCollectives: { out: Tensor; node: TraceNode; reply: number }[] = [];

/** How many deferChecks runs are under way. */
let deferring = 0;

/**
 * Runs fn with debug mode's waits for its ops deferred to checkDebugCollectives: the chips'
 * gradient rules of one collective are all dispatched before any is waited for (chip 0's rule
 * multiplying its all_reduce's result would wait for peers whose rules were not dispatched yet).
 */
export function deferChecks<T>(fn: () => T): T {
  deferring++;
  try {
    return fn();
  } finally {
    deferring--;
  }
}

/** An interrupt dropped the queued work: its collectives are no longer waited for. */
export function forgetDebugCollectives(): void {
  uncheckedCollectives.length = 0;
}

/**
 * Waits for debug mode's pending collectives (and deferred ops) and throws if one produced NaN
 * or Inf, naming the op, the chips and its calling line. Call once every chip of the call was launched.
 */
export function checkDebugCollectives(): void {
  const calls = uncheckedCollectives.splice(0);
  const bad = calls.filter((c) => chipSession(c.out.chip).waitChecked(c.reply, `debug: ${c.node.op.name}`).length > 0);
  if (bad.length === 0) return;
  const { node } = bad[0]!;
  const chips = [...new Set(bad.filter((c) => c.node.op === node.op && c.node.site === node.site).map((c) => c.out.chip))];
  throw new NonFiniteError(
    `${node.op.name} produced NaN or Inf on chip${chips.length > 1 ? 's' : ''} ${chips.join(', ')} (output ${formatShape(node.shape)} ${node.dtype}) at ${formatSite(node.site)}`,
  );
}

class EagerMode implements Mode {
  readonly region = null;

  /** How many composed ops are running: inside one, debug mode checks only its result. */
  private compositeDepth = 0;
  /** Debug mode: the tensors the ops of the outermost composed op running read. */
  private compositeReads: Set<Tensor> | null = null;

  constructor(readonly name: 'debug' | 'strict') {}

  site(op: OpDef<any>, attrs: unknown, out: Abstract, caller: Function): CallSite | null {
    // Unformatted until a device error names it (call-site.ts).
    return captureSite(caller, this.name === 'debug', mayFailOnDevice(op, attrs, out));
  }

  apply(node: TraceNode): Tensor {
    for (const v of node.inputs) if (!isScalar(v) && !v._buf) materialize(v, 'input of an eager op');
    if (this.compositeReads) for (const v of node.inputs) if (!isScalar(v)) this.compositeReads.add(v);
    const out = new Tensor(node);
    const debug = this.name === 'debug' && this.compositeDepth === 0;
    const reply = launch(bindSingle(node, out), debug);
    if (debug && (deferring > 0 || COLLECTIVE_PRIMITIVES.has(node.op.name))) {
      chipSession(out.chip).holdReply(reply!);
      uncheckedCollectives.push({ out, node, reply: reply! });
    } else if (debug && chipSession(out.chip).waitChecked(reply!, `debug: ${node.op.name}`).length && inputsFinite(node)) {
      throwNonFinite(node.op.name, out, node.site);
    }
    return out;
  }

  // strict: one program (composite-program.ts). debug runs each primitive alone and checks the
  // result only. What the body makes and does not return is freed at once, unless autograd
  // recorded the op (its result requires grad): a backward pass reads them.
  composite(name: string, fn: () => Tensor): Tensor {
    if (this.name === 'strict') return runAsOneProgram(fn);
    const outermost = this.compositeDepth === 0;
    const reads = outermost && this.name === 'debug' ? (this.compositeReads = new Set()) : null;
    this.compositeDepth++;
    let out: Tensor;
    let made: readonly Scoped[];
    try {
      [out, made] = collectMade(fn);
    } finally {
      this.compositeDepth--;
      if (outermost) this.compositeReads = null;
    }
    if (!out.requiresGrad) for (const t of made) if (t !== out) t.dispose();
    // An input returned as it came (no work done) is the caller's value, not this op's result.
    const check = reads !== null && made.includes(out);
    if (check && chipSession(out.chip).hasNonFiniteSync(out._buf!, `debug: ${name}`) && tensorsFinite(without(reads, made), name)) {
      throwNonFinite(name, out, captureSite(EagerMode.prototype.composite, true, false)); // composite.ts: the composed op's caller
    }
    return out;
  }

  oneOp<T>(fn: () => T): T {
    return this.name === 'strict' ? runAsOneProgram(fn) : fn();
  }

  assign(target: Tensor, source: Tensor): void {
    materialize(source, 'in-place update');
    adopt(target, source);
  }

  leave(): void {}
}

/**
 * Whether every input of an op is finite. A NaN or Inf the op passes on is its input's (a
 * `-Infinity` fill of an attention mask, NaN data): debug mode reports the op that made one.
 */
function inputsFinite(node: TraceNode): boolean {
  return node.inputs.every((v) => !isScalar(v) || Number.isFinite(v.value)) && tensorsFinite(node.inputs.filter((v): v is Tensor => !isScalar(v)), node.op.name);
}

/** A composed op's scalars are its own constants (a -inf start of a max): only the tensors it reads count. */
function tensorsFinite(tensors: Iterable<Tensor>, op: string): boolean {
  for (const t of tensors) if (chipSession(t.chip).hasNonFiniteSync(t._buf!, `debug: ${op}'s inputs`)) return false;
  return true;
}

/** The tensors a composed op read that it did not make: its inputs. */
function without(reads: ReadonlySet<Tensor>, made: readonly Scoped[]): Tensor[] {
  const inside = new Set<unknown>(made);
  return [...reads].filter((t) => !inside.has(t));
}

function throwNonFinite(name: string, out: Tensor, site: CallSite | null): never {
  out.dispose();
  throw new NonFiniteError(`${name} produced NaN or Inf (output ${formatShape(out.shape)} ${out.dtype}) at ${formatSite(site)}`);
}

export const debug: Mode = new EagerMode('debug');
export const strict: Mode = new EagerMode('strict');
