// The catalog's layout and indexing ops keep int32, bfloat16 and bool values exact, in every
// mode; expected values are computed here on the JS side.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16 } from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => tpu.mode('strict'));

// bfloat16-exact values (8 significant bits), negative included
const M = [[1.5, -2, 3.25], [40, -0.125, 6]];

describe.each(MODES)('%s mode', (mode) => {
  it.each(['int32', 'bfloat16'] as const)('%s through layout, indexing, scans and sorting', (dtype) => {
    tpu.mode(mode);
    const vals = dtype === 'int32' ? M.map((r) => r.map((v) => Math.trunc(v) || 0)) : M.map((r) => [...r]);
    const round = dtype === 'int32' ? (v: number) => v : bf16;
    const x: Tensor = tpu.tensor(vals, { dtype });
    const check = (t: Tensor, want: unknown, wantDtype: string = dtype) => {
      expect(t.dtype).toBe(wantDtype);
      expect(t.array()).toEqual(want);
    };
    check(x.flip(1), vals.map((r) => [...r].reverse()));
    check(x.roll(1, 0), [vals[1], vals[0]]);
    check(x.flip(1).at(':', '::2'), vals.map((r) => [r[2], r[0]]));
    check(x.T, [0, 1, 2].map((j) => vals.map((r) => r[j])));
    check(tpu.concat([x, x.at(':', '0:1')], 1), vals.map((r) => [...r, r[0]]));
    check(tpu.nn.functional.pad(x, [1, 0], { value: 7 }), vals.map((r) => [7, ...r]));
    check(x.index(tpu.tensor([1, 1], { dtype: 'int32' })), [vals[1], vals[1]]);
    check(x.gather(1, tpu.tensor([[2], [0]], { dtype: 'int32' })), [[vals[0]![2]], [vals[1]![0]]]);
    check(x.repeat(1, 2), vals.map((r) => [...r, ...r]));
    check(x.tril(), vals.map((r, i) => r.map((v, j) => (j <= i ? v : 0))));
    check(x.sort().values, vals.map((r) => [...r].sort((a, b) => a - b)));
    expect(x.sort().indices.array()).toEqual(vals.map((r) => [0, 1, 2].sort((a, b) => r[a]! - r[b]!)));
    // int32 scans are int64, as PyTorch's
    check(x.cumsum(1), vals.map((r) => r.map((_, j) => r.slice(0, j + 1).reduce((p, q) => p + q, 0)).map(round)), dtype === 'int32' ? 'int64' : dtype);
    check(x.amax(0), [0, 1, 2].map((j) => Math.max(vals[0]![j]!, vals[1]![j]!)));
    check(tpu.where(x.gt(0), x, tpu.zerosLike(x)), vals.map((r) => r.map((v) => Math.max(v, 0))));
    check(x.maskedFill(tpu.tensor([true, false, false]), -1), vals.map((r) => [-1, r[1], r[2]]));
    check(tpu.zeros([2, 3], { dtype }).scatterAdd(1, tpu.tensor([[1, 1, 1], [0, 0, 0]], { dtype: 'int32' }), x), [[0, round(vals[0]!.reduce((p, q) => p + q, 0)), 0], [round(vals[1]!.reduce((p, q) => p + q, 0)), 0, 0]]);
  });

  it('bool through layout ops and where', () => {
    tpu.mode(mode);
    const b = tpu.tensor([[true, false], [false, false]]);
    expect(b.flip(0).array()).toEqual([[false, false], [true, false]]);
    expect(tpu.stack([b, b.logicalNot()]).shape).toEqual([2, 2, 2]);
    expect(b.at(0).array()).toEqual([true, false]);
    expect(b.T.array()).toEqual([[true, false], [false, false]]);
    expect(tpu.nn.functional.pad(b, [0, 1], { value: 1 }).array()).toEqual([[true, false, true], [false, false, true]]);
    expect(tpu.where(b, true, b.logicalNot()).array()).toEqual([[true, true], [true, true]]);
    expect(b.cumsum(1).array()).toEqual([[1, 1], [0, 0]]);
  });

  it('maskedFill: the mask must broadcast to the input', () => {
    tpu.mode(mode);
    expect(() => tpu.ones([3]).maskedFill(tpu.ones([2, 3], { dtype: 'bool' }), 0)).toThrow("maskedFill: mask [2, 3] must broadcast to the input's shape [3]");
  });
});
