// A compiled function's results have the strides eager execution gives them (PyTorch's, see
// test/torch/result-strides.test.ts) on every call: the replays, which build their results
// without running the body, too; and a leaf's .grad made by a replay keeps the leaf's layout.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

describe('tpu.compile keeps the strides of results', () => {
  it('an elementwise op of a transpose: strides [1, 3] on the trace and every replay', async () => {
    let runs = 0;
    const f = tpu.compile((x: Tensor) => (runs++, [x.T.mul(2), x.T.sum(0), x.T.contiguous()]));
    const x = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    for (let call = 0; call < 3; call++) {
      const [y, s, c] = f(x) as Tensor[];
      // x.T of a [2, 3] tensor has strides [1, 3]; mul keeps them, sum and contiguous are row-major
      expect([y!.stride(), s!.stride(), c!.stride()]).toEqual([[1, 3], [1], [2, 1]]);
      expect(y!.isContiguous()).toBe(false);
      expect(() => y!.view([6])).toThrow(/view size is not compatible/);
      // a reshape copies: y keeps its values [[2, 8], [4, 10], [6, 12]]
      y!.reshape([6]).fill_(0);
      expect(await y!.array()).toEqual([[2, 8], [4, 10], [6, 12]]);
    }
    expect(runs).toBe(1);
  });

  it("a leaf's gradient from a replay has the leaf's strides", () => {
    const q = tpu.tensor([[1, 2, 3], [4, 5, 6]]).T.mul(1).detach().requiresGrad_();
    let runs = 0;
    const step = tpu.compile((t: Tensor) => {
      runs++;
      t.grad = undefined;
      t.mul(t).sum().backward();
      return t.grad!;
    });
    for (let call = 0; call < 3; call++) {
      step(q);
      expect(q.grad!.stride()).toEqual([1, 3]);
      // d/dq sum(q·q) = 2q
      expect(q.grad!.array()).toEqual([[2, 8], [4, 10], [6, 12]]);
    }
    expect(runs).toBe(1);
  });
});
