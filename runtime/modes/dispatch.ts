// THE dispatch path: every op call of every mode goes through apply(). Operands are
// checked, shapes and dtypes inferred on the host (errors thrown right here, in every
// mode), the profiler told, then the active mode runs or records the op.
import { ITEMSIZE, promoteTypes, promoteWithScalar, scalarKind, type DType } from '../dtype.js';
import { numel } from '../shape.js';
import type { Abstract, OpDef, Operand } from '../ops/op.js';
import type { TraceNode, WeakScalar } from '../compiler/trace.js';
import { captureSite } from '../call-site.js';
import { emit, emitPerOp, profiling, SAMPLE_EVERY, type ProfileEvent } from '../profiler/events.js';
import type { ModeName } from '../device/settings.js';
import { Tensor } from '../tensor.js';
import { activeMode } from './mode.js';
import { applyEager } from './eager.js';
import { applyFused } from './fused.js';
import { LiveNumber } from '../compile/live-number.js';
import { noteLiveRead } from '../compile/trace-record.js';

/** Observers of every op application (autograd records its tape here). */
export type ApplyHook = (op: OpDef<any>, operands: readonly Operand[], attrs: unknown, output: Tensor) => void;
const hooks: ApplyHook[] = [];
export function addApplyHook(hook: ApplyHook): () => void {
  hooks.push(hook);
  return () => void hooks.splice(hooks.indexOf(hook), 1);
}

/** Ops dispatched per mode since the process started: a recording reads differences (no event per op). */
export const opsDispatched: Record<ModeName, number> = { debug: 0, strict: 0, fused: 0 };

/** Reused for every op: the profiler's per-op path allocates nothing (events.ts). */
const dispatchEvent: Extract<ProfileEvent, { kind: 'dispatch' }> = { kind: 'dispatch', op: '', operands: [], mode: '' };

export function apply<A>(op: OpDef<A>, operands: readonly Operand[], attrs: A): Tensor {
  let tensorType: DType | undefined;
  let scalars = 0;
  for (let i = 0; i < operands.length; i++) {
    const v = operands[i];
    if (v instanceof Tensor) {
      if (v.disposed) throw new ReferenceError(`${op.name}: ${argName(i)} is a disposed tensor ${v.describe()}`);
      if (v._buf?.lostWithSession) throw new ReferenceError(`${op.name}: ${argName(i)} ${v.describe()} was freed by tpu.reset()`);
      tensorType = tensorType === undefined ? v.dtype : promoteTypes(tensorType, v.dtype);
    } else if (typeof v !== 'number' && typeof v !== 'boolean' && !(v instanceof LiveNumber)) {
      throw new TypeError(`${op.name}: ${argName(i)} must be a tensor, a number or a boolean; got ${describeValue(v)}`);
    } else scalars++;
  }
  // All tensors (the common case): the operands serve as they are, no copies.
  let abstracts = operands as readonly Abstract[];
  let inputs = operands as readonly (Tensor | WeakScalar)[];
  if (scalars) {
    const a: Abstract[] = new Array(operands.length);
    const ins: (Tensor | WeakScalar)[] = new Array(operands.length);
    for (let i = 0; i < operands.length; i++) {
      const v = operands[i]!;
      if (v instanceof Tensor) {
        a[i] = v;
        ins[i] = v;
      } else if (v instanceof LiveNumber) {
        // Re-read on every replay of a tpu.compile trace (optimizer hyperparameters).
        const value = v.read();
        const dtype = promoteWithScalar(tensorType ?? 'float32', scalarKind(value));
        a[i] = { shape: [], dtype };
        const scalar = { value, dtype, live: v };
        noteLiveRead(scalar);
        ins[i] = scalar;
      } else {
        const dtype = promoteWithScalar(tensorType ?? 'float32', scalarKind(v));
        a[i] = { shape: [], dtype };
        ins[i] = { value: Number(v), dtype };
      }
    }
    abstracts = a;
    inputs = ins;
  }
  const out = op.infer(abstracts, attrs);
  const mode = activeMode();
  // Unformatted until a device error names it (call-site.ts). A fused region records where
  // it started and where it was cut instead (fused.ts), and the calls of its ops that read
  // indices from device data (their values never exist apart from the region's program).
  const site = mode === 'fused'
    ? (op.readsDeviceIndices ? captureSite(apply, false, true) : null)
    : captureSite(apply, mode === 'debug', mayFailOnDevice(op, out));
  const node: TraceNode = { op, inputs, attrs, shape: out.shape, dtype: out.dtype, site, region: 0, consumers: 0 };
  let sampleStart = -1;
  let waitedAtStart = 0;
  if (profiling.on) {
    if (profiling.perOp) {
      dispatchEvent.op = op.name;
      dispatchEvent.operands = abstracts;
      dispatchEvent.mode = mode;
      emitPerOp(dispatchEvent);
    }
    if (--profiling.untilSample <= 0) {
      profiling.untilSample = SAMPLE_EVERY;
      sampleStart = performance.now();
      waitedAtStart = profiling.waitedMs;
    }
  }
  opsDispatched[mode]++;
  const result = mode === 'fused' ? applyFused(node) : applyEager(node, mode === 'debug');
  for (const h of hooks) h(op, operands, attrs, result);
  if (sampleStart >= 0) emit({ kind: 'sample', op: op.name, start: sampleStart, end: performance.now(), waitMs: profiling.waitedMs - waitedAtStart });
  return result;
}

// A launch fails on the device when its output cannot be allocated there (large outputs) or
// when it reads indices from device data. By default only such calls record their site:
// a capture costs several µs, small beside the device time of a large op.
const LARGE_OUTPUT_BYTES = 1 << 20;
function mayFailOnDevice(op: OpDef<any>, out: Abstract): boolean {
  return op.readsDeviceIndices === true || numel(out.shape) * ITEMSIZE[out.dtype] >= LARGE_OUTPUT_BYTES;
}

function argName(i: number): string {
  return i === 0 ? 'input' : i === 1 ? 'other' : `operand ${i}`;
}

function describeValue(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `an array (wrap it with tpu.tensor(...))`;
  if (typeof v === 'object') return `an object of type ${v.constructor?.name ?? 'Object'}`;
  return `${typeof v} ${JSON.stringify(v)}`;
}
