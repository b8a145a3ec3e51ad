// A constant made inside a program (ops.constantTensor: a composed op's index table) follows
// the chip of the tensors it meets: met on another chip, it is made again there from its own
// operands. In fused mode a constant computed from another one and left a recipe has its
// recipe's inputs rewritten to hidden tensors (the buffers it reads, or the recipe of an input
// read since), which an op refuses as disposed: making it again must use the operands it was
// made from. Hand-computed values, every mode.
import { describe, expect, it } from 'vitest';
import { ops, tpu } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });

describe.each(['debug', 'strict', 'fused'] as const)('a constant computed from a constant, met on chip 1, in %s mode', (mode) => {
  it('made again there after its input was read first', () => {
    tpu.withMode(mode, () => {
      const c = ops.constantTensor([1, 2, 3], [3], 'float32');
      expect(c.array()).toEqual([1, 2, 3]);
      const negated = c.neg(); // reads c's buffer: a recipe once the region ran
      expect(negated.sum().item()).toBe(-6);
      expect(tpu.ones([3], { chip: 1 }).add(negated).array()).toEqual([0, -1, -2]);
    });
  });

  it('made again there after its input was read after it', () => {
    tpu.withMode(mode, () => {
      const c = ops.constantTensor([1, 2, 3], [3], 'float32');
      const negated = c.neg();
      expect(negated.sum().item()).toBe(-6); // both left recipes in fused mode
      expect(c.array()).toEqual([1, 2, 3]);
      expect(tpu.ones([3], { chip: 1 }).add(negated).array()).toEqual([0, -1, -2]);
    });
  });
});
