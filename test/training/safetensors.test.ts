// tpu.save / tpu.load: files parse per the safetensors spec with an independent reader
// written here, files written here by hand load, and every dtype round-trips bit-exactly.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const dir = mkdtempSync(join(tmpdir(), 'tpu-safetensors-'));

/** The spec, read independently: u64 LE header size, JSON header, raw LE data after it. */
function readSafetensors(file: Buffer) {
  const n = Number(file.readBigUInt64LE(0));
  const header = JSON.parse(file.subarray(8, 8 + n).toString('utf8'));
  const data = file.subarray(8 + n);
  const out: Record<string, { dtype: string; shape: number[]; values: (number | bigint)[] }> = {};
  for (const [name, e] of Object.entries<any>(header)) {
    if (name === '__metadata__') continue;
    const [b, end] = e.data_offsets;
    const bytes = data.subarray(b, end);
    const values: (number | bigint)[] = [];
    if (e.dtype === 'I64') for (let i = 0; i < bytes.length; i += 8) values.push(bytes.readBigInt64LE(i));
    if (e.dtype === 'F32') for (let i = 0; i < bytes.length; i += 4) values.push(bytes.readFloatLE(i));
    if (e.dtype === 'I32') for (let i = 0; i < bytes.length; i += 4) values.push(bytes.readInt32LE(i));
    if (e.dtype === 'BOOL') for (let i = 0; i < bytes.length; i++) values.push(bytes[i]!);
    if (e.dtype === 'BF16') {
      for (let i = 0; i < bytes.length; i += 2) {
        const f = Buffer.alloc(4);
        f.writeUInt16LE(bytes.readUInt16LE(i), 2); // bfloat16 = the high half of a float32
        values.push(f.readFloatLE(0));
      }
    }
    out[name] = { dtype: e.dtype, shape: e.shape, values };
  }
  return { n, header, out, dataLength: data.length };
}

describe('tpu.save / tpu.load (safetensors)', () => {
  it('writes a file that parses per the spec, with every dtype', async () => {
    const state = {
      'layer.weight': tpu.tensor([[1.5, -2], [0.25, 3]], { dtype: 'float32' }),
      half: tpu.tensor([1.5, -0.333984375, 1000], { dtype: 'bfloat16' }),
      steps: tpu.tensor([7, -1, 2 ** 30], { dtype: 'int32' }),
      counts: tpu.tensor(BigInt64Array.from([2n ** 53n + 1n, -5n])),
      mask: tpu.tensor([true, false, true]),
      scalar: tpu.tensor(4.5),
    };
    const path = join(dir, 'a.safetensors');
    await tpu.save(state, path);
    const { n, header, out, dataLength } = readSafetensors(readFileSync(path));
    expect(Number(n) % 8).toBe(0);
    expect(header.__metadata__).toEqual({ format: 'pt' });
    expect(out['layer.weight']).toEqual({ dtype: 'F32', shape: [2, 2], values: [1.5, -2, 0.25, 3] });
    expect(out.half).toEqual({ dtype: 'BF16', shape: [3], values: [1.5, -0.333984375, 1000] });
    expect(out.steps).toEqual({ dtype: 'I32', shape: [3], values: [7, -1, 2 ** 30] });
    expect(out.counts).toEqual({ dtype: 'I64', shape: [2], values: [2n ** 53n + 1n, -5n] });
    expect(out.mask).toEqual({ dtype: 'BOOL', shape: [3], values: [1, 0, 1] });
    expect(out.scalar).toEqual({ dtype: 'F32', shape: [], values: [4.5] });
    // offsets tile the data buffer exactly
    const spans = Object.entries<any>(header).filter(([k]) => k !== '__metadata__').map(([, e]) => e.data_offsets).sort((a, b) => a[0] - b[0]);
    spans.forEach((s, i) => expect(s[0]).toBe(i === 0 ? 0 : spans[i - 1][1]));
    expect(spans[spans.length - 1][1]).toBe(dataLength);

    const back = await tpu.load(path);
    expect(Object.keys(back).sort()).toEqual(Object.keys(state).sort());
    for (const [k, t] of Object.entries(state)) {
      expect(back[k]!.dtype).toBe(t.dtype);
      expect(back[k]!.shape).toEqual(t.shape);
      expect(await back[k]!.data()).toEqual(await t.data()); // exact, int64 beyond 2^53 included
    }
  });

  it('loads a file written by hand, and round-trips a model through loadStateDict', async () => {
    const header = Buffer.from(JSON.stringify({ w: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, i: { dtype: 'I32', shape: [1, 1], data_offsets: [8, 12] } }));
    const data = Buffer.alloc(12);
    data.writeFloatLE(0.5, 0);
    data.writeFloatLE(-4, 4);
    data.writeInt32LE(-9, 8);
    const size = Buffer.alloc(8);
    size.writeBigUInt64LE(BigInt(header.length));
    const path = join(dir, 'hand.safetensors');
    writeFileSync(path, Buffer.concat([size, header, data]));
    const loaded = await tpu.load(path);
    expect(loaded.w!.array()).toEqual([0.5, -4]);
    expect(loaded.i!.array()).toEqual([[-9]]);

    tpu.manualSeed(4);
    const model = new tpu.nn.Sequential(new tpu.nn.Linear(3, 2), new tpu.nn.LayerNorm(2));
    await tpu.save(model.stateDict(), join(dir, 'model.safetensors'));
    tpu.manualSeed(5);
    const fresh = new tpu.nn.Sequential(new tpu.nn.Linear(3, 2), new tpu.nn.LayerNorm(2));
    fresh.loadStateDict(await tpu.load(join(dir, 'model.safetensors')));
    const x = tpu.randn([4, 3]);
    expect(Array.from(fresh.forward(x).dataSync())).toEqual(Array.from(model.forward(x).dataSync()));
  });

  it('bad files and arguments get clear errors', async () => {
    const p = (name: string, bytes: Buffer) => {
      writeFileSync(join(dir, name), bytes);
      return join(dir, name);
    };
    await expect(tpu.load(p('short', Buffer.from([1, 2])))).rejects.toThrow(/not a valid safetensors file: it has 2 bytes/);
    const big = Buffer.alloc(16);
    big.writeBigUInt64LE(1000n);
    await expect(tpu.load(p('big', big))).rejects.toThrow(/header length 1000 exceeds the 8 bytes after it/);
    const h = Buffer.from(JSON.stringify({ x: { dtype: 'F64', shape: [1], data_offsets: [0, 8] } }));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(h.length));
    await expect(tpu.load(p('f64', Buffer.concat([len, h, Buffer.alloc(8)])))).rejects.toThrow(/tensor 'x' has dtype "F64"; supported: F32, BF16, I32, I64, BOOL/);
    const h2 = Buffer.from(JSON.stringify({ x: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }));
    len.writeBigUInt64LE(BigInt(h2.length));
    await expect(tpu.load(p('size', Buffer.concat([len, h2, Buffer.alloc(8)])))).rejects.toThrow(/tensor 'x' \(F32 \[3\], 12 bytes\) has data_offsets \[0, 8\]/);
    await expect(tpu.save({ a: 3 } as never, join(dir, 'x'))).rejects.toThrow(/'a' must be a tensor/);
    await expect(tpu.save({}, '' as never)).rejects.toThrow(/path must be a non-empty string/);
  });
});
