// F.pad's 'reflect' and 'replicate' modes and the padding layers (ZeroPad, ConstantPad,
// ReflectionPad, ReplicationPad; 1d and 2d) against PyTorch 2.13: values, gradients (the
// mirrored and repeated edges accumulate), errors, in every mode and under tpu.compile.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { grads, torchTier, uniform, type TorchCase } from './torch-tier.js';

const { nn } = tpu;
const F = nn.functional;
const SEQ = uniform([2, 3, 5], 50, -2, 2);
const IMG = uniform([1, 2, 4, 3], 51, -2, 2);

const cases: TorchCase[] = [
  {
    name: "pad 'reflect' and 'replicate' over 1, 2 and 3 dims",
    inputs: [SEQ, IMG],
    js: (s, m) => [F.pad(s, [2, 1], { mode: 'reflect' }), F.pad(s, [0, 4], { mode: 'replicate' }), F.pad(s.at(0), [4, 0], { mode: 'reflect' }),
      F.pad(m, [1, 2, 3, 0], { mode: 'reflect' }), F.pad(m, [2, 0, 1, 5], { mode: 'replicate' }), F.pad(m, [1, 1, 1, 1, 1, 0], { mode: 'replicate' }),
      F.pad(m.to('bfloat16'), [1, 1, 2, 2], { mode: 'reflect' })],
    py: "[F.pad(x0, [2, 1], mode='reflect'), F.pad(x0, [0, 4], mode='replicate'), F.pad(x0[0], [4, 0], mode='reflect'), F.pad(x1, [1, 2, 3, 0], mode='reflect'), F.pad(x1, [2, 0, 1, 5], mode='replicate'), F.pad(x1, [1, 1, 1, 1, 1, 0], mode='replicate'), F.pad(x1.bfloat16(), [1, 1, 2, 2], mode='reflect')]",
  },
  grads("pad 'reflect' gradient", [IMG], (m) => F.pad(m, [2, 1, 1, 3], { mode: 'reflect' }), "F.pad(x0, [2, 1, 1, 3], mode='reflect')"),
  grads("pad 'replicate' gradient", [SEQ], (s) => F.pad(s, [3, 2], { mode: 'replicate' }), "F.pad(x0, [3, 2], mode='replicate')"),
  { name: "pad 'reflect' as wide as the dim is an error", inputs: [SEQ], js: (s) => F.pad(s, [5, 0], { mode: 'reflect' }), py: "F.pad(x0, [5, 0], mode='reflect')" },
  { name: "pad 'replicate' of a 1-D tensor is an error", inputs: [uniform([4], 52)], js: (s) => F.pad(s, [1, 1], { mode: 'replicate' }), py: "F.pad(x0, [1, 1], mode='replicate')" },
  {
    name: 'the padding layers: one amount, one per side, ConstantPad by position and by name',
    inputs: [SEQ, IMG],
    js: (s, m) => [new nn.ZeroPad1d(2).forward(s), new nn.ZeroPad1d([0, 3]).forward(s), new nn.ZeroPad2d([1, 0, 2, 1]).forward(m), new nn.ZeroPad2d(1).forward(m),
      new nn.ConstantPad1d(1, 3.5).forward(s), new nn.ConstantPad2d({ padding: [1, 2, 0, 1], value: -1 }).forward(m),
      new nn.ReflectionPad1d([3, 1]).forward(s), new nn.ReflectionPad2d(2).forward(m), new nn.ReplicationPad1d(4).forward(s), new nn.ReplicationPad2d([0, 2, 3, 1]).forward(m)],
    py: '[torch.nn.ZeroPad1d(2)(x0), torch.nn.ZeroPad1d((0, 3))(x0), torch.nn.ZeroPad2d((1, 0, 2, 1))(x1), torch.nn.ZeroPad2d(1)(x1), torch.nn.ConstantPad1d(1, 3.5)(x0), torch.nn.ConstantPad2d(padding=(1, 2, 0, 1), value=-1.)(x1), torch.nn.ReflectionPad1d((3, 1))(x0), torch.nn.ReflectionPad2d(2)(x1), torch.nn.ReplicationPad1d(4)(x0), torch.nn.ReplicationPad2d((0, 2, 3, 1))(x1)]',
  },
];

torchTier("pad's reflect and replicate modes and the padding layers follow PyTorch", cases, { compile: true });

describe('the padding layers and modes name bad arguments', () => {
  it('names the argument and what came', () => {
    const x = tpu.ones([1, 2, 3]);
    expect(() => F.pad(x, [1, 1], { mode: 'wrap' as never })).toThrow(/pad: mode must be 'constant', 'reflect', 'replicate' or 'circular'; got "wrap"/);
    expect(() => F.pad(x, [1, 1], { mode: 'reflect', value: 2 })).toThrow(/pad: mode 'reflect' takes no value, as in PyTorch; got value 2/);
    expect(() => F.pad(x, [-1, 1], { mode: 'replicate' })).toThrow(/pad: mode 'replicate' takes amounts ≥ 0 \(only 'constant' crops\); got \[-1,1\]/);
    expect(() => F.pad(x, [3, 0], { mode: 'reflect' })).toThrow(/pad: mode 'reflect' needs each amount less than dim 2 \(size 3\); got amounts 3 and 0/);
    expect(() => new nn.ZeroPad2d([1, 2] as never)).toThrow(/nn\.ZeroPad2d: padding must be an integer or 4 of them \(last dim first\); got \[1,2\]/);
    expect(() => new nn.ReflectionPad1d(1.5)).toThrow(/nn\.ReflectionPad1d: padding must be an integer or 2 of them/);
    expect(() => new (nn.ConstantPad2d as new (...a: unknown[]) => unknown)(1)).toThrow(/nn\.ConstantPad2d: value is required, as in PyTorch/);
    expect(() => new nn.ConstantPad1d(1, { fill: 2 } as never)).toThrow(/nn\.ConstantPad1d: unknown option 'fill'/);
  });

  it("shows the padding as PyTorch's repr, in camelCase", () => {
    expect(String(new nn.ZeroPad2d(1))).toBe('ZeroPad2d([1, 1, 1, 1])');
    expect(String(new nn.ConstantPad1d([1, 2], 3.5))).toBe('ConstantPad1d(padding=[1, 2], value=3.5)');
    expect(String(new nn.ReflectionPad2d([1, 0, 2, 3]))).toBe('ReflectionPad2d([1, 0, 2, 3])');
    expect(String(new nn.ReplicationPad1d(2))).toBe('ReplicationPad1d([2, 2])');
  });
});
