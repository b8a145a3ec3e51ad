// The int64 dtype end to end: creation (BigInt64Array, { dtype: 'int64' }, zeros/ones/full/
// arange), exact values beyond 2^53 in data(), item() and array() as numbers where exact,
// printing, safetensors I64, and clear errors for values that do not fit. References: BigInt
// values written here.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { int64Values } from '../support/int64-values.js';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => tpu.mode('strict'));
const BEYOND = 2n ** 53n + 1n; // the first integer a JS number cannot hold

describe.each(MODES)('%s mode', (mode) => {
  it('creates int64 tensors', async () => {
    tpu.mode(mode);
    const exact = [BEYOND, -(2n ** 63n), 2n ** 63n - 1n];
    expect(await int64Values(tpu.tensor(BigInt64Array.from(exact)))).toEqual(exact);
    expect(await int64Values(tpu.tensor([[1, 2], [-3, 4.9]], { dtype: 'int64' }))).toEqual([1n, 2n, -3n, 4n]);
    expect(await int64Values(tpu.zeros([2], { dtype: 'int64' }))).toEqual([0n, 0n]);
    expect(await int64Values(tpu.ones([2], { dtype: 'int64' }))).toEqual([1n, 1n]);
    expect(await int64Values(tpu.full([2], 2 ** 40, { dtype: 'int64' }))).toEqual([2n ** 40n, 2n ** 40n]);
    expect(await int64Values(tpu.arange(2 ** 40, 2 ** 40 + 3, { dtype: 'int64' }))).toEqual([0n, 1n, 2n].map((i) => 2n ** 40n + i));
    // the defaults: number arrays are float32, integer arange int64 (as PyTorch)
    expect(tpu.tensor([1, 2]).dtype).toBe('float32');
    expect(tpu.arange(3).dtype).toBe('int64');
  });

  it('reads int64 values as numbers only where they are exact', async () => {
    tpu.mode(mode);
    const t = tpu.tensor(BigInt64Array.from([5n, -(2n ** 52n)]));
    expect(await t.array()).toEqual([5, -(2 ** 52)]);
    expect(await t.at(1).item()).toBe(-(2 ** 52));
    const big = tpu.tensor(BigInt64Array.from([1n, BEYOND]));
    expect(() => big.array()).toThrow(/array.*9007199254740993.*data\(\)/);
    expect(() => big.at(1).item()).toThrow(/item.*9007199254740993.*data\(\)/);
    expect(await int64Values(big)).toEqual([1n, BEYOND]); // the tensor survives the error
  });

  it('prints int64 values exactly', async () => {
    tpu.mode(mode);
    const text = String(tpu.tensor(BigInt64Array.from([BEYOND, -3n])));
    expect(text).toContain('9007199254740993');
    expect(text).toContain('-3');
    expect(text).toContain('dtype=int64');
  });
});

describe('bad input', () => {
  it('a value beyond int64 is an error naming it', () => {
    expect(() => tpu.tensor([1, 2 ** 63], { dtype: 'int64' })).toThrow(/index 1.*9223372036854776000.*int64/);
    expect(() => tpu.tensor([NaN], { dtype: 'int64' })).toThrow(/int64/);
    expect(() => tpu.full([2], -(2 ** 64), { dtype: 'int64' })).toThrow(/tpu\.full.*value.*int64/);
  });

  it('BigInt values only make int64 tensors', () => {
    expect(() => tpu.tensor(BigInt64Array.from([1n]), { dtype: 'float32' })).toThrow(/BigInt.*int64.*float32/);
  });

  it('an op without an int64 lowering refuses int64 at the call, naming the op', () => {
    const x = tpu.tensor(BigInt64Array.from([1n, 2n, 3n, 4n])).reshape([2, 2]);
    expect(() => x.matmul(x)).toThrow(/matmul.*int64/);
  });

  it('ops that still refuse int64 say how to cast (an int64 arange, as users make them)', () => {
    const a = tpu.arange(4).reshape([2, 2]);
    const cast = /int64 tensors are not supported by this op yet; convert first with \.to\('int32'\).*or \.to\('float32'\)/;
    expect(() => a.matmul(a)).toThrow(cast);
    expect(() => tpu.nn.functional.conv2d(a.reshape([1, 1, 2, 2]), a.reshape([1, 1, 2, 2]))).toThrow("conv2d: input and weight must be floating point; got int64 and int64 (convert with .to('float32'))");
  });

  it('randint is int64 over any range within int64, values in [low, high)', async () => {
    tpu.manualSeed(3);
    const low = 2n ** 60n;
    const r = tpu.randint(2 ** 60, 2 ** 60 + 2 ** 12, [200]);
    expect(r.dtype).toBe('int64');
    const values = await int64Values(r);
    expect(values.every((v) => v >= low && v < low + 4096n)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(150); // spread over the range, not one value
  });

  it('an int64 arange used as an index is checked at the call, as int32 index lists are', () => {
    expect(() => tpu.zeros([3]).indexSelect(0, tpu.arange(5))).toThrow('indexSelect: index 3 at position 3 is out of range [0, 2]');
  });

  it('the session goes on after a refusal: the operand is intact', async () => {
    const x = tpu.tensor(BigInt64Array.from([1n, 2n, 3n, 4n])).reshape([2, 2]);
    expect(() => x.matmul(x)).toThrow(/matmul/);
    expect(await int64Values(x)).toEqual([1n, 2n, 3n, 4n]);
  });
});

describe('tpu.compile', () => {
  it('int64 arguments and results replay exactly, wrapping as PyTorch', async () => {
    const f = tpu.compile((x: Tensor, y: Tensor) => x.mul(x).add(y).maximum(x.neg()));
    for (const k of [2n ** 40n + 3n, 3037000500n]) {
      const xs = [k, -k, 7n];
      const ys = [1n, 2n ** 62n, -3n];
      const want = xs.map((x, i) => { const a = BigInt.asIntN(64, x * x + ys[i]!); return a > -x ? a : -x; });
      expect(await int64Values(f(tpu.tensor(BigInt64Array.from(xs)), tpu.tensor(BigInt64Array.from(ys))))).toEqual(want);
    }
  });
});

describe('safetensors', () => {
  it('saves and loads int64 (I64) exactly', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'i64-')), 'w.safetensors');
    const exact = [BEYOND, -(2n ** 63n), 7n, 0n];
    await tpu.save({ w: tpu.tensor(BigInt64Array.from(exact)).reshape([2, 2]) }, path);
    const bytes = await readFile(path);
    const header = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString('utf8'));
    expect(header.w).toMatchObject({ dtype: 'I64', shape: [2, 2] });
    const { w } = await tpu.load(path);
    expect(w!.shape).toEqual([2, 2]);
    expect(await int64Values(w!)).toEqual(exact);
  });
});
