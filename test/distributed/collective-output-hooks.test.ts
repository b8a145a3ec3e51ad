// A gradient hook on a collective's result (one chip's output of allReduce) runs on that chip's
// gradient before the collective's own backward, as on any other tensor: in every mode, against
// hand-computed gradients (allReduce's adjoint is an allReduce of the chips' gradients).
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 2 });
const mesh = tpu.initDeviceMesh([2]);

describe('registerHook on a collective\'s result', () => {
  it.each(['debug', 'strict', 'fused'] as const)('%s', (mode) => {
    tpu.withMode(mode, () => {
      const xs = mesh.chips.map((chip, k) => tpu.tensor([1 + k, 2], { chip, requiresGrad: true }));
      const ys = tpu.distributed.allReduce(xs, { op: 'sum', mesh });
      ys[1]!.registerHook((g) => g.mul(10));
      ys[0]!.sum().add(ys[1]!.sum().toChip(0)).backward();
      // chip 0's gradient 1, chip 1's 1 · 10: each input gets their sum
      expect(xs.map((x) => x.grad!.tolist())).toEqual([[11, 11], [11, 11]]);
    });
  });
});
