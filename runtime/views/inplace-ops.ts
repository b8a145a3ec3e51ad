// In-place ops (add_, copy_, x.at(...).set(v), ...): the target keeps its identity and takes
// the new value; through a view the write reaches the base and every other view of it.
import { Tensor } from '../tensor.js';
import type { Operand } from '../ops/op.js';
import { assignAll } from '../modes/assign.js';
import { filled } from '../ops/constant.js';
import { installMethods } from '../install-methods.js';
import { gradEnabled } from '../autograd/grad-mode.js';
import { trackViews, untracked, writeThrough } from './view-tracking.js';
import '../ops/index.js';

trackViews(
  ['reshape', 'view', 'permute', 'transpose', 'expand', 'at', 'slice', 'narrow', 'squeeze', 'unsqueeze', 'flatten'],
  ['T', 'mT'],
  // advanced indexing (a list or tensor index) copies, as in PyTorch
  (name, args) => name !== 'at' || !args.some((a) => a instanceof Tensor || Array.isArray(a)),
);

function checkAutograd(op: string, target: Tensor): void {
  if (!gradEnabled()) return;
  const root = target._viewOf?.base ?? target;
  if (root.requiresGrad && root._gradNode === null) {
    throw new Error(`${op}: a ${root === target ? '' : 'view of a '}leaf Variable that requires grad is being used in an in-place operation (wrap it in tpu.noGrad)`);
  }
  if (target.requiresGrad || root.requiresGrad) {
    throw new Error(`${op}: in-place operations on a tensor that is part of an autograd graph are not supported; use the out-of-place op (for example x = x.add(y))`);
  }
}

/** `target` takes `value` in place (a fresh tensor this call consumes). */
export function writeInPlace(op: string, target: Tensor, value: Tensor): Tensor {
  checkAutograd(op, target);
  const { base, newBase } = target._viewOf ? writeThrough(target, value) : { base: target, newBase: value };
  assignAll([[base, newBase]], op);
  return target;
}

/** A new tensor holding t's value broadcast to `shape`, for an in-place write to consume. */
function fresh(t: Tensor, shape: readonly number[], dtype = t.dtype): Tensor {
  return untracked(() => t.expand([...shape]).to(dtype).reshape([...shape]));
}

function filledLike(op: string, like: Tensor, value: number): Tensor {
  return filled(op, [...like.shape], value, like.dtype);
}

declare module '../tensor.js' {
  interface Tensor {
    add_(other: Operand): Tensor;
    sub_(other: Operand): Tensor;
    mul_(other: Operand): Tensor;
    div_(other: Operand): Tensor;
    clamp_(min?: Operand | null, max?: Operand | null): Tensor;
    zero_(): Tensor;
    fill_(value: number): Tensor;
    maskedFill_(mask: Tensor, value: Operand): Tensor;
    /** In place: the elements this index selects take `value` (index_put_ / `x[i] = v`). */
    set(value: Operand): Tensor;
    /** In place: this tensor takes the value of `source` (broadcast to this shape; cast to this dtype). */
    copy_(source: Tensor): Tensor;
  }
}
installMethods({
  add_(other) { return writeInPlace('add_', this, this.add(other)); },
  sub_(other) { return writeInPlace('sub_', this, this.sub(other)); },
  mul_(other) { return writeInPlace('mul_', this, this.mul(other)); },
  div_(other) { return writeInPlace('div_', this, this.div(other)); },
  clamp_(min, max) { return writeInPlace('clamp_', this, this.clamp(min, max)); },
  zero_() { return writeInPlace('zero_', this, filledLike('zero_', this, 0)); },
  fill_(value) { return writeInPlace('fill_', this, filledLike('fill_', this, value)); },
  maskedFill_(mask, value) { return writeInPlace('maskedFill_', this, this.maskedFill(mask, value)); },
  copy_(source) {
    if (!(source instanceof Tensor)) throw new TypeError(`copy_: source must be a tensor; got ${typeof source}`);
    return writeInPlace('copy_', this, fresh(source, this.shape, this.dtype));
  },
  set(value) {
    if (!this._viewOf) throw new TypeError('set: the target must be a view of a tensor, such as x.at(0) or x.at(":", 1)');
    const v = value instanceof Tensor ? fresh(value, this.shape) : filledLike('set', this, value as number);
    return writeInPlace('set', this, v);
  },
});
