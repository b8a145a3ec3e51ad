// What a recorded op application knows of its op: the name programs carry and how its
// attributes enter a program's cache key. The full op definition (ops/op.ts) extends it;
// kept apart so the tensor and its recipe need nothing of the op framework.
export interface Primitive<A = any> {
  readonly name: string;
  /** It reads indices from device data, so a bad index fails on the device (strict mode records its call sites). */
  readonly readsDeviceIndices?: boolean;
  /** Key of the attributes in program signatures; default: JSON of attrs. */
  readonly attrKey?: (attrs: A) => string;
}

/**
 * Attributes of an index op whose index values the host checked in range (host-known-indices.ts):
 * that application cannot fail on the device.
 */
export interface IndicesChecked {
  readonly indicesChecked?: true;
}

/** Whether `op` applied with `attrs` may fail on the device reading indices from device data (none the host checked). */
export function readsUncheckedIndices(op: Primitive, attrs: unknown): boolean {
  return op.readsDeviceIndices === true && (attrs as IndicesChecked | null | undefined)?.indicesChecked !== true;
}

export function attrKeyOf<A>(op: Primitive<A>, attrs: A): string {
  if (op.attrKey) return op.attrKey(attrs);
  for (const _ in attrs as object) return JSON.stringify(attrs);
  return '';
}

/**
 * Whether `a` and `b` have the same attrKeyOf, mostly without building it: plain data equal
 * field by field has equal keys; otherwise the keys are compared (a key may ignore a field,
 * and JSON writes -0 as 0). A region's program is looked up every step: one key per op
 * and step cost more than recording the op.
 */
export function sameAttrs<A>(op: Primitive<A>, a: A, b: A, keyOfB?: string): boolean {
  return a === b || plainEqual(a, b) || attrKeyOf(op, a) === (keyOfB ?? attrKeyOf(op, b));
}

/**
 * b's keys while plainEqual compares them with a's, nested objects' above their parent's: one
 * array for good, not two Object.keys arrays per node and step (5% of what a W6 fused step
 * allocated).
 */
const keyStack: string[] = [];
/** keyStack's used length (kept apart: shortening an array frees its store, and pushes grow it again). */
let keyTop = 0;

/** Equal numbers, strings, booleans, arrays and plain objects (same keys in the same order). */
function plainEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!plainEqual(a[i], b[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(a);
  if ((proto !== Object.prototype && proto !== null) || Object.getPrototypeOf(b) !== proto) return false;
  // for-in lists own keys only here (the prototype is Object.prototype or null), in Object.keys' order.
  const start = keyTop;
  for (const k in b) keyStack[keyTop++] = k;
  const end = keyTop;
  let i = start;
  try {
    for (const k in a) {
      if (i === end || k !== keyStack[i] || !plainEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
      i++;
    }
    return i === end;
  } finally {
    keyTop = start;
  }
}
