// Ops that return a constant they make (an empty or 0-d input's answer) make it on their input's
// chip: on chip 1 it was on chip 0 (a DTensor's cummax of an empty piece was refused, the piece
// on the wrong chip); mode's positions too (on chip 1, mode was an error). Values hand-computed.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 2 });

describe('ops on chip 1 answer there', () => {
  it('cummax and cummin of an empty and of a 0-d tensor', () => {
    for (const x of [tpu.zeros([0, 3], { chip: 1 }), tpu.tensor(5, { chip: 1 })]) {
      for (const op of ['cummax', 'cummin'] as const) {
        const { values, indices } = x[op](0);
        expect([values.chip, indices.chip, values.shape, indices.shape], `${op} of ${x.describe()}`).toEqual([1, 1, x.shape, x.shape]);
      }
    }
    expect(tpu.tensor(5, { chip: 1 }).cummax(0).indices.item()).toBe(0);
  });

  it('mode, and kthvalue of a 0-d tensor', () => {
    const { values, indices } = tpu.tensor([3, 1, 3, 2], { chip: 1 }).mode();
    expect([values.chip, values.item(), indices.item()]).toEqual([1, 3, 2]);
    const k = tpu.tensor(7, { chip: 1 }).kthvalue(1);
    expect([k.values.chip, k.indices.chip, k.indices.item()]).toEqual([1, 1, 0]);
  });

  it('median of an empty and of a 0-d tensor', () => {
    const empty = tpu.zeros([0], { chip: 1 }).median();
    expect([empty.chip, Number.isNaN(empty.item())]).toEqual([1, true]);
    const scalar = tpu.tensor(4, { chip: 1 }).median(0);
    expect([scalar.values.chip, scalar.indices.chip, scalar.values.item(), scalar.indices.item()]).toEqual([1, 1, 4, 0]);
  });
});
