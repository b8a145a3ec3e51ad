// adaptiveAvgPool2d, maxPool1d, avgPool1d and their modules against PyTorch 2.13: values and
// gradients in every mode and under tpu.compile, PyTorch's overlapping adaptive windows
// (floor(i·in/out) to ceil((i+1)·in/out)), and errors naming the argument.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const IMG = seq('float32', [2, 2, 5, 7], 0.3, -31);
/** [2, 3, 9] of scattered values with ties ((7i mod 11) - 5, plus a small step every third). */
const S: TorchCase['inputs'][number] = { values: Array.from({ length: 54 }, (_, i) => ((7 * i) % 11) - 5 + (i % 3 === 0 ? 0.25 : 0)), shape: [2, 3, 9], dtype: 'float32' };

/** Σ w·f(x) backward with w = sin(1..n): the value and the input's gradient. */
function withGrad(name: string, input: TorchCase['inputs'][number], js: (x: Tensor) => Tensor, py: string): TorchCase {
  return {
    name,
    inputs: [input],
    js: (x) => {
      x!.requiresGrad_();
      const y = js(x!);
      y.reshape([-1]).mul(tpu.arange(1, y.numel() + 1).to('float32').sin()).sum().backward();
      return [y, x!.grad!];
    },
    py: `x = x0.requires_grad_()\ny = ${py}\n(y.reshape(-1) * torch.arange(1., y.numel() + 1).sin()).sum().backward()\nresult = (y, x.grad)`,
    atol: 1e-5,
  };
}

const cases: TorchCase[] = [
  withGrad('adaptiveAvgPool2d 5x7 -> 3x4 (overlapping windows)', IMG, (x) => F.adaptiveAvgPool2d(x, [3, 4]), 'F.adaptive_avg_pool2d(x, (3, 4))'),
  withGrad('adaptiveAvgPool2d to 1 (global average)', IMG, (x) => F.adaptiveAvgPool2d(x, 1), 'F.adaptive_avg_pool2d(x, 1)'),
  withGrad('adaptiveAvgPool2d null keeps a dim; larger than the input repeats', IMG, (x) => [F.adaptiveAvgPool2d(x, [2, null]), F.adaptiveAvgPool2d(x, [7, 9])].map((t) => t.reshape([-1])).reduce((a, b) => tpu.cat([a, b])), 'torch.cat([F.adaptive_avg_pool2d(x, (2, None)).reshape(-1), F.adaptive_avg_pool2d(x, (7, 9)).reshape(-1)])'),
  withGrad('adaptiveAvgPool2d even split of [C, H, W]', seq('float32', [3, 4, 6], 0.5, -30), (x) => F.adaptiveAvgPool2d(x, [2, 3]), 'F.adaptive_avg_pool2d(x, (2, 3))'),
  { name: 'adaptiveAvgPool2d bf16 rounds once', inputs: [bf16([[[[1.5, -2, 3.25], [0.125, 7, 1], [-1, 2, 100]]]])], js: (x) => F.adaptiveAvgPool2d(x, 2), py: 'F.adaptive_avg_pool2d(x0, 2)' },
  { name: 'adaptiveAvgPool2d of an int tensor is an error', inputs: [{ values: [1, 2, 3, 4], shape: [1, 2, 2], dtype: 'int64' }], js: (x) => F.adaptiveAvgPool2d(x, 1), py: 'F.adaptive_avg_pool2d(x0, 1)' },
  withGrad('maxPool1d kernel 3 stride 2 padding 1', S, (x) => F.maxPool1d(x, 3, { stride: 2, padding: 1 }), 'F.max_pool1d(x, 3, stride=2, padding=1)'),
  withGrad('maxPool1d dilation 2, stride 1 (ties go to the first)', f32([[[1, 1, 2, 2, 1, 0, 2, 1]]]), (x) => F.maxPool1d(x, [2], { stride: [1], dilation: 2 }), 'F.max_pool1d(x, (2,), stride=(1,), dilation=2)'),
  withGrad('maxPool1d of [C, L]', f32([[3, -1, 4, 1, -5, 9], [2, 6, -5, 3, 5, -8]]), (x) => F.maxPool1d(x, 2), 'F.max_pool1d(x, 2)'),
  withGrad('avgPool1d kernel 4 stride 3', S, (x) => F.avgPool1d(x, 4, { stride: 3 }), 'F.avg_pool1d(x, 4, stride=3)'),
  {
    name: 'avgPool1d padding with and without countIncludePad',
    inputs: [S],
    js: (x) => [F.avgPool1d(x, 3, { padding: 1 }), F.avgPool1d(x, 3, { padding: 1, countIncludePad: false })],
    py: '(F.avg_pool1d(x0, 3, padding=1), F.avg_pool1d(x0, 3, padding=1, count_include_pad=False))',
  },
  {
    name: 'channels-last and transposed inputs: values and strides',
    inputs: [seq('float32', [2, 5, 7, 3], 0.3, -40), S],
    js: (nhwc, s) => {
      const x = nhwc!.permute(0, 3, 1, 2);
      const t = s!.transpose(1, 2).contiguous().transpose(1, 2);
      const ys = [F.adaptiveAvgPool2d(x, [3, 4]), F.adaptiveAvgPool2d(x, 1), F.maxPool1d(t, 2), F.avgPool1d(t, 3, { stride: 2 })];
      return [...ys, ...ys.map((y) => tpu.tensor(y.stride()))];
    },
    py: 'x = x0.permute(0, 3, 1, 2)\nt = x1.transpose(1, 2).contiguous().transpose(1, 2)\nys = [F.adaptive_avg_pool2d(x, (3, 4)), F.adaptive_avg_pool2d(x, 1), F.max_pool1d(t, 2), F.avg_pool1d(t, 3, stride=2)]\nresult = (*ys, *[torch.tensor(y.stride(), dtype=torch.float32) for y in ys])',
    atol: 1e-5,
  },
  {
    name: 'MaxPool1d, AvgPool1d and AdaptiveAvgPool2d modules',
    inputs: [S, IMG],
    js: (s, img) => [new tpu.nn.MaxPool1d(2, { stride: 1 }).forward(s!), new tpu.nn.AvgPool1d(3).forward(s!), new tpu.nn.AdaptiveAvgPool2d([4, 3]).forward(img!)],
    py: '(torch.nn.MaxPool1d(2, stride=1)(x0), torch.nn.AvgPool1d(3)(x0), torch.nn.AdaptiveAvgPool2d((4, 3))(x1))',
    atol: 1e-5,
  },
];

torchTier('adaptive and 1-d pooling against PyTorch', cases, { compile: true });

describe('pooling errors', () => {
  it('name the op and the argument', () => {
    const img = tpu.zeros([1, 2, 4, 4]);
    const sig = tpu.zeros([1, 2, 5]);
    expect(() => F.adaptiveAvgPool2d(tpu.zeros([4, 4]), 1)).toThrow(/adaptiveAvgPool2d: input must be \[N, C, H, W\] or \[C, H, W\] with H, W > 0; got \[4, 4\]/);
    expect(() => F.adaptiveAvgPool2d(img, [2, 0])).toThrow(/adaptiveAvgPool2d: outputSize must be a positive integer or \[h, w\]/);
    expect(() => F.adaptiveAvgPool2d(img, [2])).toThrow(/adaptiveAvgPool2d: outputSize/);
    expect(() => F.maxPool1d(img, 2)).toThrow(/maxPool1d: input must be \[N, C, L\] or \[C, L\]; got \[1, 2, 4, 4\]/);
    expect(() => F.maxPool1d(sig, [2, 2])).toThrow(/maxPool1d: kernelSize must be an integer ≥ 1 or a list of one; got \[2,2\]/);
    expect(() => F.maxPool1d(sig, 2, { padding: 2 })).toThrow(/maxPool1d: padding 2 must be at most half the kernel 2/);
    expect(() => F.maxPool1d(sig, 7)).toThrow(/maxPool1d: the kernel 7 \(dilation 1\) is longer than the padded input \[1, 2, 5\]/);
    expect(() => F.avgPool1d(sig, 2, { dilation: 2 } as never)).toThrow(/avgPool1d: unknown option 'dilation'/);
    expect(() => F.maxPool1d(sig, 2, { strides: 2 } as never)).toThrow(/maxPool1d: unknown option 'strides'/);
    expect(() => F.avgPool1d(tpu.zeros([1, 5], { dtype: 'int32' }), 2)).toThrow(/avgPool1d: input of dtype int32 is not supported/);
  });
});
