// A view read after its base was written in place is recomputed at that read
// (views/stale-views.ts): its values and its gradient are PyTorch's, in every mode. Expected
// values are hand-computed (PyTorch 2.13 gives the same for each case).
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

const flat = (t: Tensor) => Array.from(t.flatten().dataSync());

describe.each(['debug', 'strict', 'fused'] as const)('views read after their base was written (%s)', (mode) => {
  it('a view of a view kept across three writes reads the last value', () => {
    tpu.mode(mode);
    const b = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    const col = b.T.at(1); // b[:, 1]
    b.add_(1);
    b.mul_(2);
    b.at(0).fill_(0);
    expect(flat(col)).toEqual([0, 12]);
    expect(flat(col.mul(1))).toEqual([0, 12]);
  });

  it('a view of a non-leaf written with gradients on joins the graph at the new value', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[1, 2], [3, 4]], { requiresGrad: true });
    const a = x.mul(1);
    const v = a.T;
    a.mul_(3); // v = (3x).T
    v.mul(tpu.tensor([[1, 2], [3, 4]])).sum().backward();
    expect(flat(x.grad!)).toEqual([3, 9, 6, 12]);
  });

  it('first read under noGrad: the view still carries its gradient afterwards', () => {
    tpu.mode(mode);
    const x = tpu.tensor([1, 2, 3], { requiresGrad: true });
    const a = x.mul(1);
    const v = a.at('1:');
    a.mul_(2);
    expect(flat(tpu.noGrad(() => v.add(0)))).toEqual([4, 6]);
    v.sum().backward();
    expect(flat(x.grad!)).toEqual([0, 2, 2]);
  });

  it('backward from a view whose base was written goes through the new value', () => {
    tpu.mode(mode);
    const x = tpu.tensor([1, 2, 3, 4], { requiresGrad: true });
    const a = x.mul(x).sum({ dim: 0, keepdim: true }); // [30]
    const v = a.view([]);
    a.mul_(2);
    v.backward();
    expect(flat(x.grad!)).toEqual([4, 8, 12, 16]);
  });

  it('a view saved for backward whose base an optimizer stepped: PyTorch\'s error', () => {
    tpu.mode(mode);
    const w = tpu.tensor([[1, 2], [3, 4]], { requiresGrad: true });
    const x = tpu.tensor([[1, 0], [0, 1]], { requiresGrad: true });
    const loss = x.matmul(w.T).sum(); // saves w.T for x's gradient
    tpu.noGrad(() => w.sub_(1));
    expect(() => loss.backward()).toThrow(/modified by an inplace operation/);
  });

  it('a view made before tpu.compile follows the replays that update its base', () => {
    tpu.mode(mode);
    const w = tpu.tensor([[1, 2], [3, 4]]);
    const wt = w.T;
    const step = tpu.compile(() => { w.add_(1); return w.sum(); });
    for (let k = 0; k < 3; k++) step();
    expect(flat(wt)).toEqual([4, 6, 5, 7]);
  });

  it('a base written then disposed: reading the view is a clear error', () => {
    tpu.mode(mode);
    const b = tpu.tensor([1, 2, 3]);
    const v = b.at('1:');
    b.add_(1);
    b.dispose();
    expect(() => v.dataSync()).toThrow(/written in place and then disposed/);
  });
});
