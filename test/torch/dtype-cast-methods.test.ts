// PyTorch's cast methods (x.float(), x.int(), x.long(), x.bool(), x.bfloat16()) against
// PyTorch in every mode; x.half() and x.double(), whose dtypes the runtime lacks, are errors.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, torchTier, type TorchCase } from './torch-tier.js';

const F = f32([1.7, -1.7, 0, -0.5, 2.5, 1e9]);

const cases: TorchCase[] = [
  { name: 'float to int and long truncate toward zero', inputs: [F], js: (x) => [x.int(), x.long()], py: '(x0.int(), x0.long())' },
  { name: 'float to bool and bfloat16', inputs: [F], js: (x) => [x.bool(), x.bfloat16()], py: '(x0.bool(), x0.bfloat16())' },
  { name: 'int to float, long and bool', inputs: [i32([3, -7, 0, 2147483647])], js: (x) => [x.float(), x.long(), x.bool()], py: '(x0.float(), x0.long(), x0.bool())' },
  { name: 'bool and bfloat16 to float and int', inputs: [bool([true, false]), bf16([1.5, -2.75])], js: (b, h) => [b.float(), b.int(), h.float(), h.int()], py: '(x0.float(), x0.int(), x1.float(), x1.int())' },
  { name: 'a cast to the same dtype', inputs: [F], js: (x) => x.float(), py: 'x0.float()' },
];

torchTier('cast methods vs PyTorch', cases);

describe('cast methods to dtypes the runtime lacks', () => {
  const x = () => tpu.tensor([1, 2]);
  it.each([
    ['half', () => x().half(), "half: float16 is not a dtype of this runtime (it has float32, bfloat16, int32, int64, bool); use x.bfloat16() (the TPU's 16-bit float)"],
    ['double', () => x().double(), 'double: float64 is not a dtype of this runtime (it has float32, bfloat16, int32, int64, bool); use x.float() (TPUs compute in float32)'],
  ])('%s is an error naming the dtypes there are', (_, call, message) => {
    expect(call).toThrow(message);
  });

  it('a same-dtype cast is the tensor itself, as PyTorch', () => {
    const t = x();
    expect(t.float()).toBe(t);
  });
});
