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
// jax.jit. A new trace is made instead of a replay when a captured tensor was disposed, a
// guard reads another value, an index tensor the trace checked on the host holds device
// data, a module's tensor or submodule was replaced or train()/eval() switched, or a number
// argument was used in JS arithmetic (then its value is part of the signature, with a
// warning once). A mode switch in the body, or a refused value read the
// body caught, is an error at trace time: the trace would not be what eager execution does.
import { freshen, Tensor } from '../tensor.js';
import { currentMode, inMode } from '../modes/mode.js';
import { FusedMode } from '../modes/fused.js';
import { Region } from '../modes/region.js';
import { materialize } from '../modes/materialize.js';
import { programCache } from '../program/program-cache.js';
import { matmulPrecision } from '../ops/matmul.js';
import { flattenArguments, withLiveNumbers, type FlatArguments } from './arguments.js';
import { LiveNumber } from './live-number.js';
import { buildPlan, capturedData, collectTensors, type Plan } from './plan.js';
import { replay, staleReason } from './replay.js';
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
  plan: Plan | null;
  /** Module replacements counted when the plan was traced. */
  replacements: number;
}

/**
 * Traces fn once per input shapes and replays it as one compiled program (torch.compile).
 * @example const step = tpu.compile((x: Tensor) => x.mul(2).add(1)); step(x)
 */
export function compile<A extends unknown[], R>(fn: (...args: A) => R, options: { name?: string } = {}): Compiled<A, R> {
  if (typeof fn !== 'function') throw new TypeError(`tpu.compile: fn must be a function; got ${typeof fn}`);
  const name = options.name ?? (fn.name || 'fn');
  const entries = new Map<string, Entry>();
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

  /** A number argument used as a JS value while tracing: its value becomes part of the signature. */
  const freezeArgument = (j: number) => {
    if (!tracingNow) return;
    guard(`number argument #${j} (used as a JS value while tracing)`, () => numbers[j]);
    warnOnce('frozen',
      `number argument #${j} was used as a JS value inside the function (arithmetic, a comparison, a shape), so ` +
        'its value is frozen into the trace: each new value traces again. To bind it per call, pass it to tensor ' +
        'ops directly (x.mul(lr)) or to an optimizer (opt.lr = lr).');
  };

  const trace = (args: A, flat: FlatArguments): { result: R; plan: Plan | string } => {
    traces++;
    // One program for the whole body: a region of its own, never cut at a size cap.
    const region = new Region(Infinity);
    const liveArgs = withLiveNumbers(args, (j) => new LiveNumber(() => numbers[j]!, () => freezeArgument(j))) as A;
    const argBuffers = flat.tensors.map((t) => t._buf!);
    capturing = true;
    tracingNow = true;
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
    const key = precision === 'highest' ? flat.signature : `${flat.signature} (matmul ${precision})`;
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
      const entry = entries.get(key);
      if (entry?.plan) {
        const stale = entry.replacements !== replacementCount()
          ? 'a module tensor or submodule was replaced, or train()/eval() switched'
          : staleReason(entry.plan, flat.tensors);
        // Its call site as strict mode records calls: by default only when its program may fail on the device.
        if (stale === null) return replay(entry.plan, flat.tensors, name, captureSite(compiled, currentMode().name === 'debug', entry.plan.mayFail)) as R;
        lastRetrace = stale;
      }
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
      // Counted after the trace: what the body itself switches (model.train()) is part of it.
      entries.set(key, { plan: typeof plan === 'string' ? null : plan, replacements: replacementCount() });
      return result;
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
