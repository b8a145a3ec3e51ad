// tpu.compile(fn): whole-function capture, like jax.jit and tinygrad's TinyJit. The first
// call with an input signature (arguments.ts) TRACES: fn runs once in fused mode as ONE
// region (no size cap; reading a tensor value inside is refused), its program runs, and the
// call is kept as a plan (plan.ts). Later calls with that signature REPLAY the plan
// (replay.ts): the JS body does not run; the program runs once on the call's arguments and
// the current values of the tensors it captured, its in-place updates (parameters,
// optimizer state, gradients) land in the same Tensor objects, and a fresh result of the
// same structure is returned.
// What a replay re-reads, so it is never stale: number arguments (program inputs, bound per
// call), live numbers (optimizer hyperparameters such as the learning rate, live-number.ts),
// the per-call effects and guards the body registered (an optimizer's step count,
// trace-record.ts), tensors the body made from host values (made again: tpu.rand advances
// as in eager execution). Every other JS value the body reads is frozen at trace time, as in
// jax.jit. A new trace is made instead of a replay when a captured tensor was disposed or
// started or stopped requiring grad, a guard reads another value, an index tensor the trace checked on the host holds device
// data, a module's tensor or submodule was replaced or train()/eval() switched, or a number
// argument was used in JS arithmetic (then its value is part of the signature, with a
// warning once) or by an op as a dim, a size or a constant (specialized per value, as
// torch.compile does; a row position of x.at(i), select or narrow stays a program input).
// The plans of one signature are kept per value of their guards, so a value seen before
// replays. A mode switch in the body, or a refused value read the body caught, is an error at
// trace time: the trace would not be what eager execution does.
import { freshen, Tensor } from '../tensor.js';
import { currentMode, inMode } from '../modes/mode.js';
import { FusedMode } from '../modes/fused.js';
import { Region } from '../modes/region.js';
import { materialize } from '../modes/materialize.js';
import { programCache } from '../program/program-cache.js';
import { matmulPrecision } from '../ops/matmul.js';
import { gradEnabled } from '../autograd/grad-mode.js';
import { flattenArguments, withLiveNumbers, type FlatArguments } from './arguments.js';
import { LiveNumber } from './live-number.js';
import { buildPlan, capturedData, collectTensors, type Plan } from './plan.js';
import { replay, staleReason, type Stale } from './replay.js';
import { captureSite } from '../call-site.js';
import { guard, recordTrace, replacementCount } from './trace-record.js';
import { traceBody } from './trace-body.js';
import { lowerFunction, type Lowered } from './lower.js';
import type { Spec } from './spec.js';

export interface CompiledStats {
  readonly calls: number;
  /** Input signatures seen (shapes and dtypes of the tensor arguments, kinds of the others). */
  readonly signatures: readonly string[];
  /** Calls that ran the JS body (one per signature, plus re-traces). */
  readonly traces: number;
  /** Why the last re-trace of a known signature happened (null if none did). */
  readonly lastRetrace: string | null;
  /** Programs compiled by calls of this function (0 on every call after the first per signature). */
  readonly programsCompiled: number;
}

/** A value where each tensor, also inside arrays and objects, may be a tpu.spec placeholder instead. */
type WithSpecs<T> = T extends Tensor ? Tensor | Spec
  : T extends (...args: never[]) => unknown ? T
  : T extends object ? { [K in keyof T]: WithSpecs<T[K]> }
  : T;

/** The arguments of lower(). */
export type LowerArguments<A extends unknown[]> = { [K in keyof A]: WithSpecs<A[K]> };

export type Compiled<A extends unknown[], R> = ((...args: A) => R) & {
  stats(): CompiledStats;
  /** Traces fn once into one program without running it (JAX's jit(fn).lower): see lower.ts. */
  lower(...args: LowerArguments<A>): Lowered;
};

let capturing = false;

interface Entry {
  readonly plan: Plan;
  /** Module replacements counted when the plan was traced. */
  readonly replacements: number;
}

/**
 * Plans kept per signature, each for the values its guards read (a dim, a size given as a
 * number argument: torch.compile's cache_size_limit); past it the oldest is dropped.
 */
const PLANS_PER_SIGNATURE = 8;

/**
 * Traces fn once per input shapes and replays it as one compiled program (torch.compile).
 * @example const step = tpu.compile((x: Tensor) => x.mul(2).add(1)); step(x)
 */
export function compile<A extends unknown[], R>(fn: (...args: A) => R, options: { name?: string } = {}): Compiled<A, R> {
  if (typeof fn !== 'function') throw new TypeError(`tpu.compile: fn must be a function; got ${typeof fn}`);
  const name = options.name ?? (fn.name || 'fn');
  /** The plans of each signature, newest first. */
  const entries = new Map<string, Entry[]>();
  const signatures = new Set<string>();
  let calls = 0;
  let traces = 0;
  let lastRetrace: string | null = null;
  let programsCompiled = 0;
  const warned = new Set<string>();
  const warnOnce = (kind: string, message: string) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    console.warn(`tpu.compile(${name}): ${message}`);
  };
  /** The number arguments of the call running now (what their live numbers read). */
  let numbers: number[] = [];
  let tracingNow = false;

  /** Number arguments frozen into the trace running now, with how they were used (one guard each). */
  const frozen = new Set<string>();

  /**
   * A number argument read while tracing: its value becomes part of the signature. Taken by an
   * op as a dim, a size or a constant, that is torch.compile's specialization; used in JS
   * arithmetic it may have been meant as a live value, hence the warning.
   */
  const freezeArgument = (j: number, use: 'value' | 'specialized') => {
    if (!tracingNow || frozen.has(`${use}${j}`)) return;
    frozen.add(`${use}${j}`);
    if (use === 'specialized') {
      guard(`number argument #${j} (an op argument the trace is specialized on: a dim, a size, a constant)`, () => numbers[j]);
      return;
    }
    guard(`number argument #${j} (used as a JS value while tracing)`, () => numbers[j]);
    warnOnce('frozen',
      `number argument #${j} was used as a JS value inside the function (arithmetic, a comparison, a shape), so ` +
        'its value is frozen into the trace: each new value traces again. To bind it per call, pass it to tensor ' +
        'ops directly (x.mul(lr)) or to an optimizer (opt.lr = lr).');
  };

  /**
   * The returned value, its views recomputed (when their base is written later) with this
   * call's number arguments: x.at(i) of a number argument i stays row i of this call, not the
   * row of whatever call came last.
   */
  const pinned = (result: R): R => {
    if (numbers.length === 0) return result;
    const own = numbers;
    const returned = new Set<Tensor>();
    collectTensors(result, returned);
    for (const t of returned) {
      const of = t._viewOf;
      if (!of) continue;
      t._viewOf = {
        ...of,
        from: (base) => {
          const current = numbers;
          numbers = own;
          try { return of.from(base); } finally { numbers = current; }
        },
      };
    }
    return result;
  };

  const trace = (args: A, flat: FlatArguments): { result: R; plan: Plan | string } => {
    traces++;
    // One program for the whole body: a region of its own, never cut at a size cap.
    const region = new Region(Infinity);
    const liveArgs = withLiveNumbers(args, (j) => new LiveNumber(() => numbers[j]!, (use) => freezeArgument(j, use))) as A;
    const argBuffers = flat.tensors.map((t) => t._buf!);
    capturing = true;
    tracingNow = true;
    frozen.clear();
    try {
      // The region runs (or is dropped) before the trace mode is left: nothing else flushes it.
      return inMode(new FusedMode(region), () => {
        try {
          const [result, record] = recordTrace(() => traceBody(name, `tpu.compile(${name})`, () => fn(...liveArgs)));
          // Outputs: what fn returns and every value it left alive (updated in place or kept:
          // parameters, optimizer state, gradients), so a replay can write each of them.
          const returned = new Set<Tensor>();
          collectTensors(result, returned);
          const required = [...returned].filter((t) => !t._buf && !t.disposed);
          for (const t of region.liveValues()) if (!returned.has(t)) required.push(t);
          let plan: Plan | string | null = region.recomputes() ? 'it reads values computed earlier and never materialized' : null;
          const facts = { args: flat.tensors, argBuffers, result, record, mayFail: region.holdsOpThatMayFail() };
          region.flush(`compiled ${name}`, required, (bp, updates) => {
            plan ??= buildPlan(bp, updates, facts);
          });
          // Nothing ran on the device (no program): the plan only rebuilds the result.
          return { result, plan: plan ?? buildPlan(null, new Map(), facts) };
        } catch (e) {
          region.drop();
          throw e;
        }
      });
    } finally {
      capturing = false;
      tracingNow = false;
    }
  };

  const compiled = (...args: A): R => {
    if (capturing) return fn(...args); // nested: inlined into the outer trace, as jax.jit does
    calls++;
    const flat = flattenArguments(args);
    const precision = matmulPrecision();
    // under tpu.noGrad the body records no graph: its own trace
    const key = `${flat.signature}${precision === 'highest' ? '' : ` (matmul ${precision})`}${gradEnabled() ? '' : ' (no grad)'}`;
    signatures.add(key);
    currentMode().leave('tpu.compile'); // earlier work is not part of this program
    flat.tensors.forEach((t, j) => {
      if (t.disposed) throw new ReferenceError(`tpu.compile(${name}): tensor argument #${j} ${t.describe()} was disposed`);
      freshen(t); // a view whose base was written since: its program reads the buffer as it is
      materialize(t, 'tpu.compile');
    });
    numbers = flat.numbers;
    const compiledBefore = programCache().misses;
    try {
      const plans = entries.get(key) ?? [];
      let retrace: string | null = null;
      for (let k = 0; k < plans.length; k++) {
        const entry = plans[k]!;
        const stale: Stale | null = entry.replacements !== replacementCount()
          ? { why: 'a module tensor or submodule was replaced, or train()/eval() switched', guard: false }
          : staleReason(entry.plan, flat.tensors);
        // Its call site as strict mode records calls: by default only when its program may fail on the device.
        if (stale === null) return pinned(replay(entry.plan, flat.tensors, name, captureSite(compiled, currentMode().name === 'debug', entry.plan.mayFail)) as R);
        retrace ??= stale.why;
        if (!stale.guard) plans.splice(k--, 1); // it can never be replayed again
      }
      if (retrace !== null) lastRetrace = retrace;
      const { result, plan } = trace(args, flat);
      if (typeof plan === 'string') {
        warnOnce('unreplayable', `this call cannot be replayed (${plan}); the function body runs on each such call.`);
      } else {
        const data = capturedData(plan)[0];
        if (data) {
          warnOnce('data',
            `the function reads a tensor ${data.describe()} that is not one of its arguments (captured from a ` +
              'closure?): each call replays on that same tensor object. If the variable will hold another tensor ' +
              '(the next batch), pass it as an argument instead.');
        }
      }
      if (typeof plan !== 'string') {
        // Counted after the trace: what the body itself switches (model.train()) is part of it.
        plans.unshift({ plan, replacements: replacementCount() });
        plans.length = Math.min(plans.length, PLANS_PER_SIGNATURE);
        entries.set(key, plans);
      }
      return pinned(result);
    } finally {
      programsCompiled += programCache().misses - compiledBefore;
    }
  };
  const lower = (...args: LowerArguments<A>): Lowered => {
    if (capturing) throw new Error(`tpu.compile(${name}).lower cannot run inside a function being traced`);
    capturing = true; // compiled functions called by fn are inlined, as in a trace
    try {
      return lowerFunction(fn as (...a: never[]) => unknown, name, args);
    } finally {
      capturing = false;
    }
  };
  return Object.assign(compiled, {
    stats: (): CompiledStats => ({ calls, signatures: [...signatures], traces, lastRetrace, programsCompiled }),
    lower,
  });
}
