// Printing keeps the sign of a zero, as PyTorch does (JS's toFixed and template strings drop
// it): a tensor printed mid-loop shows the value the next ops read. The expected strings are
// PyTorch 2.13's str() of the same values, with our shape, dtype and device suffix.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const suffix = (shape: string) => `, shape=${shape}, dtype=float32, device='tpu:0')`;

describe('printing -0', () => {
  it.each(['debug', 'strict', 'fused'] as const)('fixed, integral and scientific layouts (%s)', (mode) => {
    tpu.mode(mode);
    try {
      expect(String(tpu.tensor([-0, 0.5]))).toBe(`tensor([-0.0000, 0.5000]${suffix('[2]')}`);
      expect(String(tpu.tensor([0.5, 1]).mul(-1).add(tpu.tensor([0.5, 1])).mul(-1))).toBe(`tensor([-0., -0.]${suffix('[2]')}`);
      expect(String(tpu.tensor([-0, 2]))).toBe(`tensor([-0., 2.]${suffix('[2]')}`);
      expect(String(tpu.tensor([-0, 1e-6]))).toBe(`tensor([-0.0000e+00, 1.0000e-06]${suffix('[2]')}`);
      expect(String(tpu.tensor([[0, 1], [2, 3]]).mul(tpu.tensor([-1, 1])).mul(tpu.tensor([[1], [-1]])))).toBe(`tensor([[-0.,  1.],\n        [ 2., -3.]]${suffix('[2, 2]')}`);
    } finally {
      tpu.mode('strict');
    }
  });
});
