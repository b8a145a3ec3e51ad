// Bad calls throw on the host at the call, in every mode, naming op, argument and shapes;
// the session and its tensors survive every error.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, DeviceError, NonFiniteError } from 'tpu-kernel/runtime';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => {
  tpu.mode('strict');
  tpu.setCallSites('auto');
  tpu.setDevice({ hbmBytes: null });
});

describe.each(MODES)('%s mode: host-side errors', (mode) => {
  it('names the op, the arguments and the shapes', () => {
    tpu.mode(mode);
    const a = tpu.ones([2, 3]);
    const b = tpu.ones([4]);
    expect(() => a.add(b)).toThrow('add: shapes [2, 3] (input) and [4] (other) cannot be broadcast: dimension -1 is 3 vs 4');
    expect(() => a.matmul(tpu.ones([2, 3]))).toThrow(
      'matmul: input [2, 3] and other [2, 3] cannot be multiplied: input dim -1 is 3 but other dim -2 is 2',
    );
    expect(() => a.reshape([4, 2])).toThrow('reshape: shape [4, 2] is invalid for input of shape [2, 3] (6 elements)');
    expect(() => a.reshape([-1, -1])).toThrow('reshape: only one dimension can be -1; got [-1, -1]');
    expect(() => a.reshape([-1, 4])).toThrow('reshape: shape [-1, 4] is invalid for input of shape [2, 3] (6 elements)');
    expect(() => a.reshape([-1, 1.5])).toThrow('reshape: shape[1] must be an integer ≥ -1 (one -1 is inferred from the others); got 1.5 in reshape([-1, 1.5])');
    expect(() => tpu.ones([0, 3]).reshape([0, -1])).toThrow('reshape: cannot reshape 0 elements into [0, -1]: with another dimension 0, the -1 could be any size');
    expect(a.reshape([3, -1]).shape).toEqual([3, 2]);
    expect(() => a.sum(2)).toThrow('sum: dim must be an integer in [-2, 1] for a tensor of rank 2; got 2');
    expect(() => a.transpose(0, 5)).toThrow(/transpose: dim1 must be an integer in \[-2, 1\]/);
    expect(() => a.add('x' as never)).toThrow('add: other must be a tensor, a number or a boolean; got string "x"');
    expect(() => a.add([1, 2] as never)).toThrow(/add: other must be .* an array \(wrap it with tpu.tensor/);
    // a BigInt scalar (x - 4n beside an int64 tensor) is named, with the 0-d int64 tensor to use
    expect(() => tpu.tensor([5n]).sub(4n as never)).toThrow('sub: other must be a tensor, a number or a boolean; got bigint 4n (an int64 scalar is a 0-d tensor: tpu.tensor(4n))');
    expect(() => a.to('float64' as never)).toThrow(`to: its argument (a dtype, or a device such as 'tpu:0') must be one of float32, bfloat16, int32, int64, bool; got "float64"`);
    expect(() => tpu.zeros([2, -1])).toThrow('tpu.zeros: shape[1] must be a non-negative integer; got -1 in tpu.zeros([2, -1])');
    expect(() => tpu.tensor([[1, 2], [3]])).toThrow('tpu.tensor: ragged nested array: data[1] has length 1, expected 2');
    expect(() => tpu.tensor([true]).sub(tpu.tensor([false]))).toThrow(/sub: subtraction with a bool tensor is not supported \(as in PyTorch\)/);
    expect(() => a.item()).toThrow('item: the tensor must have exactly one element; got shape [2, 3] (6 elements)');
    // the session goes on, and the tensors are intact
    expect(a.add(1).sum().item()).toBe(12);
  });

  it('refuses a disposed tensor, naming it', () => {
    tpu.mode(mode);
    const a = tpu.ones([2]);
    a.dispose();
    expect(() => a.mul(2)).toThrow('mul: input is a disposed tensor [2] float32');
    expect(() => a.dataSync()).toThrow('dataSync: the tensor [2] float32 was disposed');
  });
});

describe('device errors', () => {
  it('debug mode throws NaN/Inf at the line that called the op', () => {
    tpu.mode('debug');
    const x = tpu.tensor([1, 0], { dtype: 'float32' });
    let caught: unknown;
    try {
      x.log(); // log(0) = -inf
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(NonFiniteError);
    expect(String((caught as Error).message)).toMatch(/^log produced NaN or Inf \(output \[2\] float32\) at .*errors\.test\.ts:\d+/);
    expect(x.add(1).array()).toEqual([2, 1]);
  });

  it('debug mode checks a composed op by its result, not by the ops inside it', () => {
    tpu.mode('strict');
    const x = tpu.tensor([[0, -Infinity, 1]]); // made outside debug mode, which rejects an infinite value
    tpu.mode('debug');
    // inside softmax, x - max(x) holds -inf; the result is finite
    const y = Array.from(x.softmax(1).dataSync());
    const e = Math.exp(-1);
    expect(y[0]).toBeCloseTo(e / (1 + e), 6);
    expect(y[1]).toBe(0);
    expect(y[2]).toBeCloseTo(1 / (1 + e), 6);
    // a result that overflows still throws at the calling line, naming the composed op
    const big = tpu.tensor([3e38, -3e38]);
    let caught: unknown;
    try {
      big.var(); // (3e38)² overflows float32
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(NonFiniteError);
    expect(String((caught as Error).message)).toMatch(/^var produced NaN or Inf \(output \[\] float32\) at .*errors\.test\.ts:\d+/);
    expect(big.array()).toEqual([3e38, -3e38].map(Math.fround));
  });

  // An output too large for the device's allocator: fails on the device thread, not the host.
  const hugeOnDevice = () => {
    tpu.setDevice({ hbmBytes: 2 ** 45 });
    return tpu.zeros([1]).expand([2 ** 33]);
  };

  it.each(['strict', 'fused'] as const)('%s mode: a device failure surfaces at the next sync point, naming the op and line', async (mode) => {
    tpu.mode(mode);
    tpu.setCallSites(true);
    const keep = tpu.tensor([1, 2, 3]);
    const big = hugeOnDevice(); // returns at once: nothing ran yet
    expect(big.shape).toEqual([2 ** 33]);
    const err = await tpu.sync().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    expect((err as Error).message).toMatch(/op 'expand' failed on the device \(called at .*errors\.test\.ts:\d+:\d+\)?\): .*(allocation failed|[Ii]nvalid typed array length)/);
    // the session goes on; other tensors are intact; the failed one reports its failure
    expect(keep.mul(2).array()).toEqual([2, 4, 6]);
    expect(() => big.dataSync()).toThrow(DeviceError);
    big.dispose();
    await tpu.sync();
  });

  // The line after the one calling it, as V8 (and the test runner's source maps) number it.
  const nextLine = () => Number(/:(\d+):\d+\)?$/.exec(new Error().stack!.split('\n')[2]!)![1]) + 1;

  it.each(['strict', 'fused'] as const)('%s mode, by default: names the call that failed, not the line that first compiled its program', async (mode) => {
    tpu.mode(mode);
    tpu.setDevice({ hbmBytes: 2 ** 45 });
    const shape = [2 ** 33 + 16]; // a shape no other test uses: compiled on the next line
    const first = tpu.zeros([1]).expand(shape);
    await expect(tpu.sync()).rejects.toThrow(DeviceError);
    const line = nextLine();
    const again = tpu.zeros([1]).expand(shape); // the same program again, from this line
    const err = await tpu.sync().then(() => undefined, (e: unknown) => e);
    first.dispose();
    again.dispose();
    expect(err).toBeInstanceOf(DeviceError);
    const message = (err as Error).message;
    expect(message).toMatch(new RegExp(`^op 'expand' failed on the device \\(called at \\S*errors\\.test\\.ts:${line}:\\d+`));
    expect(message).not.toMatch(/first compiled/);
    expect(tpu.ones([2]).mul(3).array()).toEqual([3, 3]);
  });

  it.each(['strict', 'fused'] as const)('%s mode: an index out of range in device data names the indexing op and its line', async (mode) => {
    // row 5 of 3, computed on the device: only the device sees the value (host-uploaded indices are checked at the call)
    const rows = tpu.withMode('strict', () => tpu.tensor([0, 1], { dtype: 'int32' }).mul(5));
    tpu.mode(mode);
    const table = tpu.arange(6).reshape([3, 2]);
    const line = nextLine();
    const picked = table.indexSelect(0, rows);
    const doubled = picked.mul(2);
    const err = await doubled.data().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    const message = (err as Error).message;
    const call = `\\S*errors\\.test\\.ts:${line}:\\d+`;
    // fused: from the region's first op that may fail to the line that cut it (data() above)
    const cut = `\\S*errors\\.test\\.ts:${line + 2}:\\d+`;
    expect(message).toMatch(new RegExp(mode === 'strict' ? `^op 'indexSelect' failed on the device \\(called at ${call}\\)` : `^fused program of 3 ops \\(reshape, indexSelect, mul\\) failed on the device \\(called at ${call} … ${cut}; indexSelect at ${call}\\)`));
    expect(message).toMatch(/out of data bounds/);
    for (const t of [table, rows, picked, doubled]) t.dispose();
    expect(tpu.ones([2]).mul(3).array()).toEqual([3, 3]); // the session goes on
  });

  it('fused mode with tpu.setCallSites(true): the range starts at the region\'s first op', async () => {
    const rows = tpu.withMode('strict', () => tpu.tensor([0, 1], { dtype: 'int32' }).mul(5));
    tpu.mode('fused');
    tpu.setCallSites(true);
    const line = nextLine();
    const table = tpu.arange(6).reshape([3, 2]);
    const picked = table.indexSelect(0, rows);
    const err = await picked.data().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    const at = (l: number) => `\\S*errors\\.test\\.ts:${l}:\\d+`;
    expect((err as Error).message).toMatch(new RegExp(`\\(called at ${at(line)} … ${at(line + 2)}; indexSelect at ${at(line + 1)}\\)`));
    for (const t of [table, rows, picked]) t.dispose();
  });

  it('with call sites off, the device error names the op and the line that first compiled it', async () => {
    tpu.mode('strict');
    tpu.setCallSites(false);
    tpu.setDevice({ hbmBytes: 2 ** 45 });
    const big = tpu.zeros([1]).expand([2 ** 33 + 8]); // a new shape: compiled here
    big.dispose();
    await expect(tpu.sync()).rejects.toThrow(
      /op 'expand' failed on the device \(first compiled at .*errors\.test\.ts:\d+:\d+\)?; tpu.setCallSites\(true\) names the exact call\)/,
    );
  });
});
