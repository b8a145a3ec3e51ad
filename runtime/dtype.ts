// The TPU dtypes, their storage, and PyTorch's type promotion.

export type DType = 'float32' | 'bfloat16' | 'int32' | 'int64' | 'bool';
/** The dtype of index results (argmax, sort, topk, oneHot) and integer creation, as PyTorch's torch.long. */
export const INDEX_DTYPE = 'int64' satisfies DType;
export const DTYPES: readonly DType[] = ['float32', 'bfloat16', 'int32', 'int64', 'bool'];

/** Bytes per element in device memory (bfloat16 is stored as 16 bits). */
export const ITEMSIZE: Record<DType, number> = { float32: 4, bfloat16: 2, int32: 4, int64: 8, bool: 1 };

/** The type a value of this dtype has inside a program: bfloat16 is computed in float32. */
export type ComputeType = 'float32' | 'int32' | 'int64' | 'bool';
export const COMPUTE_TYPE: Record<DType, ComputeType> = {
  float32: 'float32', bfloat16: 'float32', int32: 'int32', int64: 'int64', bool: 'bool',
};

/** Host-side array types: what `data()` returns. bfloat16 is widened to float32. */
export type HostArray = Float32Array | Int32Array | BigInt64Array | Uint8Array;
/** Device-side storage: bfloat16 as raw 16-bit patterns. */
export type StorageArray = Float32Array | Uint16Array | Int32Array | BigInt64Array | Uint8Array;

export function isFloating(d: DType): boolean {
  return d === 'float32' || d === 'bfloat16';
}

/** int32 and int64: the integer dtypes. */
export function isInteger(d: DType): boolean {
  return d === 'int32' || d === 'int64';
}

export function assertDType(value: unknown, op: string, arg = 'dtype'): DType {
  if (typeof value === 'string' && (DTYPES as readonly string[]).includes(value)) return value as DType;
  throw new TypeError(`${op}: ${arg} must be one of ${DTYPES.join(', ')}; got ${JSON.stringify(value)}`);
}

const RANK: Record<DType, number> = { bool: 0, int32: 1, int64: 2, bfloat16: 3, float32: 4 };
const CATEGORY: Record<DType, number> = { bool: 0, int32: 1, int64: 1, bfloat16: 2, float32: 2 };

/** Promotion of two tensors (torch.promote_types restricted to these dtypes). */
export function promoteTypes(a: DType, b: DType): DType {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * Promotion of two tensor operands with PyTorch's rule for 0-d tensors: a 0-d operand only
 * decides the dtype when its category (bool < int < float) is higher than the other's, so
 * a bfloat16 tensor times a 0-d float32 tensor stays bfloat16.
 */
export function promoteOperands(a: { readonly shape: readonly number[]; readonly dtype: DType }, b: { readonly shape: readonly number[]; readonly dtype: DType }): DType {
  const za = a.shape.length === 0;
  const zb = b.shape.length === 0;
  if (za === zb) return promoteTypes(a.dtype, b.dtype);
  const [dimmed, zero] = za ? [b.dtype, a.dtype] : [a.dtype, b.dtype];
  return CATEGORY[zero] > CATEGORY[dimmed] ? zero : dimmed;
}

/** A JS number or boolean operand: a "weak" scalar as in PyTorch. */
export type ScalarKind = 'bool' | 'int' | 'float';
export function scalarKind(v: number | boolean): ScalarKind {
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int' : 'float';
}
// an integer scalar meeting a bool tensor is int64, as PyTorch's (bool * 2, where(c, 1, 0))
const SCALAR_DEFAULT: Record<ScalarKind, DType> = { bool: 'bool', int: 'int64', float: 'float32' };
const SCALAR_CATEGORY: Record<ScalarKind, number> = { bool: 0, int: 1, float: 2 };

/** Tensor ⊕ scalar: the tensor's dtype wins unless the scalar is of a higher category. */
export function promoteWithScalar(t: DType, s: ScalarKind): DType {
  return SCALAR_CATEGORY[s] > CATEGORY[t] ? SCALAR_DEFAULT[s] : t;
}

/**
 * PyTorch CPU's mul and div with a bfloat16 result read a second operand of one value (a JS
 * number, a 0-d tensor) unrounded, in float32, and round only the result: x * 0.1 multiplies
 * by 0.1f where x + 0.1 adds 0.1 rounded to bfloat16. Whether that differs from computing in
 * bfloat16 for these operand and result types (their lowerings then compute in float32).
 */
export function readsSecondWhole(second: { readonly shape: readonly number[]; readonly dtype: DType }, result: DType): boolean {
  return result === 'bfloat16' && second.dtype !== 'bfloat16' && second.shape.every((n) => n === 1);
}

// float32 -> bfloat16 with round-to-nearest-even, NaN kept quiet.
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
export function bf16Bits(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  if ((bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0) return (bits >>> 16) | 0x40;
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

/** A number rounded to the nearest bfloat16 (ties to even), the value a bfloat16 holds. */
export function roundToBf16(x: number): number {
  u32[0] = bf16Bits(x) << 16;
  return f32[0]!;
}

/** Widens raw bfloat16 patterns to float32 values (exact). */
export function widenBf16(bits: Uint16Array): Float32Array {
  const out = new Float32Array(bits.length);
  const view = new Uint32Array(out.buffer);
  for (let i = 0; i < bits.length; i++) view[i] = bits[i]! << 16;
  return out;
}

/** Narrows float32 values already rounded to bfloat16 (or rounds them) to 16-bit patterns. */
export function narrowToBf16(values: Float32Array): Uint16Array {
  const out = new Uint16Array(values.length);
  const view = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < values.length; i++) {
    const bits = view[i]!;
    out[i] = (bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0
      ? (bits >>> 16) | 0x40
      : ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
  }
  return out;
}

export function allocStorage(dtype: DType, n: number): StorageArray {
  switch (dtype) {
    case 'float32': return new Float32Array(n);
    case 'bfloat16': return new Uint16Array(n);
    case 'int32': return new Int32Array(n);
    case 'int64': return new BigInt64Array(n);
    case 'bool': return new Uint8Array(n);
  }
}

export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;

/** Throws unless `value` (truncated toward zero, as PyTorch converts) fits in int32. */
export function checkInt32(who: string, what: string, value: number): void {
  const v = Math.trunc(value);
  if (!(v >= INT32_MIN && v <= INT32_MAX)) {
    throw new RangeError(`${who}: ${what} ${value} does not fit in int32 (range ${INT32_MIN} to ${INT32_MAX}); use dtype 'float32'`);
  }
}

export const INT64_LIMIT = 2 ** 63;

/** A JS number as an int64 (truncated toward zero); beyond int64's range an error naming `what`. */
export function toInt64(who: string, what: string, value: number): bigint {
  const v = Math.trunc(value);
  if (!(v >= -INT64_LIMIT && v < INT64_LIMIT)) {
    throw new RangeError(`${who}: ${what} ${value} does not fit in int64 (range -2^63 to 2^63-1)`);
  }
  return BigInt(v);
}

/**
 * Converts JS numbers into device storage of a dtype (bf16 rounded to nearest even; int32
 * truncated toward zero). A value outside an integer dtype's range is an error, never a wraparound.
 */
export function toStorage(dtype: DType, values: ArrayLike<number> | ArrayLike<bigint>, who = 'tensor'): StorageArray {
  if (values instanceof BigInt64Array) return bigIntsToStorage(dtype, values, who);
  return numbersToStorage(dtype, values as ArrayLike<number>, who);
}

/** BigInt values (a BigInt64Array) only make int64 storage: elsewhere they would round silently. */
function bigIntsToStorage(dtype: DType, values: BigInt64Array, who: string): StorageArray {
  if (dtype !== 'int64') throw new TypeError(`${who}: BigInt values (a BigInt64Array) make int64 tensors; got dtype '${dtype}' (convert after: .to('${dtype}'))`);
  return values.slice();
}

function numbersToStorage(dtype: DType, values: ArrayLike<number>, who: string): StorageArray {
  const out = allocStorage(dtype, values.length);
  if (dtype === 'bfloat16') for (let i = 0; i < values.length; i++) out[i] = bf16Bits(values[i]!);
  else if (dtype === 'bool') for (let i = 0; i < values.length; i++) out[i] = values[i] ? 1 : 0;
  else if (dtype === 'int32') {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (!(v > INT32_MIN - 1 && v < INT32_MAX + 1)) checkInt32(who, `value at index ${i}:`, v);
      out[i] = Math.trunc(v);
    }
  } else if (dtype === 'int64') {
    const o = out as BigInt64Array;
    for (let i = 0; i < values.length; i++) o[i] = toInt64(who, `value at index ${i}:`, values[i]!);
  } else (out as Float32Array).set(values as ArrayLike<number>);
  return out;
}

export function storageToHost(dtype: DType, storage: StorageArray): HostArray {
  if (dtype === 'bfloat16') return widenBf16(storage as Uint16Array);
  return storage as HostArray;
}
