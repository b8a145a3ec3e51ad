// leakyRelu, elu, celu, hardtanh and softplus take their parameters by position, as
// torch.nn.functional's (F.leaky_relu(x, 0.2), F.hardtanh(x, -2, 2), F.softplus(x, 2, 1)): they
// were "options must be an object" errors. Against PyTorch 2.13 in every mode and under
// tpu.compile; the options object still works, and a value given twice is named.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { torchTier, uniform, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const X = uniform([2, 5], 1, -3, 3);

const cases: TorchCase[] = [
  {
    name: 'leakyRelu, elu and celu with the parameter by position',
    inputs: [X],
    js: (x) => [F.leakyRelu(x, 0.2), F.elu(x, 0.5), F.celu(x, 2), F.leakyRelu(x, { negativeSlope: 0.3 })],
    py: '[F.leaky_relu(x0, 0.2), F.elu(x0, 0.5), F.celu(x0, 2.0), F.leaky_relu(x0, negative_slope=0.3)]',
  },
  {
    name: 'hardtanh and softplus with one or both parameters by position, the rest by name',
    inputs: [X],
    js: (x) => [F.hardtanh(x, -2, 2), F.hardtanh(x, -0.5), F.hardtanh(x, -2, { maxVal: 0.5 }), F.softplus(x, 2), F.softplus(x, 2, 1), F.softplus(x, 0.5, { threshold: 1 })],
    py: '[F.hardtanh(x0, -2, 2), F.hardtanh(x0, -0.5), F.hardtanh(x0, -2, max_val=0.5), F.softplus(x0, 2), F.softplus(x0, 2, 1), F.softplus(x0, 0.5, threshold=1)]',
  },
  {
    name: 'leakyRelu by position: the gradient at 0 is the slope',
    inputs: [uniform([4], 2)],
    js: (x) => { const z = x.mul(0).requiresGrad_(); F.leakyRelu(z, 0.2).sum().backward(); return z.grad!; },
    py: 'z = (x0 * 0).requires_grad_()\nF.leaky_relu(z, 0.2).sum().backward()\nresult = z.grad',
  },
];

torchTier('activations take their parameters by position', cases, { compile: true });

describe('activation parameters by position are checked', () => {
  it('names a value given twice, too many values and a non-number', () => {
    const x = tpu.ones([2]);
    expect(() => F.hardtanh(x, -2, 2, { maxVal: 1 })).toThrow(/hardtanh: maxVal is given twice: positionally \(2\) and in the options \(1\)/);
    expect(() => (F.leakyRelu as (...a: unknown[]) => unknown)(x, 0.2, true)).toThrow(/leakyRelu: takes at most 1 argument \(negativeSlope\) before its options; got 2/);
    expect(() => F.elu(x, '0.5' as never)).toThrow(/elu: alpha must be a/);
  });
});
