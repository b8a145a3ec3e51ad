// Creation from JS values: number literals are float32 (JS cannot tell 1.0 from 1, as in
// torch.Tensor and tf.js), Int32Array and integer arange are int32, values that do not fit
// the dtype are errors, ragged or holey arrays are errors, and the caller's arrays are copied.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

describe('number literals', () => {
  it('are float32 unless a dtype or an Int32Array says otherwise', () => {
    expect(tpu.tensor([1.0, 2.0]).dtype).toBe('float32');
    expect(tpu.tensor([[1, 2], [3, 4]]).dtype).toBe('float32');
    expect(tpu.tensor(3).dtype).toBe('float32');
    expect(tpu.full([2], 1.0).dtype).toBe('float32');
    expect(tpu.full([2], true).dtype).toBe('bool');
    expect(tpu.tensor([1, 2], { dtype: 'int32' }).dtype).toBe('int32');
    expect(tpu.tensor(new Int32Array([1, 2])).dtype).toBe('int32');
    expect(tpu.tensor([true, false]).dtype).toBe('bool');
    expect(tpu.tensor([]).dtype).toBe('float32');
  });

  it('copy_ of fractions into a tensor made from integer literals keeps the fractions', () => {
    const t = tpu.tensor([1, 2]);
    t.copy_(tpu.tensor([0.5, 1.25]));
    expect(t.array()).toEqual([0.5, 1.25]);
  });

  it('arange of integers is int64 (as PyTorch); of fractions or with a dtype it is float', () => {
    expect(tpu.arange(4).dtype).toBe('int64');
    expect(tpu.arange(1, 7, 2).array()).toEqual([1, 3, 5]);
    expect(tpu.arange(0, 1, 0.25).dtype).toBe('float32');
    const f = tpu.arange(6, { dtype: 'float32' });
    expect(f.dtype).toBe('float32');
    expect(f.array()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(tpu.arange(2, 5, { dtype: 'bfloat16' }).array()).toEqual([2, 3, 4]);
  });

  it('arange running away from end is an error, as PyTorch; an empty range is not', () => {
    // torch.arange(3, 1) and torch.arange(1, 3, -1) raise "upper bound and lower bound inconsistent with step sign"
    expect(() => tpu.arange(3, 1)).toThrow('tpu.arange: end 1 is below start 3 but step 1 is positive: upper bound and lower bound inconsistent with step sign (as PyTorch)');
    expect(() => tpu.arange(1, 3, -1)).toThrow('tpu.arange: end 3 is above start 1 but step -1 is negative');
    expect(() => tpu.arange(-2)).toThrow('tpu.arange: end -2 is below start 0 but step 1 is positive');
    expect(() => tpu.arange(0.5, 0.2, 0.1)).toThrow('tpu.arange: end 0.2 is below start 0.5');
    // torch.arange(5, 5) and torch.arange(5, 5, -1) are empty; arange(3, 1, -1) counts down
    expect(tpu.arange(5, 5).shape).toEqual([0]);
    expect(tpu.arange(5, 5, -1).shape).toEqual([0]);
    expect(tpu.arange(0).shape).toEqual([0]);
    expect(tpu.arange(3, 1, -1).array()).toEqual([3, 2]);
  });

  it('values that do not fit int32 are errors, not a wraparound', () => {
    expect(() => tpu.tensor([3e38], { dtype: 'int32' })).toThrow('tpu.tensor: value at index 0: 3e+38 does not fit in int32');
    expect(() => tpu.tensor([1, 2 ** 31], { dtype: 'int32' })).toThrow('value at index 1: 2147483648 does not fit in int32');
    expect(() => tpu.tensor([NaN], { dtype: 'int32' })).toThrow('does not fit in int32');
    expect(() => tpu.full([2], 2 ** 40, { dtype: 'int32' })).toThrow('tpu.full: value 1099511627776 does not fit in int32');
    expect(() => tpu.randint(0, 2 ** 32, [2], { dtype: 'int32' })).toThrow('tpu.randint: high - 1 4294967295 does not fit in int32');
    expect(() => tpu.arange(4.2e9, { dtype: 'int32' })).toThrow('tpu.arange: last value 4199999999 does not fit in int32');
    // int64 (the default) holds them; randint draws 32 bits per value, so wider ranges are refused
    expect(Array.from(tpu.randint(2 ** 40, 2 ** 40 + 1, [2]).dataSync() as BigInt64Array)).toEqual([2n ** 40n, 2n ** 40n]);
    expect(() => tpu.randint(0, 2 ** 33, [2])).toThrow('tpu.randint: high - low must be at most 2^32 (one 32-bit random draw per value); got low=0, high=8589934592');
    // the extremes themselves fit; fractions truncate toward zero as in PyTorch
    expect(tpu.tensor([2 ** 31 - 1, -(2 ** 31), -1.7], { dtype: 'int32' }).array()).toEqual([2147483647, -2147483648, -1]);
  });
});

describe('nested arrays', () => {
  it('ragged input is an error naming where', () => {
    expect(() => tpu.tensor([1, [2, 3]] as never)).toThrow('tpu.tensor: ragged nested array: data[1] is an array where a number was expected');
    expect(() => tpu.tensor([[1], 2] as never)).toThrow('tpu.tensor: ragged nested array: data[1] is a scalar where an array was expected');
    expect(() => tpu.tensor([[1, 2], [3]])).toThrow('tpu.tensor: ragged nested array: data[1] has length 1, expected 2');
  });

  it('holes in sparse arrays are an error', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(() => tpu.tensor([1, , 3])).toThrow('tpu.tensor: data[1] is a hole in a sparse array');
    expect(() => tpu.tensor(new Array(3) as number[])).toThrow('data[0] is a hole');
  });
});

describe('the caller\'s arrays are copied', () => {
  it('mutating a shape array after creation changes nothing', () => {
    const s = [2, 3];
    const z = tpu.zeros(s);
    const o = tpu.ones(s);
    const f = tpu.full(s, 7);
    s[0] = 5;
    s.push(4);
    for (const t of [z, o, f]) {
      expect(t.shape).toEqual([2, 3]);
      expect(t.numel()).toBe(6);
      expect((t.array() as number[][]).length).toBe(2);
    }
  });

  it('mutating the data array or typed array after creation changes nothing', () => {
    const data = [1, 2, 3];
    const typed = new Float32Array([4, 5, 6]);
    tpu.mode('fused');
    const a = tpu.tensor(data);
    const b = tpu.tensor(typed);
    data[0] = 100;
    typed[0] = 100;
    expect(a.array()).toEqual([1, 2, 3]);
    expect(b.array()).toEqual([4, 5, 6]);
  });
});

describe('memory', () => {
  it('a failed host conversion leaves no live tensor behind', () => {
    const before = tpu.memory().liveTensors;
    expect(() => tpu.tensor([1, 2 ** 40], { dtype: 'int32' })).toThrow('does not fit in int32');
    expect(tpu.memory().liveTensors).toBe(before);
    expect(tpu.zeros([3]).array()).toEqual([0, 0, 0]); // later allocations work
  });

  it('a request over the device capacity fails before a host array is built', () => {
    const before = tpu.memory().liveTensors;
    const start = performance.now();
    expect(() => tpu.arange(4.2e9, { dtype: 'float32' })).toThrow(/out of device memory: arange needs 15.6 GiB for \[4200000000\] float32/);
    expect(performance.now() - start).toBeLessThan(5000); // no 34 GB host array was made first (that takes minutes)
    // no phantom tensor left (the attempt may free collected ones: it reclaims before failing)
    expect(tpu.memory().liveTensors).toBeLessThanOrEqual(before);
  });
});

describe('bytes', () => {
  it('a Uint8Array of 0 and 1 makes a bool tensor; other bytes ask for a dtype instead of becoming 0/1', () => {
    expect([tpu.tensor(new Uint8Array([1, 0, 1])).dtype, tpu.tensor(new Uint8Array([1, 0, 1])).tolist()]).toEqual(['bool', [true, false, true]]);
    expect(() => tpu.tensor(new Uint8Array([0, 255, 7]))).toThrow(/tpu\.tensor: a Uint8Array makes a bool tensor \(values 0 and 1\), but it holds 255 at index 1: for bytes such as pixels give a dtype/);
    const pixels = new Uint8Array([0, 128, 255]);
    expect(tpu.tensor(pixels, { dtype: 'float32' }).div(255).tolist()).toEqual([0, Math.fround(128 / 255), 1]);
    expect(tpu.tensor(pixels, { dtype: 'int32' }).tolist()).toEqual([0, 128, 255]);
    expect(tpu.tensor(new Uint8ClampedArray([0, 128, 255]) as unknown as Float32Array).tolist()).toEqual([0, 128, 255]);
    // an explicit bool dtype reads any nonzero byte as true, as torch.tensor(..., dtype=torch.bool)
    expect(tpu.tensor(pixels, { dtype: 'bool' }).tolist()).toEqual([false, true, true]);
  });
});
