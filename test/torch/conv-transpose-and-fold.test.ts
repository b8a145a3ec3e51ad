// nn.ConvTranspose1d/2d, F.convTranspose1d/2d, F.unfold/fold and nn.Unfold/Fold against PyTorch
// 2.13: values and gradients (input, weight, bias) over stride, padding, outputPadding, groups,
// dilation, outputSize; layers given PyTorch's weights; PyTorch's init bound by statistics; bad
// arguments named; in every mode and under tpu.compile.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { grads, torchTier, uniform, type TorchCase } from './torch-tier.js';
import { loaded, pyTrained, trained } from './module-weights.js';

const { nn } = tpu;
const F = nn.functional;

const IMG = uniform([2, 4, 3, 5], 60, -2, 2);
const SEQ = uniform([2, 4, 6], 61, -2, 2);
const W2 = uniform([4, 3, 3, 2], 62); // [in, out/groups, kh, kw]
const W1 = uniform([4, 3, 3], 63);
const B6 = uniform([6], 64);

const functionCases: TorchCase[] = [
  {
    name: 'convTranspose2d: defaults, stride, padding, outputPadding, dilation, bias by position and by name, unbatched',
    inputs: [IMG, W2, uniform([3], 65)],
    js: (x, w, b) => [F.convTranspose2d(x, w), F.convTranspose2d(x, w, b, { stride: 2 }), F.convTranspose2d(x, w, { bias: b, stride: [2, 3], padding: [1, 0], outputPadding: [1, 2] }),
      F.convTranspose2d(x, w, null, { dilation: 2, padding: 1 }), F.convTranspose2d(x, w, { stride: 2, dilation: 3, outputPadding: 2 }), F.convTranspose2d(x.at(0), w, b, { stride: 2 })],
    py: '[F.conv_transpose2d(x0, x1), F.conv_transpose2d(x0, x1, x2, stride=2), F.conv_transpose2d(x0, x1, bias=x2, stride=(2, 3), padding=(1, 0), output_padding=(1, 2)), F.conv_transpose2d(x0, x1, None, dilation=2, padding=1), F.conv_transpose2d(x0, x1, stride=2, dilation=3, output_padding=2), F.conv_transpose2d(x0[0], x1, x2, stride=2)]',
    rtol: 1e-5, atol: 1e-5,
  },
  {
    name: 'convTranspose2d with groups, and in bfloat16',
    inputs: [IMG, uniform([4, 3, 2, 2], 66), B6],
    js: (x, w, b) => [F.convTranspose2d(x, w, b, { groups: 2, stride: 2 }), F.convTranspose2d(x, w, { groups: 4 }), F.convTranspose2d(x.to('bfloat16'), w.to('bfloat16'), { stride: 2 })],
    py: '[F.conv_transpose2d(x0, x1, x2, groups=2, stride=2), F.conv_transpose2d(x0, x1, groups=4), F.conv_transpose2d(x0.bfloat16(), x1.bfloat16(), stride=2)]',
    rtol: 1e-5, atol: 1e-5,
  },
  {
    name: 'convTranspose1d: defaults, stride, padding, outputPadding, dilation, groups, bias, unbatched',
    inputs: [SEQ, W1, uniform([3], 67), uniform([4, 3, 2], 68)],
    js: (x, w, b, wg) => [F.convTranspose1d(x, w), F.convTranspose1d(x, w, b, { stride: 3, padding: 1, outputPadding: 2 }), F.convTranspose1d(x, w, { bias: b, dilation: [2], padding: [2] }),
      F.convTranspose1d(x, wg, { groups: 2, stride: 2, outputPadding: 1 }), F.convTranspose1d(x.at(1), w, b)],
    py: '[F.conv_transpose1d(x0, x1), F.conv_transpose1d(x0, x1, x2, stride=3, padding=1, output_padding=2), F.conv_transpose1d(x0, x1, bias=x2, dilation=(2,), padding=(2,)), F.conv_transpose1d(x0, x3, groups=2, stride=2, output_padding=1), F.conv_transpose1d(x0[1], x1, x2)]',
    rtol: 1e-5, atol: 1e-5,
  },
  grads('convTranspose2d gradients of input, weight and bias (stride, padding, outputPadding, dilation)', [IMG, W2, uniform([3], 69)],
    (x, w, b) => F.convTranspose2d(x, w, b, { stride: [2, 1], padding: [1, 2], outputPadding: [1, 0], dilation: [1, 2] }),
    'F.conv_transpose2d(x0, x1, x2, stride=(2, 1), padding=(1, 2), output_padding=(1, 0), dilation=(1, 2))', { rtol: 1e-4, atol: 1e-3 }),
  grads('convTranspose2d gradients with an outputPadding below the dilation, not the stride', [IMG, W2], (x, w) => F.convTranspose2d(x, w, { stride: 2, dilation: 3, outputPadding: 2, padding: 1 }),
    'F.conv_transpose2d(x0, x1, stride=2, dilation=3, output_padding=2, padding=1)', { rtol: 1e-4, atol: 1e-3 }),
  grads('convTranspose2d gradients with groups', [IMG, uniform([4, 3, 2, 3], 70)], (x, w) => F.convTranspose2d(x, w, { groups: 2, stride: 2 }),
    'F.conv_transpose2d(x0, x1, groups=2, stride=2)', { rtol: 1e-4, atol: 1e-3 }),
  grads('convTranspose1d gradients', [SEQ, uniform([4, 1, 3], 71), uniform([2], 72)], (x, w, b) => F.convTranspose1d(x, w, b, { groups: 2, stride: 2, padding: 1, outputPadding: 1 }),
    'F.conv_transpose1d(x0, x1, x2, groups=2, stride=2, padding=1, output_padding=1)', { rtol: 1e-4, atol: 1e-3 }),
  { name: 'convTranspose2d: outputPadding not below stride or dilation is an error', inputs: [IMG, W2], js: (x, w) => F.convTranspose2d(x, w, { stride: 2, outputPadding: 2 }), py: 'F.conv_transpose2d(x0, x1, stride=2, output_padding=2)' },
  { name: 'convTranspose2d: groups not dividing the weight is an error', inputs: [IMG, W2], js: (x, w) => F.convTranspose2d(x, w, { groups: 3 }), py: 'F.conv_transpose2d(x0, x1, groups=3)' },
  { name: 'convTranspose1d: channels not matching the weight is an error', inputs: [uniform([2, 3, 6], 73), W1], js: (x, w) => F.convTranspose1d(x, w), py: 'F.conv_transpose1d(x0, x1)' },
  {
    name: 'unfold: kernel, dilation, padding, stride; unbatched; bfloat16',
    inputs: [IMG],
    js: (x) => [F.unfold(x, 2), F.unfold(x, [2, 3], { dilation: [1, 2], padding: 1, stride: [2, 1] }), F.unfold(x, 3, { padding: [2, 0], stride: 2 }), F.unfold(x.at(1), [3, 1]), F.unfold(x.to('bfloat16'), 2, { stride: 2 })],
    py: '[F.unfold(x0, 2), F.unfold(x0, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), F.unfold(x0, 3, padding=(2, 0), stride=2), F.unfold(x0[1], (3, 1)), F.unfold(x0.bfloat16(), 2, stride=2)]',
  },
  {
    name: 'fold: overlapping blocks add up; dilation, padding, stride; unbatched',
    inputs: [uniform([2, 12, 12], 74, -2, 2), uniform([2, 8, 6], 75, -2, 2)],
    js: (a, b) => [F.fold(a, [4, 5], 2), F.fold(a, [5, 5], [2, 2], { dilation: 2, padding: 1, stride: [1, 1] }), F.fold(b, [3, 5], 2, { stride: [1, 2], padding: [0, 1] }), F.fold(a.at(0), [4, 5], [2, 2])],
    py: '[F.fold(x0, (4, 5), 2), F.fold(x0, (5, 5), (2, 2), dilation=2, padding=1, stride=(1, 1)), F.fold(x1, (3, 5), 2, stride=(1, 2), padding=(0, 1)), F.fold(x0[0], (4, 5), (2, 2))]',
  },
  {
    name: 'unfold then fold counts each position once per block covering it; ±inf and NaN stay in place',
    inputs: [{ values: [1, Infinity, -2, NaN, 3, -Infinity, 0.5, 4, -0], shape: [1, 1, 3, 3], dtype: 'float32' }],
    js: (x) => [F.unfold(x, 2), F.fold(F.unfold(x, 2, { stride: 1 }), 3, 2)],
    py: '[F.unfold(x0, 2), F.fold(F.unfold(x0, 2, stride=1), 3, 2)]',
  },
  {
    // PyTorch's col2im adds the blocks in bfloat16 one by one, in kernel order (not in float32 rounded once)
    name: 'fold in bfloat16 rounds after each overlapping block, as PyTorch',
    inputs: [uniform([1, 9, 9], 80, -6, 6)],
    js: (x) => F.fold(x.to('bfloat16'), [5, 5], 3),
    py: 'F.fold(x0.bfloat16(), (5, 5), 3)',
    rtol: 0, atol: 0,
  },
  grads('unfold gradient (overlapping blocks accumulate)', [IMG], (x) => F.unfold(x, [2, 3], { padding: 1, stride: [1, 2], dilation: [2, 1] }),
    'F.unfold(x0, (2, 3), padding=1, stride=(1, 2), dilation=(2, 1))'),
  grads('fold gradient', [uniform([2, 12, 12], 76)], (x) => F.fold(x, [5, 5], 2, { dilation: 2, padding: 1 }), 'F.fold(x0, (5, 5), 2, dilation=2, padding=1)'),
  { name: 'unfold: a kernel larger than the padded input is an error', inputs: [uniform([1, 1, 2, 2], 77)], js: (x) => F.unfold(x, 3), py: 'F.unfold(x0, 3)' },
  { name: 'fold: a block count not matching the input is an error', inputs: [uniform([1, 8, 5], 78)], js: (x) => F.fold(x, [3, 3], 2), py: 'F.fold(x0, (3, 3), 2)' },
  { name: 'fold: channels not divisible by the kernel size is an error', inputs: [uniform([1, 7, 4], 79)], js: (x) => F.fold(x, [3, 3], 2), py: 'F.fold(x0, (3, 3), 2)' },
];

torchTier('convTranspose1d/2d, unfold and fold follow torch.nn.functional', functionCases, { compile: true });

const layerCases: TorchCase[] = [
  {
    name: 'ConvTranspose2d: stride, padding, outputPadding, dilation; forward and gradients',
    inputs: [uniform([4, 3, 3, 2], 80), uniform([3], 81), IMG],
    js: (w, b, x) => trained(loaded(new nn.ConvTranspose2d(4, 3, [3, 2], { stride: 2, padding: [1, 0], outputPadding: 1, dilation: [1, 2] }), [w!, b!]), x!),
    py: pyTrained('torch.nn.ConvTranspose2d(4, 3, (3, 2), stride=2, padding=(1, 0), output_padding=1, dilation=(1, 2))', 'x0, x1', 'x2'),
    rtol: 1e-4, atol: 1e-4,
  },
  {
    name: 'ConvTranspose2d: groups, no bias, an unbatched input',
    inputs: [uniform([4, 3, 2, 2], 82), IMG],
    js: (w, x) => trained(loaded(new nn.ConvTranspose2d(4, 6, 2, { groups: 2, bias: false }), [w!]), x!.at(0)),
    py: pyTrained('torch.nn.ConvTranspose2d(4, 6, 2, groups=2, bias=False)', 'x0', 'x1[0]'),
    rtol: 1e-4, atol: 1e-4,
  },
  {
    name: 'ConvTranspose1d: stride, padding, groups; forward and gradients',
    inputs: [uniform([4, 3, 4], 83), B6, SEQ],
    js: (w, b, x) => trained(loaded(new nn.ConvTranspose1d(4, 6, 4, { stride: 2, padding: 1, groups: 2 }), [w!, b!]), x!),
    py: pyTrained('torch.nn.ConvTranspose1d(4, 6, 4, stride=2, padding=1, groups=2)', 'x0, x1', 'x2'),
    rtol: 1e-4, atol: 1e-4,
  },
  {
    name: "ConvTranspose's outputSize picks the outputPadding (2 sizes or 4, 1 or 3)",
    inputs: [uniform([4, 3, 3, 3], 84), uniform([3], 85), uniform([4, 2, 3], 86), IMG, SEQ],
    js: (w, b, w1, x, s) => {
      const m = loaded(new nn.ConvTranspose2d(4, 3, 3, { stride: [2, 3], padding: 1 }), [w!, b!]);
      const m1 = loaded(new nn.ConvTranspose1d(4, 2, 3, { stride: 3, bias: false }), [w1!]);
      return [m.forward(x!, [6, 14]), m.forward(x!, [2, 3, 5, 15]), m.forward(x!), m1.forward(s!, [19]), m1.forward(s!, [2, 2, 20])];
    },
    py: ['m = torch.nn.ConvTranspose2d(4, 3, 3, stride=(2, 3), padding=1)', 'm1 = torch.nn.ConvTranspose1d(4, 2, 3, stride=3, bias=False)',
      'with torch.no_grad():', '    m.weight.copy_(x0); m.bias.copy_(x1); m1.weight.copy_(x2)',
      'result = [m(x3, output_size=[6, 14]), m(x3, output_size=[2, 3, 5, 15]), m(x3), m1(x4, output_size=[19]), m1(x4, output_size=[2, 2, 20])]'].join('\n'),
    rtol: 1e-5, atol: 1e-5,
  },
  {
    name: "ConvTranspose2d: an outputSize out of the stride's range is an error",
    inputs: [IMG],
    js: (x) => new nn.ConvTranspose2d(4, 3, 3, { stride: 2 }).forward(x, [9, 12]),
    py: 'torch.nn.ConvTranspose2d(4, 3, 3, stride=2)(x0, output_size=[9, 12])',
  },
  {
    name: 'Unfold and Fold layers: by position and by name',
    inputs: [IMG],
    js: (x) => {
      const cols = new nn.Unfold([2, 3], 1, 1, 2).forward(x);
      return [cols, new nn.Unfold({ kernelSize: 2, stride: 2 }).forward(x), new nn.Fold([3, 5], [2, 3], 1, 1, 2).forward(cols), new nn.Fold([3, 5], [2, 3], { padding: 1, stride: 2 }).forward(cols)];
    },
    py: 'cols = torch.nn.Unfold((2, 3), 1, 1, 2)(x0)\nresult = [cols, torch.nn.Unfold(kernel_size=2, stride=2)(x0), torch.nn.Fold((3, 5), (2, 3), 1, 1, 2)(cols), torch.nn.Fold((3, 5), (2, 3), padding=1, stride=2)(cols)]',
  },
];

torchTier('nn.ConvTranspose1d/2d, nn.Unfold and nn.Fold follow torch.nn', layerCases, { compile: true });

describe('the transposed convolutions and fold layers', () => {
  it("initialize weight and bias as PyTorch: U(-1/√fanIn, 1/√fanIn), fanIn = out/groups · kernel size", () => {
    tpu.manualSeed(5);
    const m = new nn.ConvTranspose2d(64, 32, 3, { groups: 2 });
    expect(m.weight.shape).toEqual([64, 16, 3, 3]);
    expect(m.bias!.shape).toEqual([32]);
    const bound = 1 / Math.sqrt(16 * 9);
    const w = Array.from(m.weight.dataSync() as Float32Array);
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const std = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / w.length);
    expect(Math.max(...w.map(Math.abs))).toBeLessThanOrEqual(bound);
    expect(Math.max(...w.map(Math.abs))).toBeGreaterThan(0.99 * bound); // 9216 draws reach the edge
    expect(Math.abs(mean)).toBeLessThan(5 * (bound / Math.sqrt(3)) / Math.sqrt(w.length));
    expect(std / (bound / Math.sqrt(3))).toBeCloseTo(1, 1);
    expect(Math.max(...Array.from(m.bias!.dataSync() as Float32Array, Math.abs))).toBeLessThanOrEqual(bound);
    const m1 = new nn.ConvTranspose1d(3, 8, 5);
    expect(m1.weight.shape).toEqual([3, 8, 5]);
    expect(Math.max(...Array.from(m1.weight.dataSync() as Float32Array, Math.abs))).toBeLessThanOrEqual(1 / Math.sqrt(40));
  });

  it("names parameters as PyTorch's stateDict and shows PyTorch's arguments in camelCase", () => {
    expect(Object.keys(new nn.ConvTranspose2d(2, 3, 3).stateDict())).toEqual(['weight', 'bias']);
    expect(Object.keys(new nn.ConvTranspose1d(2, 3, 3, { bias: false }).stateDict())).toEqual(['weight']);
    expect(String(new nn.ConvTranspose2d(4, 6, 3))).toBe('ConvTranspose2d(4, 6, kernelSize=[3, 3])');
    expect(String(new nn.Unfold(3))).toBe('Unfold(kernelSize=3, dilation=1, padding=0, stride=1)');
    expect(String(new nn.Fold([4, 5], 2, { stride: 2 }))).toBe('Fold(outputSize=[4, 5], kernelSize=2, dilation=1, padding=0, stride=2)');
  });

  it('name bad arguments', () => {
    const x = tpu.ones([1, 2, 3, 3]);
    expect(() => new nn.ConvTranspose2d(2, 3, 3, { output_padding: 1 } as never)).toThrow(/nn\.ConvTranspose2d: unknown option 'output_padding' \(did you mean 'outputPadding'\?\)/);
    expect(() => new nn.ConvTranspose1d(2, 3, 3, { outputPading: 1 } as never)).toThrow(/nn\.ConvTranspose1d: unknown option 'outputPading'/);
    expect(() => new nn.ConvTranspose2d(3, 4, 3, { groups: 2 })).toThrow(/ConvTranspose2d: inChannels 3 and outChannels 4 must both be divisible by groups 2/);
    expect(() => new nn.ConvTranspose2d(2, 3, 3, { stride: 2, outputPadding: 2 })).toThrow(/nn\.ConvTranspose2d: outputPadding must be smaller than either stride or dilation, as in PyTorch; got outputPadding \[2, 2\], stride \[2, 2\], dilation \[1, 1\]/);
    expect(() => new nn.ConvTranspose1d(2, 3, 3, { stride: [2, 2] })).toThrow(/nn\.ConvTranspose1d: stride must be an integer ≥ 1 or one of them; got \[2,2\]/);
    expect(() => new nn.ConvTranspose2d(2, 3, 0)).toThrow(/ConvTranspose2d: kernelSize\[0\] must be a positive integer; got 0/);
    expect(() => new nn.ConvTranspose2d(2, 3, 3, { stride: 2 }).forward(x, [9])).toThrow(/ConvTranspose2d: outputSize must be 2 integers \(or 4 with batch and channels\); got \[9\]/);
    expect(() => new nn.ConvTranspose2d(2, 3, 3, { stride: 2 }).forward(x, [8, 9])).toThrow(/ConvTranspose2d: requested an outputSize of \[8, 9\], but valid sizes range from \[7, 7\] to \[8, 8\] \(for an input of \[3, 3\]\)/);
    expect(() => F.convTranspose2d(x, tpu.ones([2, 1, 3]))).toThrow(/convTranspose2d: weight must be a 4-D tensor \[C, O\/groups, kh, kw\]; got \[2, 1, 3\]/);
    expect(() => F.convTranspose2d(x, tpu.ones([2, 1, 3, 3]), { stride: 2, outputPadding: 2 })).toThrow(/convTranspose2d: outputPadding must be smaller than either stride or dilation, as in PyTorch; got outputPadding \[2, 2\], stride \[2, 2\], dilation \[1, 1\]/);
    expect(() => F.convTranspose2d(x, tpu.ones([2, 1, 3, 3]), { outputpadding: 1 } as never)).toThrow(/convTranspose2d: unknown option 'outputpadding'/);
    expect(() => F.convTranspose1d(tpu.ones([2, 3]), tpu.ones([2, 1, 3]), { stride: [1, 2] })).toThrow(/convTranspose1d: stride must be an integer ≥ 1 or one of them; got \[1,2\]/);
    expect(() => F.convTranspose2d(x, tpu.ones([2, 1, 1, 1]), { padding: 2 })).toThrow(/convTranspose2d: the output of input \[1, 2, 3, 3\] and weight \[2, 1, 1, 1\] would be -1x-1: the padding is too large/);
    expect(() => F.unfold(x, 2, { strides: 1 } as never)).toThrow(/unfold: unknown option 'strides'/);
    expect(() => F.unfold(x, 4)).toThrow(/unfold: no block fits the input \[1, 2, 3, 3\] with kernelSize \[4, 4\], dilation \[1, 1\], padding \[0, 0\], stride \[1, 1\]: \[0, 0\] blocks/);
    expect(() => F.unfold(tpu.ones([3, 3]), 2)).toThrow(/unfold: input must have 3 or 4 dims; got \[3, 3\]/);
    expect(() => F.fold(tpu.ones([1, 8, 5]), [3, 3], 2)).toThrow(/fold: outputSize \[3, 3\] with kernelSize \[2, 2\], dilation \[1, 1\], padding \[0, 0\], stride \[1, 1\] has 2 \* 2 blocks, but the input \[1, 8, 5\] has 5/);
    expect(() => F.fold(tpu.ones([1, 7, 4]), [3, 3], 2)).toThrow(/fold: the input's dim 1 must be divisible by the kernel's size \[2, 2\] = 4; got input \[1, 7, 4\]/);
    expect(() => new nn.Unfold()).toThrow(/nn\.Unfold: kernelSize is required, as in PyTorch/);
    expect(() => new nn.Fold({ kernelSize: 2 })).toThrow(/nn\.Fold: outputSize is required, as in PyTorch/);
    expect(() => new nn.Unfold(2, { kernel_size: 2 } as never)).toThrow(/nn\.Unfold: unknown option 'kernel_size'/);
    expect(() => new nn.Fold([3, 3], 2, 0)).toThrow(/nn\.Fold: dilation must be an integer ≥ 1 or a pair of them; got 0/);
  });
});

describe('ConvTranspose2d trains as a decoder layer', () => {
  it.each(['debug', 'strict', 'fused'] as const)('%s: an optimizer steps its parameters (gradients reach weight and bias)', async (mode) => {
    tpu.mode(mode);
    try {
      tpu.manualSeed(1);
      const up = new nn.ConvTranspose2d(2, 1, 2, { stride: 2 });
      const opt = new tpu.optim.SGD(up.parameters(), { lr: 0.1 });
      const x = tpu.ones([1, 2, 2, 2]);
      const before = up.weight.clone();
      up.forward(x).sum().backward();
      opt.step();
      // each weight element meets each of the 4 input positions once: its gradient is 4
      for (const step of await up.weight.sub(before).data()) expect(step).toBeCloseTo(-0.4, 6);
      expect(up.bias!.grad!.tolist()).toEqual([16]);
    } finally {
      tpu.mode('strict');
    }
  });
});
