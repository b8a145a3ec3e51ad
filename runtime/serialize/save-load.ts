// tpu.save(stateDict, path) / tpu.load(path): safetensors files (see safetensors.ts), the
// format PyTorch (safetensors.torch.load_file), JAX and Hugging Face tools read.
import { readFile, writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { toStorage, widenBf16, type DType, type HostArray } from '../dtype.js';
import { tensor } from '../creation.js';
import { noGrad } from '../autograd/grad-mode.js';
import { Tensor } from '../tensor.js';
import { DTensor } from '../distributed/dtensor.js';
import { decodeSafetensors, encodeSafetensors, type RawTensor } from './safetensors.js';

if (endianness() !== 'LE') throw new Error('tpu.save/load: safetensors data is little-endian; this host is big-endian');

function checkPath(who: string, path: unknown): string {
  if (typeof path !== 'string' || path === '') throw new TypeError(`${who}: path must be a non-empty string; got ${JSON.stringify(path)}`);
  return path;
}

/**
 * Writes the tensors of a state dict (e.g. model.stateDict()) to a .safetensors file; a DTensor
 * (a fullyShard module's parameter) is written as its full value, which any module loads.
 * @example await tpu.save(model.stateDict(), 'model.safetensors')
 */
export async function save(state: Record<string, Tensor | DTensor>, path: string, metadata: Record<string, string> = { format: 'pt' }): Promise<void> {
  checkPath('tpu.save', path);
  if (state === null || typeof state !== 'object') throw new TypeError(`tpu.save: state must be an object of tensors (e.g. model.stateDict()); got ${state === null ? 'null' : typeof state}`);
  const raws: RawTensor[] = [];
  for (const [name, t] of Object.entries(state)) {
    if (!(t instanceof Tensor) && !(t instanceof DTensor)) throw new TypeError(`tpu.save: '${name}' must be a tensor or a DTensor; got ${typeof t}`);
    const host = await (t instanceof DTensor ? t.fullTensor() : t).data();
    const storage = host instanceof BigInt64Array ? host : toStorage(t.dtype, host);
    raws.push({ name, dtype: t.dtype, shape: t.shape, bytes: new Uint8Array(storage.buffer, storage.byteOffset, storage.byteLength) });
  }
  await writeFile(path, encodeSafetensors(raws, metadata));
}

function hostValues(dtype: DType, bytes: Uint8Array): HostArray {
  const copy = bytes.slice().buffer; // aligned
  if (dtype === 'float32') return new Float32Array(copy);
  if (dtype === 'bfloat16') return widenBf16(new Uint16Array(copy));
  if (dtype === 'int32') return new Int32Array(copy);
  if (dtype === 'int64') return new BigInt64Array(copy);
  return new Uint8Array(copy);
}

/**
 * Reads a .safetensors file into { name: tensor } (load it with module.loadStateDict).
 * @example
 * await tpu.save({ w: tpu.ones([2]) }, 'w.safetensors');
 * (await tpu.load('w.safetensors')).w // [1, 1]
 */
export async function load(path: string): Promise<Record<string, Tensor>> {
  checkPath('tpu.load', path);
  const { tensors } = decodeSafetensors(new Uint8Array(await readFile(path)), path);
  return noGrad(() =>
    Object.fromEntries(tensors.map((r) => [r.name, tensor(hostValues(r.dtype, r.bytes), { dtype: r.dtype }).reshape([...r.shape])])),
  );
}
