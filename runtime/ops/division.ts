// Rounded division and remainders, as PyTorch defines them: x.div(y, { roundingMode }),
// x.fmod(y) (the sign of x) and x.remainder(y) (the sign of y). Integer division by zero is
// an error on the device (PyTorch raises ZeroDivisionError), never a made-up number (the
// ONNX lowering: device/onnx/lowerings/division.ts).
import { isFloating, promoteOperands, promoteWithScalar, readsSecondWhole, scalarKind } from '../dtype.js';
import { broadcastShapes } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { composite } from '../modes/composite.js';
import { Tensor } from '../tensor.js';
import { defineOp, type Abstract, type Operand } from './op.js';
import { gradFor } from './grad-helpers.js';
import { where } from './where.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { LiveNumber, specialized } from '../jit/live-number.js';

function infer(name: string, [a, b]: readonly Abstract[]): Abstract {
  const promoted = promoteOperands(a!, b!);
  if (promoted === 'bool') throw new TypeError(`${name}: two bool operands are not supported (as in PyTorch); cast one first: x.to('int64')`);
  return { shape: broadcastShapes(name, a!.shape, b!.shape), dtype: promoted };
}

/** b as infer sees it: a JS scalar takes the dtype it gives beside a (a weak scalar, as in PyTorch). */
const operandAbstract = (a: Tensor, b: Operand): Abstract =>
  b instanceof Tensor ? b : { shape: [], dtype: promoteWithScalar(a.dtype, scalarKind(b instanceof LiveNumber ? b.read() : b)) };

/** C's remainder a - trunc(a / b)·b: the sign of a (torch.fmod). */
export const fmodOp = defineOp({
  name: 'fmod',
  readsDeviceIndices: true, // an integer division by zero fails on the device
  infer: (inputs) => infer('fmod', inputs),
  grad: (g, [a, b]) => [gradFor(a!, () => g), gradFor(b!, () => g.neg().mul(divRounded(a as Tensor, b!, 'trunc')))],
});

/** Integer quotient rounded toward zero (int32 operands; floats compose trunc(a / b)). */
export const divTruncIntOp = defineOp({
  name: 'divTruncInt',
  readsDeviceIndices: true,
  infer(inputs) {
    const out = infer('div', inputs);
    if (isFloating(out.dtype)) throw new TypeError(`divTruncInt: integer operands expected; got ${out.dtype}`);
    return out;
  },
  grad: 'not-differentiable',
});

export type RoundingMode = 'trunc' | 'floor';

/** torch.div(a, b, rounding_mode): integers stay integers; floats are rounded quotients. */
function divRounded(a0: Tensor, b0: Operand, mode: RoundingMode): Tensor {
  b0 = specialized(b0); // a tpu.compile number argument: its sign and zero decide the steps below
  const out = infer('div', [a0, operandAbstract(a0, b0)]).dtype;
  // a divisor of one value (a JS number: float32 or wider) is read unrounded beside bfloat16,
  // as true division reads it: the quotient in float32, rounded to bfloat16 once
  if (readsSecondWhole(b0 instanceof Tensor ? b0 : { shape: [], dtype: 'float32' }, out)) return divRounded(a0.to('float32'), b0, mode).to(out);
  // a bool operand counts as 0/1 of the result's dtype (the float steps below subtract it)
  const a = a0.dtype === 'bool' ? a0.to(out) : a0;
  const b = b0 instanceof Tensor && b0.dtype === 'bool' ? b0.to(out) : b0;
  if (!isFloating(out)) {
    const q = apply(divTruncIntOp, [a, b], {});
    if (mode === 'trunc') return q;
    // floor: one less where the remainder is non-zero and its sign differs from the divisor's
    const r = apply(fmodOp, [a, b], {});
    const adjust = r.ne(0).logicalAnd(r.lt(0).logicalXor(lessThanZero(b)));
    return q.sub(adjust.to('int32'));
  }
  if (mode === 'trunc') return a.div(b).trunc();
  // PyTorch's floor division of floats: from the exact remainder, so 1 // 0.1 is 9 (not floor(10.000001)).
  const mod = apply(fmodOp, [a, b], {});
  let q = a.sub(mod).div(b);
  q = q.sub(mod.ne(0).logicalAnd(mod.lt(0).logicalXor(lessThanZero(b))).to(q.dtype));
  const f = q.floor();
  const rounded = f.add(q.sub(f).gt(0.5).to(q.dtype));
  const zeroWithSign = a.div(b).mul(0); // copysign(0, a / b)
  const byZero = a.div(b);
  const isZeroDivisor = b instanceof Tensor ? b.eq(0) : b === 0;
  const result = where(q.ne(0), rounded, zeroWithSign);
  return typeof isZeroDivisor === 'boolean' ? (isZeroDivisor ? byZero : result) : where(isZeroDivisor, byZero, result);
}

/** A number's sign decides the computation: a tpu.compile number argument's trace is specialized on it. */
function lessThanZero(b: Operand): Tensor | boolean {
  return b instanceof Tensor ? b.lt(0) : specialized(b as number) < 0;
}

/**
 * Python's modulo: a - floor(a / b)·b, the sign of b (torch.remainder).
 * @example tpu.remainder(tpu.tensor([-3, 5]), 2) // [1, 1]
 */
export function remainder(a: Tensor, b: Operand): Tensor {
  infer('remainder', [a, operandAbstract(a, b)]); // its dtype errors name remainder, not the fmod it runs
  // One op to the user: debug mode checks its result, not r + b where it is not taken (7 % inf is 7).
  return composite('remainder', () => {
    const r = apply(fmodOp, [a, b], {});
    const fix = r.ne(0).logicalAnd(r.lt(0).logicalXor(lessThanZero(b)));
    return where(fix, r.add(b), r);
  });
}

export interface DivOptions {
  roundingMode?: RoundingMode | null;
}

/** The roundingMode of `{ roundingMode }`: null (absent) is true division. */
export function readRoundingMode(op: string, options: unknown): RoundingMode | null {
  const mode = readOptions<DivOptions>(op, options, ['roundingMode']).roundingMode ?? null;
  if (mode !== null && mode !== 'trunc' && mode !== 'floor') throw new TypeError(`${op}: roundingMode must be 'trunc', 'floor' or null; got ${JSON.stringify(mode)}`);
  return mode;
}

/** x.div(y) (true division) or x.div(y, { roundingMode: 'trunc' | 'floor' }). */
export function divide(a: Tensor, b: Operand, options?: DivOptions): Tensor {
  const mode = readRoundingMode('div', options);
  return mode === null ? a.div(b) : divRounded(a, b, mode);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Remainder with the sign of x (torch.fmod).
     * @example x.fmod(3)
     */
    fmod(other: Operand): Tensor;
    /**
     * Remainder with the sign of the divisor, as Python % (torch.remainder).
     * @example x.remainder(3)
     */
    remainder(other: Operand): Tensor;
    /**
     * Division rounded toward -inf, as Python // (torch.floor_divide): int // int stays an integer.
     * @example tpu.tensor([7, -7]).floorDivide(2) // [3, -4]
     */
    floorDivide(other: Operand): Tensor;
    /**
     * True division, the same as x.div(other) (torch.true_divide): integers give float32.
     * @example tpu.tensor([7, -7]).trueDivide(2) // [3.5, -3.5]
     */
    trueDivide(other: Operand): Tensor;
  }
}
installMethods({
  fmod(other) { return apply(fmodOp, [this, other], {}); },
  remainder(other) { return remainder(this, other); },
  floorDivide(other) { return divRounded(this, other, 'floor'); },
  trueDivide(other) { return this.div(other); },
});
