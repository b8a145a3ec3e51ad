// tpu.compile(fn): whole-function capture, like jax.jit / torch.compile. Each call traces fn
// in fused mode as ONE region (no size cap; reading a tensor value inside is refused), then
// runs it as one program; the program cache keys it by structure, shapes and dtypes (never
// by the values of JS numbers, which are program inputs), so a new input signature compiles
// once and every later call with that signature reuses the executable. In-place updates
// made inside (optimizer steps) are program outputs, as is every value fn returns. The JS body runs on every call, so its side effects and
// the numbers it computes stay those of eager execution.
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { scope } from '../scope.js';
import { activeMode, setMode } from '../modes/mode.js';
import { dropRegion, flushRegion, setRegionCap } from '../modes/fused.js';
import { forbidSyncWhile } from '../modes/materialize.js';
import { programCache } from '../device/current.js';

export interface CompiledStats {
  readonly calls: number;
  /** Input signatures seen (shapes and dtypes of the tensor arguments). */
  readonly signatures: readonly string[];
  /** Programs compiled by calls of this function (0 on every call after the first per signature). */
  readonly programsCompiled: number;
}

export type Compiled<A extends unknown[], R> = ((...args: A) => R) & { stats(): CompiledStats };

let capturing = false;

function signatureOf(args: readonly unknown[]): string {
  return args
    .map((a) => (a instanceof Tensor ? `${a.dtype}${formatShape(a.shape)}` : typeof a === 'number' ? 'number' : typeof a))
    .join(', ');
}

function tensorsIn(v: unknown, depth = 0): Tensor[] {
  if (v instanceof Tensor) return [v];
  if (depth > 2 || v === null || typeof v !== 'object') return [];
  const items = Array.isArray(v) ? v : Object.getPrototypeOf(v) === Object.prototype ? Object.values(v) : [];
  return items.flatMap((x) => tensorsIn(x, depth + 1));
}

const dataDependent = (name: string) =>
  `tpu.compile(${name}) is tracing: reading a tensor value is not possible there, nothing has run yet ` +
  '(a compiled function becomes one program, so it cannot branch on or print values it computes). ' +
  'Select on the device instead (x.where(cond, other), or arithmetic such as mask.mul(a)), or return the ' +
  'tensor and read it (item(), data()) after the call, outside the compiled function.';

export function compile<A extends unknown[], R>(fn: (...args: A) => R, options: { name?: string } = {}): Compiled<A, R> {
  if (typeof fn !== 'function') throw new TypeError(`tpu.compile: fn must be a function; got ${typeof fn}`);
  const name = options.name ?? (fn.name || 'fn');
  const signatures = new Set<string>();
  let calls = 0;
  let programsCompiled = 0;

  const compiled = (...args: A): R => {
    if (capturing) return fn(...args); // nested: inlined into the outer trace, as jax.jit does
    calls++;
    signatures.add(signatureOf(args));
    const before = activeMode();
    if (before === 'fused') flushRegion('tpu.compile'); // earlier work is not part of this program
    else setMode('fused', 'tpu.compile');
    const compiledBefore = programCache().misses;
    const capBefore = setRegionCap(Infinity);
    capturing = true;
    let result: R;
    try {
      result = forbidSyncWhile(dataDependent(name), () => scope(() => fn(...args)));
      if (result instanceof Promise) {
        // The error below replaces the promise's own outcome: never left unhandled.
        result.catch(() => {});
        throw new TypeError(`tpu.compile(${name}): the function must be synchronous (it returned a Promise)`);
      }
      // Outputs: what fn returns and what it updated in place (parameters, optimizer state).
      // Its intermediates were disposed by the scope; values it kept but did not update
      // (gradients) stay recipes, computed if they are ever read.
      flushRegion(`compiled ${name}`, tensorsIn(result).filter((t) => !t._buf && !t.disposed));
    } catch (e) {
      dropRegion();
      throw e;
    } finally {
      capturing = false;
      setRegionCap(capBefore);
      if (before !== 'fused') setMode(before, 'tpu.compile');
    }
    programsCompiled += programCache().misses - compiledBefore;
    return result;
  };
  return Object.assign(compiled, {
    stats: (): CompiledStats => ({ calls, signatures: [...signatures], programsCompiled }),
  });
}
