// THE dispatch path: every op call of every mode goes through apply(). Operands are
// checked, shapes and dtypes inferred on the host (errors thrown right here, in every
// mode), the profiler told, then the active mode runs or records the op.
import { checkInt64Support } from '../ops/int64-support.js';
import { promoteTypes, promoteWithScalar, scalarKind, toInt64, type DType } from '../dtype.js';
import type { Abstract, OpDef, Operand } from '../ops/op.js';
import { freshen, Tensor, type TraceNode, type WeakScalar } from '../tensor.js';
import { emit, emitPerOp, profiling, SAMPLE_EVERY, type ProfileEvent } from '../profiler/events.js';
import { currentMode } from './mode.js';
import { opsDispatched } from './stats.js';
import { settings } from '../device/settings.js';
import { COLLECTIVE_PRIMITIVES } from '../program/collective-nodes.js';
import './values.js';
import { LiveNumber } from '../jit/live-number.js';
import { describeValue } from '../distributed/describe-value.js';
import { noteLiveRead } from '../jit/trace-record.js';

/** Observers of every op application (autograd records its tape here). */
export type ApplyHook = (op: OpDef<any>, operands: readonly Operand[], attrs: unknown, output: Tensor) => void;
const hooks: ApplyHook[] = [];
export function addApplyHook(hook: ApplyHook): () => void {
  hooks.push(hook);
  return () => void hooks.splice(hooks.indexOf(hook), 1);
}

/** Reused for every op: the profiler's per-op path allocates nothing (events.ts). */
const NO_OPERANDS: readonly Abstract[] = [];
const dispatchEvent: Extract<ProfileEvent, { kind: 'dispatch' }> = { kind: 'dispatch', op: '', operands: NO_OPERANDS, mode: '' };

/** The chip of ops without tensor operands (constants, fills) while applyOnChip runs (-1: none given). */
let chipOfConstants = -1;

/** apply() for an op without tensor operands, made on `chip`. */
export function applyOnChip<A>(chip: number, op: OpDef<A>, operands: readonly Operand[], attrs: A): Tensor {
  const before = chipOfConstants;
  chipOfConstants = chip;
  try {
    return apply(op, operands, attrs);
  } finally {
    chipOfConstants = before;
  }
}

export function apply<A>(op: OpDef<A>, operands: readonly Operand[], attrs: A): Tensor {
  let tensorType: DType | undefined;
  let scalars = 0;
  let chip = -1;
  let movable = 0;
  let movableChip = -1;
  for (let i = 0; i < operands.length; i++) {
    const v = operands[i];
    if (v instanceof Tensor) {
      if (v.disposed) throw v._stale?.() ?? new ReferenceError(`${op.name}: ${argName(i)} is a disposed tensor ${v.describe()}`);
      if (v._viewOf !== undefined) freshen(v);
      if (v._buf?.lostWithSession) throw new ReferenceError(`${op.name}: ${argName(i)} ${v.describe()} was freed by tpu.reset()`);
      if (v.chip !== chip) {
        if (v._remake !== null) {
          movable++;
          if (movableChip < 0) movableChip = v.chip;
        }
        else if (chip >= 0) throw mixedChips(op.name, operands, chip, i);
        else chip = v.chip;
      }
      tensorType = tensorType === undefined ? v.dtype : promoteTypes(tensorType, v.dtype);
    } else if (typeof v !== 'number' && typeof v !== 'boolean' && !(v instanceof LiveNumber)) {
      throw new TypeError(`${op.name}: ${argName(i)} must be a tensor, a number or a boolean; got ${describeOperand(v)}`);
    } else scalars++;
  }
  // Tensors made by ops without tensor operands (the fixed numbers of composed ops) follow the
  // chip of the tensors they meet: they are made again there (only with several chips).
  const constantsOnly = chip < 0;
  if (constantsOnly) chip = chipOfConstants >= 0 ? chipOfConstants : movableChip >= 0 ? movableChip : 0;
  if (movable) operands = onChip(operands, chip);
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
        const dtype = scalarType(op, tensorType, value);
        a[i] = { shape: [], dtype };
        const scalar = { value, dtype: fedType(op, i, dtype), live: v };
        noteLiveRead(scalar);
        ins[i] = scalar;
      } else {
        const dtype = scalarType(op, tensorType, v);
        // int64 storage would wrap a number beyond its range silently (PyTorch refuses it)
        if (dtype === 'int64') toInt64(op.name, argName(i), Number(v));
        a[i] = { shape: [], dtype };
        ins[i] = { value: Number(v), dtype: fedType(op, i, dtype) };
      }
    }
    abstracts = a;
    inputs = ins;
  }
  const out = op.infer(abstracts, attrs);
  checkInt64Support(op.name, abstracts, out);
  if (op.profilesAsMatmul && profiling.on) emit({ kind: 'matmul', operands: abstracts });
  const mode = currentMode();
  const site = mode.site(op, attrs, out, apply);
  const node: TraceNode = { op, inputs, attrs, shape: out.shape, dtype: out.dtype, site, chip, region: null, consumers: 0, boundBy: 0, boundAt: 0 };
  let sampleStart = -1;
  let waitedAtStart = 0;
  if (profiling.on) {
    if (profiling.perOp) {
      dispatchEvent.op = op.name;
      dispatchEvent.operands = abstracts;
      dispatchEvent.mode = mode.name;
      emitPerOp(dispatchEvent);
      // not kept past the listeners: the operands would stay reachable (young-tensors.ts)
      dispatchEvent.operands = NO_OPERANDS;
    }
    if (--profiling.untilSample <= 0) {
      profiling.untilSample = SAMPLE_EVERY;
      sampleStart = performance.now();
      waitedAtStart = profiling.waitedMs;
    }
  }
  opsDispatched[mode.name]++;
  const result = mode.apply(node);
  if (constantsOnly && settings.chips() > 1 && !COLLECTIVE_PRIMITIVES.has(op.name)) result._remake = remaking(op, operands, attrs);
  for (const h of hooks) h(op, operands, attrs, result);
  if (sampleStart >= 0) emit({ kind: 'sample', op: op.name, start: sampleStart, end: performance.now(), waitMs: profiling.waitedMs - waitedAtStart });
  return result;
}

/** A JS scalar operand's dtype: promoted beside the tensors (PyTorch's weak scalar), int32 for positions. */
function scalarType(op: OpDef<any>, tensorType: DType | undefined, v: number | boolean): DType {
  return op.positionScalars === true ? 'int32' : promoteWithScalar(tensorType ?? 'float32', scalarKind(v));
}

/**
 * The dtype a JS scalar operand is fed to the program in: its promoted dtype, but float32 for
 * the second operand of mul and div beside bfloat16 ones, which read it unrounded.
 */
function fedType(op: OpDef<any>, i: number, promoted: DType): DType {
  return promoted === 'bfloat16' && i === 1 && op.readsSecondWhole === true ? 'float32' : promoted;
}

/**
 * Makes the constant again on another chip from its own copy of the operands: node.inputs may
 * be the same array, and recipes rewrite theirs to read values through hidden tensors
 * (modes/recipes.ts, Region.assign), which cannot be made again.
 */
function remaking<A>(op: OpDef<A>, operands: readonly Operand[], attrs: A): (chip: number) => Tensor {
  const own = operands.slice();
  return (chip) => applyOnChip(chip, op, own, attrs);
}

/** The operands with each constant made on another chip made again on `chip`. */
function onChip(operands: readonly Operand[], chip: number): Operand[] {
  return operands.map((v) => (v instanceof Tensor && v.chip !== chip ? v._remake!(chip) : v));
}

/** PyTorch's "Expected all tensors to be on the same device", naming both chips and operands. */
function mixedChips(op: string, operands: readonly Operand[], chip: number, i: number): Error {
  const first = operands.findIndex((v) => v instanceof Tensor && v.chip === chip);
  const other = (operands[i] as Tensor).chip;
  return new Error(
    `${op}: expected all tensors to be on the same chip, but ${argName(first)} is on chip ${chip} (tpu:${chip}) ` +
      `and ${argName(i)} is on chip ${other} (tpu:${other}); move one with x.toChip(${chip}) or use a collective (tpu.distributed)`,
  );
}

function argName(i: number): string {
  return i === 0 ? 'input' : i === 1 ? 'other' : `operand ${i}`;
}

function describeOperand(v: unknown): string {
  return Array.isArray(v) ? `an array (wrap it with tpu.tensor(...))` : describeValue(v);
}
