// PyTorch's positional arguments of F.leaky_relu(x, 0.3), F.elu(x, 0.5), F.celu(x, 2),
// F.hardtanh(x, -2, 2), F.softplus(x, 2, 5), torch.cross(a, b, 1) and a.cross(b, 1), beside their
// options form, against PyTorch 2.13 in every mode and under tpu.compile; bad arguments named.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, torchTier, uniform, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const X = f32([-3, -1.5, -1, -0.5, -0, 0, 0.5, 1, 1.5, 3, 8]);

const cases: TorchCase[] = [
  {
    name: 'leakyRelu, elu, celu, hardtanh, softplus: arguments by position, by name, defaults',
    inputs: [X],
    js: (x) => [F.leakyRelu(x, 0.3), F.leakyRelu(x, { negativeSlope: 0.3 }), F.leakyRelu(x), F.elu(x, 0.5), F.celu(x, 2), F.hardtanh(x, -2, 2), F.hardtanh(x, -0.5),
      F.softplus(x, 2, 5), F.softplus(x, 0.5), F.softplus(x, { threshold: 1 })],
    py: '[F.leaky_relu(x0, 0.3), F.leaky_relu(x0, negative_slope=0.3), F.leaky_relu(x0), F.elu(x0, 0.5), F.celu(x0, 2.), F.hardtanh(x0, -2., 2.), F.hardtanh(x0, -0.5), F.softplus(x0, 2, 5), F.softplus(x0, 0.5), F.softplus(x0, threshold=1)]',
  },
  {
    name: 'hardtanh and softplus: some parameters by position, the rest by name',
    inputs: [X],
    js: (x) => [F.hardtanh(x, -2, { maxVal: 0.5 }), F.softplus(x, 0.5, { threshold: 1 })],
    py: '[F.hardtanh(x0, -2, max_val=0.5), F.softplus(x0, 0.5, threshold=1)]',
  },
  {
    name: 'leakyRelu by position: the gradient at 0 is the slope',
    inputs: [uniform([4], 2)],
    js: (x) => { const z = x.mul(0).requiresGrad_(); F.leakyRelu(z, 0.2).sum().backward(); return z.grad!; },
    py: 'z = (x0 * 0).requires_grad_()\nF.leaky_relu(z, 0.2).sum().backward()\nresult = z.grad',
  },
  {
    name: 'cross: dim by position on tpu.cross, the method and tpu.linalg.cross',
    inputs: [uniform([3, 3, 2], 90, -2, 2), uniform([3, 3, 2], 91, -2, 2)],
    js: (a, b) => [tpu.cross(a, b, 1), a.cross(b, 0), a.cross(b, { dim: -3 }), tpu.linalg.cross(a.transpose(1, 2), b.transpose(1, 2), 1)],
    py: '[torch.cross(x0, x1, 1), x0.cross(x1, 0), x0.cross(x1, dim=-3), torch.linalg.cross(x0.transpose(1, 2), x1.transpose(1, 2), dim=1)]',
  },
  { name: 'cross along a dim not of length 3 is an error', inputs: [uniform([3, 3, 2], 92), uniform([3, 3, 2], 93)], js: (a, b) => a.cross(b, 2), py: 'x0.cross(x1, 2)' },
];

torchTier('positional arguments of the activations and cross follow PyTorch', cases, { compile: true });

describe('positional arguments are checked as the options are', () => {
  it('names the argument and what came', () => {
    const x = tpu.ones([3, 3]);
    expect(() => F.leakyRelu(x, '0.3' as never)).toThrow(/leakyRelu: negativeSlope must be a number; got string "0.3"/);
    expect(() => F.leakyRelu(x, 0.3 as never, { negativeSlope: 0.1 } as never)).toThrow(/leakyRelu: negativeSlope is given twice: positionally \(0.3\) and in the options \(0.1\)/);
    expect(() => F.leakyRelu(x, { negative_slope: 0.1 } as never)).toThrow(/leakyRelu: unknown option 'negative_slope' \(did you mean 'negativeSlope'\?\)/);
    expect(() => F.hardtanh(x, 2, -2)).toThrow(/hardtanh: minVal must not exceed maxVal; got minVal 2, maxVal -2/);
    expect(() => F.softplus(x, 1, 20, 3 as never)).toThrow(/softplus: takes at most 2 arguments \(beta, threshold\) before its options; got 3/);
    expect(() => tpu.cross(x, x, 1.5)).toThrow(/cross: dim/);
    expect(() => x.cross(x, 1, 2 as never)).toThrow(/cross: takes at most 1 argument \(dim\) before its options; got 2/);
    expect(() => x.cross(x, { dims: 1 } as never)).toThrow(/cross: unknown option 'dims'/);
  });
});
