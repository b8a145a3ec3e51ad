// A fused region cut at its size cap never falls between the chips' parts of one collective:
// chip 0's part run alone would wait for peers still pending on the host, and a read of chip
// 0's result (which waits for chip 0) would then wait for the interconnect's timeout. The
// backward of a collective records every chip's gradient rule (each a collective) in turn.
import { afterEach, describe, expect, it } from 'vitest';
import { setRegionCap, tpu } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
const before = setRegionCap(512);
afterEach(() => void setRegionCap(before));

describe('the size cap in the backward of a collective (fused)', () => {
  it("a cap of 1 op: the gradient of an allGather (a reduceScatter on every chip) runs whole", () => {
    tpu.withMode('fused', () => {
      setRegionCap(1); // a cut before every op but inside a collective's call
      const xs = [0, 1, 2, 3].map((chip) => tpu.tensor([chip + 1, 10 * (chip + 1)], { chip, requiresGrad: true }));
      const full = tpu.distributed.allGather(xs, { mesh, dim: 0 });
      // d/dx_k of Σ_c (c + 1) · sum(full_c) = Σ_c (c + 1) = 10 for every element of every x_k.
      full.map((f, c) => f.mul(c + 1).sum().toChip(0)).reduce((a, b) => a.add(b)).backward();
      expect(Array.from(xs[0]!.grad!.dataSync())).toEqual([10, 10]);
      expect(xs.map((x) => Array.from(x.grad!.dataSync()))).toEqual([[10, 10], [10, 10], [10, 10], [10, 10]]);
    });
  }, 20_000); // a chip left waiting at the collective would wait 60 s
});
