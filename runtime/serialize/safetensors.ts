// The safetensors format (https://huggingface.co/docs/safetensors): an 8-byte little-endian
// unsigned header length N, N bytes of JSON header { name: { dtype, shape, data_offsets:
// [begin, end] }, "__metadata__"?: { string: string } } padded with spaces, then the raw
// little-endian tensor bytes; offsets are relative to the end of the header.
import type { DType } from '../dtype.js';

export const SAFETENSORS_DTYPE: Record<DType, string> = { float32: 'F32', bfloat16: 'BF16', int32: 'I32', int64: 'I64', bool: 'BOOL' };
const FROM_SAFETENSORS: Record<string, DType> = { F32: 'float32', BF16: 'bfloat16', I32: 'int32', I64: 'int64', BOOL: 'bool' };
const ITEM_BYTES: Record<string, number> = { F32: 4, BF16: 2, I32: 4, I64: 8, BOOL: 1 };

export interface RawTensor {
  readonly name: string;
  readonly dtype: DType;
  readonly shape: readonly number[];
  /** Little-endian element bytes. */
  readonly bytes: Uint8Array;
}

/** Header JSON is padded to a multiple of 8 bytes so the data starts aligned. */
export function encodeSafetensors(tensors: readonly RawTensor[], metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = {};
  if (Object.keys(metadata).length) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    if (t.name === '__metadata__') throw new RangeError(`tpu.save: '__metadata__' is reserved and cannot name a tensor`);
    header[t.name] = { dtype: SAFETENSORS_DTYPE[t.dtype], shape: t.shape, data_offsets: [offset, offset + t.bytes.length] };
    offset += t.bytes.length;
  }
  let json = Buffer.from(JSON.stringify(header), 'utf8');
  const padded = Math.ceil(json.length / 8) * 8;
  json = Buffer.concat([json, Buffer.alloc(padded - json.length, 0x20)]);
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const t of tensors) {
    out.set(t.bytes, at);
    at += t.bytes.length;
  }
  return out;
}

export interface DecodedSafetensors {
  readonly tensors: RawTensor[];
  readonly metadata: Record<string, string>;
}

/** Parses and validates a safetensors file; errors name the file, the tensor and the field. */
export function decodeSafetensors(file: Uint8Array, source: string): DecodedSafetensors {
  const bad = (why: string) => new Error(`tpu.load: ${source} is not a valid safetensors file: ${why}`);
  if (file.length < 8) throw bad(`it has ${file.length} bytes, fewer than the 8-byte header length`);
  const n = new DataView(file.buffer, file.byteOffset, file.byteLength).getBigUint64(0, true);
  if (n > BigInt(file.length - 8)) throw bad(`the header length ${n} exceeds the ${file.length - 8} bytes after it`);
  const dataStart = 8 + Number(n);
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(file.buffer, file.byteOffset + 8, Number(n)).toString('utf8'));
  } catch (e) {
    throw bad(`the header is not JSON (${(e as Error).message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw bad('the header is not a JSON object');
  const dataLength = file.length - dataStart;
  const tensors: RawTensor[] = [];
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      metadata = entry as Record<string, string>;
      continue;
    }
    const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const dtype = FROM_SAFETENSORS[String(e?.dtype)];
    if (!dtype) throw new TypeError(`tpu.load: ${source}: tensor '${name}' has dtype ${JSON.stringify(e?.dtype)}; supported: ${Object.keys(FROM_SAFETENSORS).join(', ')}`);
    const shape = e.shape;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) throw bad(`tensor '${name}' has shape ${JSON.stringify(shape)}`);
    const offsets = e.data_offsets;
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isInteger(o) && o >= 0)) {
      throw bad(`tensor '${name}' has data_offsets ${JSON.stringify(offsets)}`);
    }
    const [begin, end] = offsets as [number, number];
    const expected = shape.reduce((a: number, b: number) => a * b, 1) * ITEM_BYTES[e.dtype as string]!;
    if (end < begin || end > dataLength || end - begin !== expected) {
      throw bad(`tensor '${name}' (${e.dtype} [${shape.join(', ')}], ${expected} bytes) has data_offsets [${begin}, ${end}] in ${dataLength} data bytes`);
    }
    tensors.push({ name, dtype, shape, bytes: file.subarray(dataStart + begin, dataStart + end) });
  }
  return { tensors, metadata };
}
