// The pools' options as PyTorch 2.13 spells them: each pool, functional and module, by position
// and in options, accepts PyTorch's defaults of the options it does not implement (ceilMode,
// returnIndices) and gives PyTorch's values; avgPool2d's divisorOverride (values and gradient);
// any other value of those options is an error naming the op, the option and the default.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const nn = tpu.nn;
const IMG = seq('float32', [2, 3, 5, 6], 0.37, -41);
const ROWS = seq('float32', [2, 3, 9], -0.61, -20);

const cases: TorchCase[] = [
  {
    name: "functional pools with PyTorch's defaults spelled out",
    inputs: [IMG, ROWS],
    js: (img, rows) => [
      F.maxPool2d(img!, 3, { stride: 2, padding: 1, dilation: 1, ceilMode: false, returnIndices: false }),
      F.avgPool2d(img!, 2, { stride: 1, padding: 1, ceilMode: false, countIncludePad: true, divisorOverride: null }),
      F.maxPool1d(rows!, 2, { stride: 1, dilation: 2, ceilMode: false, returnIndices: false }),
      F.avgPool1d(rows!, 3, { padding: 1, ceilMode: false, countIncludePad: false }),
    ],
    py: '(F.max_pool2d(x0, 3, stride=2, padding=1, dilation=1, ceil_mode=False, return_indices=False), F.avg_pool2d(x0, 2, stride=1, padding=1, ceil_mode=False, count_include_pad=True, divisor_override=None), F.max_pool1d(x1, 2, stride=1, dilation=2, ceil_mode=False, return_indices=False), F.avg_pool1d(x1, 3, padding=1, ceil_mode=False, count_include_pad=False))',
    atol: 1e-5,
  },
  {
    name: "pool modules with PyTorch's defaults, by position and in options",
    inputs: [IMG, ROWS],
    js: (img, rows) => [
      new nn.MaxPool2d(3, 2, 1, 1, false, false).forward(img!),
      new nn.MaxPool2d(2, { returnIndices: false, ceilMode: false }).forward(img!),
      new nn.AvgPool2d(3, 2, 1, false, false, null).forward(img!),
      new nn.AvgPool2d({ kernelSize: 2, ceilMode: false, divisorOverride: null }).forward(img!),
      new nn.MaxPool1d(3, 2, 1, 1, false, false).forward(rows!),
      new nn.MaxPool1d(2, { stride: 1, returnIndices: false, ceilMode: false }).forward(rows!),
      new nn.AvgPool1d(3, 2, 1, false, false).forward(rows!),
      new nn.AvgPool1d({ kernelSize: 2, ceilMode: false }).forward(rows!),
    ],
    py: '(torch.nn.MaxPool2d(3, 2, 1, 1, False, False)(x0), torch.nn.MaxPool2d(2, return_indices=False, ceil_mode=False)(x0), torch.nn.AvgPool2d(3, 2, 1, False, False, None)(x0), torch.nn.AvgPool2d(kernel_size=2, ceil_mode=False, divisor_override=None)(x0), torch.nn.MaxPool1d(3, 2, 1, 1, False, False)(x1), torch.nn.MaxPool1d(2, stride=1, return_indices=False, ceil_mode=False)(x1), torch.nn.AvgPool1d(3, 2, 1, False, False)(x1), torch.nn.AvgPool1d(kernel_size=2, ceil_mode=False)(x1))',
    atol: 1e-5,
  },
  {
    name: 'avgPool2d divisorOverride (with padding, countIncludePad false, a negative divisor) and its gradient',
    inputs: [IMG],
    js: (img) => {
      const x = img!.detach().requiresGrad_();
      const ys = [F.avgPool2d(x, 3, { stride: 2, padding: 1, divisorOverride: 4 }), F.avgPool2d(x, 2, { padding: 1, countIncludePad: false, divisorOverride: -3 }), new nn.AvgPool2d(2, { divisorOverride: 5 }).forward(x)];
      ys.map((y, i) => y.sum().mul(i + 1)).reduce((a, b) => a.add(b)).backward();
      return [...ys, x.grad!] as Tensor[];
    },
    py: 'x = x0.requires_grad_()\nys = [F.avg_pool2d(x, 3, stride=2, padding=1, divisor_override=4), F.avg_pool2d(x, 2, padding=1, count_include_pad=False, divisor_override=-3), torch.nn.AvgPool2d(2, divisor_override=5)(x)]\nsum(y.sum() * (i + 1) for i, y in enumerate(ys)).backward()\nresult = (*ys, x.grad)',
    atol: 1e-5,
  },
];

torchTier("pool options as PyTorch's", cases);

describe('pool options PyTorch has and the pools do not implement', () => {
  const x = tpu.ones([1, 1, 4, 4]);
  const r = tpu.ones([1, 1, 4]);
  it('refuse a value other than the default, naming the op, the option and the default', () => {
    const refused = (op: string, key: string, value: string, fallback: string) => `${op}: ${key}: ${value} is not supported, only PyTorch's default ${fallback}`;
    expect(() => F.maxPool2d(x, 2, { ceilMode: true } as never)).toThrow(refused('maxPool2d', 'ceilMode', 'true', 'false'));
    expect(() => F.maxPool2d(x, 2, { returnIndices: true } as never)).toThrow(refused('maxPool2d', 'returnIndices', 'true', 'false'));
    expect(() => F.avgPool2d(x, 2, { ceilMode: 1 } as never)).toThrow(refused('avgPool2d', 'ceilMode', '1', 'false'));
    expect(() => F.maxPool1d(r, 2, { ceilMode: true } as never)).toThrow(refused('maxPool1d', 'ceilMode', 'true', 'false'));
    expect(() => F.avgPool1d(r, 2, { ceilMode: true } as never)).toThrow(refused('avgPool1d', 'ceilMode', 'true', 'false'));
    expect(() => new nn.MaxPool2d(2, 2, 0, 1, true as never)).toThrow(refused('nn.MaxPool2d', 'returnIndices', 'true', 'false'));
    expect(() => new nn.AvgPool2d(2, { ceilMode: true } as never)).toThrow(refused('nn.AvgPool2d', 'ceilMode', 'true', 'false'));
    expect(() => new nn.MaxPool1d(2, { returnIndices: true } as never)).toThrow(refused('nn.MaxPool1d', 'returnIndices', 'true', 'false'));
    expect(() => new nn.AvgPool1d(2, 2, 0, true as never)).toThrow(refused('nn.AvgPool1d', 'ceilMode', 'true', 'false'));
  });

  it("refuse options PyTorch's pool does not have, and a divisorOverride that is not a nonzero integer", () => {
    expect(() => F.avgPool2d(x, 2, { returnIndices: false } as never)).toThrow("avgPool2d: unknown option 'returnIndices'");
    expect(() => F.maxPool2d(x, 2, { divisorOverride: null } as never)).toThrow("maxPool2d: unknown option 'divisorOverride'");
    expect(() => F.avgPool2d(x, 2, { dilation: 1 } as never)).toThrow("avgPool2d: unknown option 'dilation'");
    expect(() => F.avgPool1d(r, 2, { divisorOverride: null } as never)).toThrow("avgPool1d: unknown option 'divisorOverride'");
    expect(() => F.avgPool2d(x, 2, { divisorOverride: 0 })).toThrow('avgPool2d: divisorOverride must be a nonzero integer or null; got 0');
    expect(() => new nn.AvgPool2d(2, { divisorOverride: 2.5 })).toThrow('nn.AvgPool2d: divisorOverride must be a nonzero integer or null; got 2.5');
    expect(() => new nn.MaxPool1d({ stride: 1 })).toThrow('nn.MaxPool1d: kernelSize is required; e.g. new tpu.nn.MaxPool1d(2)');
  });
});
