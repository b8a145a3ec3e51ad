// Gives DTensor the Tensor methods listed in dtensor-op-groups.ts, each with its group's rule
// (generic-rules.ts), and their types: the Tensor method's own signature with Tensor read as
// DTensor (dtensor.ts merges DTensorMethods into the class, which is what cells type-check against).
import { deviceChip } from '../device-argument.js';
import { isOptions } from '../options.js';
import { Tensor } from '../tensor.js';
import { formatShape, shapesEqual } from '../shape.js';
import { noGrad } from '../autograd/grad-mode.js';
import { describeValue } from './describe-value.js';
import type { ValuesIndices } from '../ops/values-indices.js';
import { DTensor } from './dtensor.js';
import { ALONG_DIMS, COMPOSED, HOST_READS, IN_PLACE, NOT_ON_DTENSOR, POINTWISE, REPLICATED } from './dtensor-op-groups.js';
import { hostRead, inPlace, method, overDims, pointwise, replicated, type PieceOp } from './generic-rules.js';

type Lift<T> = T extends Tensor ? DTensor : T extends ValuesIndices<Tensor> ? ValuesIndices<DTensor> : T extends readonly Tensor[] ? DTensor[] : T;
type LiftArgs<A extends readonly unknown[]> = { [I in keyof A]: A[I] extends infer E ? (E extends Tensor ? DTensor : E) : never };
/** One signature lifted; one whose `this` must be a narrower Tensor (item's on a BoolTensor) is left out. */
type Lifted<This, A extends readonly unknown[], R> = unknown extends This ? (...args: LiftArgs<A>) => Lift<R> : unknown;
/** A Tensor method's (or function's) type on DTensors: each of its (up to 3) overloads lifted. */
export type OnDTensors<F> = F extends {
  (this: infer T1, ...args: infer A1): infer R1;
  (this: infer T2, ...args: infer A2): infer R2;
  (this: infer T3, ...args: infer A3): infer R3;
} ? Lifted<T1, A1, R1> & Lifted<T2, A2, R2> & Lifted<T3, A3, R3> : Lift<F>;

type Listed = (typeof POINTWISE | typeof IN_PLACE | typeof REPLICATED | typeof HOST_READS | typeof COMPOSED)[number] | keyof typeof ALONG_DIMS;
/** The Tensor methods DTensor takes from the lists, typed for DTensors (in-place ones return the DTensor). */
export type DTensorMethods = { readonly [K in Extract<keyof Tensor, Listed>]: OnDTensors<Tensor[K]> };

type Rule = (who: string, args: readonly unknown[], op: PieceOp) => unknown;

function install(name: string, value: PropertyDescriptor, replace = false): void {
  if (name in DTensor.prototype && !replace) throw new Error(`DTensor.${name} is installed twice`);
  Object.defineProperty(DTensor.prototype, name, value.get ? { ...value, configurable: true } : { ...value, writable: true, configurable: true });
}

function assignData(x: DTensor, v: unknown): void {
  if (!(v instanceof DTensor) || !shapesEqual(v.shape, x.shape) || v.dtype !== x.dtype) {
    throw new TypeError(`DTensor.data = v: v must be a DTensor of shape ${formatShape(x.shape)} and dtype ${x.dtype}; got ${v instanceof DTensor ? `${formatShape(v.shape)} ${v.dtype}` : describeValue(v)}`);
  }
  noGrad(() => x.copy_(v));
}

/** Each method runs the Tensor method of its name by `rule`. */
function installRule(names: readonly string[], rule: Rule): void {
  for (const name of names) {
    const who = `DTensor.${name}`;
    const op = method(name);
    install(name, { value: function (this: DTensor, ...args: unknown[]) { return rule(who, [this, ...args], op); } });
  }
}

installRule(POINTWISE, pointwise);
// dt.to(dtype) casts each piece; a device would put every piece on one chip, off the mesh's layout.
const castEachPiece = (DTensor.prototype as unknown as { to: (...args: unknown[]) => DTensor }).to;
install('to', {
  value: function (this: DTensor, ...args: unknown[]) {
    if (args.some((a) => deviceChip('DTensor.to', a) !== undefined || (isOptions(a) && a.device !== undefined))) {
      throw new TypeError("DTensor.to: a DTensor lives on its mesh's chips, a piece on each: a device would put every piece on one chip; redistribute it, or move dt.fullTensor()");
    }
    return castEachPiece.apply(this, args);
  },
}, true);
installRule(IN_PLACE, inPlace);
installRule(REPLICATED, replicated);
installRule(HOST_READS, hostRead);
// dt.data = v writes v's values into the pieces outside autograd, as a tensor's (PyTorch's w.data = v); dt.data() reads them
const readData = (DTensor.prototype as unknown as { data: unknown }).data;
install('data', { get: () => readData, set(this: DTensor, v: unknown) { assignData(this, v); } }, true);
for (const [name, read] of Object.entries(ALONG_DIMS)) installRule([name], (who, args, op) => overDims(who, args, op, read));
for (const name of COMPOSED) install(name, Object.getOwnPropertyDescriptor(Tensor.prototype, name)!);
for (const [name, reason] of Object.entries(NOT_ON_DTENSOR)) {
  const refuse = () => {
    throw new TypeError(`DTensor.${name}: not on a DTensor: ${reason}`);
  };
  const isGetter = Object.getOwnPropertyDescriptor(Tensor.prototype, name)?.get !== undefined;
  install(name, isGetter ? { get: refuse } : { value: refuse });
}
