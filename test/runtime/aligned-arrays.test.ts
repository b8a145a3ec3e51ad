// The ONNX backend's arrays start on 64-byte cache lines (device/onnx/aligned-arrays.ts):
// program outputs, pooled and reused, small native ones, and uploads (copied when malloc put
// them off a line), with their values kept; small arrays and other bindings are left alone.
// Where a buffer's memory starts comes from the ortc addon (napi_get_arraybuffer_info).
import { describe, expect, it } from 'vitest';
import { OrtBackend } from '../../dist/runtime/device/onnx/ort-backend.js';
import { AlignedArrays } from '../../dist/runtime/device/onnx/aligned-arrays.js';
import { BufferPool } from '../../dist/runtime/device/onnx/buffer-pool.js';
import { loadOrtc } from '../../dist/runtime/device/onnx/ortc-addon.js';
import type { Program } from '../../dist/runtime/program/program.js';
import type { StorageArray } from '../../dist/runtime/dtype.js';

const ortc = loadOrtc(1);
if (!('addon' in ortc)) throw new Error(`the ortc addon is built by npm install here: ${ortc.reason}`);
const lineOffset = (b: ArrayBuffer) => ortc.addon.lineOffset(b);
const onLine = (a: StorageArray) => (lineOffset(a.buffer as ArrayBuffer) + a.byteOffset) % 64 === 0;

describe('arrays on cache lines', () => {
  it('the addon reads where a buffer starts: a multiple of 16 (malloc\'s alignment) below 64', () => {
    const offsets = [64, 4096, 1 << 16, 1 << 24].map((n) => lineOffset(new ArrayBuffer(n)));
    for (const o of offsets) expect([0, 16, 32, 48], `offsets ${offsets}`).toContain(o);
  });

  it('makes arrays of every size class on a line, reuses a pooled one, and leaves small ones unpadded', () => {
    const pool = new BufferPool();
    const arrays = new AlignedArrays(pool, lineOffset);
    for (const n of [256, 300, 1 << 14, 1 << 20, 3 << 20]) {
      const a = arrays.make(Float32Array, n);
      expect(a.length).toBe(n);
      expect(onLine(a), `${n} floats`).toBe(true);
      expect(Array.from(a.subarray(0, 4))).toEqual([0, 0, 0, 0]);
    }
    const small = arrays.make(Float32Array, 100); // 400 bytes: where malloc put it
    expect(small.buffer.byteLength).toBe(400);
    const big = arrays.make(Float32Array, 1 << 20);
    arrays.recycle(big);
    const again = arrays.make(Float32Array, 1 << 20);
    expect(again.buffer).toBe(big.buffer);
    expect(again.byteOffset).toBe(big.byteOffset);
    expect(pool.stats().reused).toBe(1);
    // an upload's own buffer (no pad) is not pooled: no take would ever fit it
    arrays.recycle(new Float32Array(1 << 20));
    expect(pool.stats().pooledBytes).toBe(0);
  });

  it('copies an upload that starts off a line (values kept) and keeps one that starts on a line', () => {
    const arrays = new AlignedArrays(new BufferPool(), lineOffset);
    const raw = new ArrayBuffer(4 * 5000 + 64);
    const skew = (64 - lineOffset(raw)) % 64;
    const off = new Float32Array(raw, skew + 16, 4000);
    off.forEach((_, i) => (off[i] = i * 0.5 - 3));
    const placed = arrays.placed(off);
    expect(placed).not.toBe(off);
    expect(onLine(placed)).toBe(true);
    expect(Array.from(placed)).toEqual(Array.from(off));
    const ints = new BigInt64Array(raw, skew + 8, 500);
    ints[7] = -(2n ** 60n);
    expect(arrays.placed(ints)[7]).toBe(-(2n ** 60n));
    const on = new Float32Array(raw, skew, 4000);
    expect(arrays.placed(on)).toBe(on);
    const tiny = new Float32Array(10);
    expect(arrays.placed(tiny)).toBe(tiny);
    // without an address (another binding), nothing moves
    expect(new AlignedArrays(new BufferPool(), undefined).placed(off)).toBe(off);
  });

  it('the backend runs a program on misaligned uploads into outputs on a line, with the right values', async () => {
    const backend = new OrtBackend({ threads: 1 });
    const n = 1 << 16;
    const v = { shape: [n], dtype: 'float32' as const };
    const program: Program = {
      inputs: [v, v],
      scalars: [],
      nodes: [{ op: 'add', inputs: [0, 1], attrs: {}, ...v }, { op: 'mul', inputs: [2, 0], attrs: {}, ...v }],
      outputs: [3],
    };
    const exe = await backend.compile(program);
    const raw = new ArrayBuffer(8 * n + 128);
    const skew = (64 - lineOffset(raw)) % 64;
    const a = new Float32Array(raw, skew + 16, n).map((_, i) => i % 97);
    const b = new Float32Array(raw, skew + 4 * n + 80, n).map((_, i) => (i % 13) - 6);
    const ins = [backend.toDevice('float32', a), backend.toDevice('float32', b)];
    for (const x of ins) expect(onLine(backend.toHost(x))).toBe(true);
    const [out] = backend.execute(exe, ins, []);
    const y = backend.toHost(out!) as Float32Array;
    expect(onLine(y)).toBe(true);
    y.forEach((got, i) => {
      const want = Math.fround(Math.fround((i % 97) + ((i % 13) - 6)) * (i % 97));
      if (got !== want) expect(got, `element ${i}`).toBe(want);
    });
    for (const x of [...ins, out!]) backend.free(x);
    await backend.release(exe);
  });
});
