// The type of the cells' `__tpuOps` (operator-dispatch.ts) for the language service: a cell run
// with dispatched operators enters the history the next cells are checked against, and a typed
// cell is checked with the calls its untyped operands got. `const y = __tpuOps.mul(x, 2)` types y
// as `x * 2` would for a tensor x (a Tensor) or numbers (a number); an operand typed any or
// unknown may be a tensor, and gives any. The types follow JavaScript's operators and the table's
// methods: a comparison of tensors is a BoolTensor, as x.gt(y) is.

/** Declarations for cells, `tensor` and `boolTensor` being the expressions of the Tensor and BoolTensor types. */
export function dispatchDeclarations(tensor: string, boolTensor: string): string {
  return `
type __TpuUntyped<X> = unknown extends X ? true : false;
type __TpuTensorOr<A, B, Else, Result = ${tensor}> = true extends __TpuUntyped<A> | __TpuUntyped<B> ? any : [A] extends [${tensor}] ? Result : [B] extends [${tensor}] ? Result : Else;
type __TpuArith<A, B> = __TpuTensorOr<A, B, [A | B] extends [bigint] ? bigint : number>;
interface __TpuOperators {
  /** No type guard: \`y += 'b'\` on an any y would check y.add_('b') against Tensor's operands. */
  isTensor(value: unknown): boolean;
  add<A, B>(a: A, b: B): __TpuTensorOr<A, B, [A] extends [string] ? string : [B] extends [string] ? string : [A | B] extends [bigint] ? bigint : number>;
  sub<A, B>(a: A, b: B): __TpuArith<A, B>;
  mul<A, B>(a: A, b: B): __TpuArith<A, B>;
  div<A, B>(a: A, b: B): __TpuArith<A, B>;
  remainder<A, B>(a: A, b: B): __TpuArith<A, B>;
  pow<A, B>(a: A, b: B): __TpuArith<A, B>;
  lt<A, B>(a: A, b: B): __TpuTensorOr<A, B, boolean, ${boolTensor}>;
  le<A, B>(a: A, b: B): __TpuTensorOr<A, B, boolean, ${boolTensor}>;
  gt<A, B>(a: A, b: B): __TpuTensorOr<A, B, boolean, ${boolTensor}>;
  ge<A, B>(a: A, b: B): __TpuTensorOr<A, B, boolean, ${boolTensor}>;
  truth<V>(value: V): [V] extends [${tensor}] ? boolean : V;
  orLeft<V>(value: V): V;
  /** Narrows a in b, as \`a && b\` does; the value of \`and(...)\` may be a (a false tensor): any. */
  andLeft<V>(value: V): value is Exclude<V, null | undefined | false | 0 | '' | 0n>;
  and(value: unknown): any;
  looseEq<A, B>(a: A, b: B): __TpuTensorOr<A, B, boolean, ${boolTensor}>;
  looseNe<A, B>(a: A, b: B): __TpuTensorOr<A, B, boolean, ${boolTensor}>;
  neg<A>(a: A): __TpuArith<A, A>;
  plus(a: unknown): number;
  at<X, K>(x: X, key: K): __TpuTensorOr<X, X, K extends keyof X ? X[K] : any>;
  atItems<X>(x: X, ...keys: unknown[]): __TpuTensorOr<X, X, any>;
  refAt(op: string, x: unknown, ...keys: unknown[]): { apply(value: unknown): any };
  refProp(op: string, o: unknown, name: string): { apply(value: unknown): any };
  setAt<V>(x: unknown, key: unknown, value: V): V;
  setAtItems(x: unknown, ...keysThenValue: unknown[]): any;
}
/** Tensor operators in cells run without types (%typecheck off, the first cells): kernel internals. */
declare const __tpuOps: __TpuOperators;
`;
}
