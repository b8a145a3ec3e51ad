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

export function attrKeyOf<A>(op: Primitive<A>, attrs: A): string {
  if (op.attrKey) return op.attrKey(attrs);
  for (const _ in attrs as object) return JSON.stringify(attrs);
  return '';
}
