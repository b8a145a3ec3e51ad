// add / mul / matmul / sum in every mode, against float64 loops computed here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { broadcastRef, expectClose, matmulRef, seededValues, sumRef } from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
const f32 = (xs: number[]) => Array.from(Float32Array.from(xs));

afterEach(() => tpu.mode('strict'));

describe.each(MODES)('%s mode', (mode) => {
  it('adds and multiplies with broadcasting, exactly like float32 arithmetic', async () => {
    tpu.mode(mode);
    const a = { shape: [3, 4], data: f32(seededValues(12, 1)) };
    const b = { shape: [4], data: f32(seededValues(4, 2)) };
    const ta = tpu.tensor(a.data, { dtype: 'float32' }).reshape(a.shape);
    const tb = tpu.tensor(b.data, { dtype: 'float32' });
    const sum = ta.add(tb);
    const prod = ta.mul(tb);
    // float32 result of one float64 op on float32 inputs is the correctly rounded float32.
    expect(Array.from(await sum.data())).toEqual(f32(broadcastRef(a, b, (x, y) => x + y).data));
    expect(Array.from(prod.dataSync())).toEqual(f32(broadcastRef(a, b, (x, y) => x * y).data));
    expect(sum.shape).toEqual([3, 4]);
  });

  it('multiplies matrices and sums over dims', async () => {
    tpu.mode(mode);
    const a = { shape: [5, 7], data: f32(seededValues(35, 3)) };
    const b = { shape: [7, 3], data: f32(seededValues(21, 4)) };
    const ta = tpu.tensor(a.data, { dtype: 'float32' }).reshape([5, 7]);
    const tb = tpu.tensor(b.data, { dtype: 'float32' }).reshape([7, 3]);
    const c = ta.matmul(tb);
    const ref = matmulRef(a, b);
    expectClose(await c.data(), ref.data, 1e-5, 1e-5);
    const s = c.sum({ dim: 1, keepdim: true });
    expect(s.shape).toEqual([5, 1]);
    expectClose(s.dataSync(), sumRef(ref, [1], true).data, 1e-5, 1e-5);
    expectClose([c.sum().item()], sumRef(ref, [0, 1], false).data, 1e-5, 1e-5);
  });

  it('adds JS scalars as weak operands', () => {
    tpu.mode(mode);
    const i = tpu.tensor([1, 2, 3], { dtype: 'int32' });
    expect(i.add(1).dtype).toBe('int32');
    expect(i.add(1).array()).toEqual([2, 3, 4]);
    expect(i.add(0.5).dtype).toBe('float32');
    expect(i.add(0.5).array()).toEqual([1.5, 2.5, 3.5]);
  });
});
