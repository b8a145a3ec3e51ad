// tpu.nn.functional's leakyRelu elu selu celu hardtanh relu6 hardsigmoid hardswish softplus
// logSigmoid mish softsign tanhshrink softmin against PyTorch 2.13: NaN, ±inf, -0, huge values,
// bfloat16 (computed in float32, rounded once), options, errors, and gradients at the kinks.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, f32, i32, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const N = NaN;
const INF = Infinity;
const EDGES = f32([0, -0, 0.5, -0.5, 1, -1, 3, -3, 6, -6, 2.9, -2.9, 10, -10, 20, 21, -20, 30, 100, -100, 1e-20, 1e30, -1e30, 3e38, -3e38, INF, -INF, N]);
const BF_EDGES = bf16([0, -0, 0.3, -0.7, 1, -1, 3, -3, 6, 10, -10, 25, 100, INF, -INF, N]);
/** Kinks of every op, and values either side of them. */
const KINKS = f32([0, -0, 1, -1, 3, -3, 6, 2.5, -2.5, 20, -20, 21, 0.25, -4, 7, 1e30, -1e30, INF, -INF, N]);
const W = [1, -2, 3, 0.5, -1.5, 2, 4, -3, 1.25, 0.75, -0.5, 5, 2.5, -1, 3, 1, 2, 0.5, -2, 1.5];
const grad = (name: string, js: Parameters<typeof weightedGrad>[2], py: string, tolerance?: { rtol?: number; atol?: number }) =>
  ({ ...weightedGrad(`${name} gradient at the kinks, ±inf and NaN`, KINKS, js, py, W, tolerance), signedZeros: false });

const cases: TorchCase[] = [
  { name: 'leakyRelu at the edges, default and given slope', inputs: [EDGES], js: (x) => [F.leakyRelu(x), F.leakyRelu(x, { negativeSlope: 0.2 }), F.leakyRelu(x, { negativeSlope: -1.5 })], py: '(F.leaky_relu(x0), F.leaky_relu(x0, 0.2), F.leaky_relu(x0, negative_slope=-1.5))' },
  { name: 'elu selu celu at the edges', inputs: [EDGES], js: (x) => [F.elu(x), F.elu(x, { alpha: 0.5 }), F.selu(x), F.celu(x), F.celu(x, { alpha: 2 })], py: '(F.elu(x0), F.elu(x0, alpha=0.5), F.selu(x0), F.celu(x0), F.celu(x0, alpha=2.))' },
  { name: 'hardtanh and relu6 at the edges', inputs: [EDGES], js: (x) => [F.hardtanh(x), F.hardtanh(x, { minVal: -2, maxVal: 3 }), F.hardtanh(x, { minVal: 0, maxVal: 0 }), F.relu6(x)], py: '(F.hardtanh(x0), F.hardtanh(x0, min_val=-2., max_val=3.), F.hardtanh(x0, 0., 0.), F.relu6(x0))' },
  { name: 'hardsigmoid and hardswish at the edges', inputs: [EDGES], js: (x) => [F.hardsigmoid(x), F.hardswish(x)], py: '(F.hardsigmoid(x0), F.hardswish(x0))' },
  { name: 'softplus at the edges, default and given beta and threshold', inputs: [EDGES], js: (x) => [F.softplus(x), F.softplus(x, { beta: 2 }), F.softplus(x, { beta: 0.5, threshold: 5 }), F.softplus(x, { beta: -1 })], py: '(F.softplus(x0), F.softplus(x0, beta=2.), F.softplus(x0, 0.5, 5.), F.softplus(x0, beta=-1.))' },
  { name: 'logSigmoid and mish at the edges', inputs: [EDGES], js: (x) => [F.logSigmoid(x), F.mish(x)], py: '(F.logsigmoid(x0), F.mish(x0))' },
  { name: 'softsign and tanhshrink at the edges', inputs: [EDGES], js: (x) => [F.softsign(x), F.tanhshrink(x)], py: '(F.softsign(x0), F.tanhshrink(x0))' },
  { name: 'softmin over rows with inf, positional and in the options', inputs: [f32([[1, 2, 3], [-INF, 0, 1], [INF, 1, 2], [1, N, 0], [1e30, -1e30, 0]])], js: (x) => [F.softmin(x, 1), F.softmin(x, { dim: 0 })], py: '(F.softmin(x0, 1), F.softmin(x0, dim=0))' },
  { name: 'softmin with a dtype', inputs: [bf16([[1, 2, 3], [0.5, -1, 2]])], js: (x) => F.softmin(x, 1, { dtype: 'float32' }), py: 'F.softmin(x0, 1, dtype=torch.float32)' },
  {
    name: 'every activation of bf16',
    inputs: [BF_EDGES],
    js: (x) => [F.leakyRelu(x), F.elu(x), F.selu(x), F.celu(x, { alpha: 2 }), F.hardtanh(x), F.relu6(x), F.hardsigmoid(x), F.hardswish(x), F.softplus(x), F.logSigmoid(x), F.mish(x), F.softsign(x), F.tanhshrink(x)],
    py: '(F.leaky_relu(x0), F.elu(x0), F.selu(x0), F.celu(x0, 2.), F.hardtanh(x0), F.relu6(x0), F.hardsigmoid(x0), F.hardswish(x0), F.softplus(x0), F.logsigmoid(x0), F.mish(x0), F.softsign(x0), F.tanhshrink(x0))',
  },
  { name: 'leakyRelu of an int tensor is an error', inputs: [i32([1, -2])], js: (x) => F.leakyRelu(x), py: 'F.leaky_relu(x0)' },
  { name: 'celu with alpha 0 is an error', inputs: [f32([1, -2])], js: (x) => F.celu(x, { alpha: 0 }), py: 'F.celu(x0, alpha=0.)' },
  { name: 'hardtanh with minVal above maxVal is an error', inputs: [f32([1, -2])], js: (x) => F.hardtanh(x, { minVal: 2, maxVal: 1 }), py: 'F.hardtanh(x0, 2., 1.)' },
  // gradients
  grad('leakyRelu', (x) => F.leakyRelu(x, { negativeSlope: 0.1 }), 'F.leaky_relu(x, 0.1)'),
  grad('elu', (x) => F.elu(x, { alpha: 0.5 }), 'F.elu(x, 0.5)'),
  grad('selu', (x) => F.selu(x), 'F.selu(x)'),
  grad('celu', (x) => F.celu(x, { alpha: 2 }), 'F.celu(x, 2.)'),
  grad('hardtanh', (x) => F.hardtanh(x, { minVal: -3, maxVal: 1 }), 'F.hardtanh(x, -3., 1.)'),
  grad('relu6', (x) => F.relu6(x), 'F.relu6(x)'),
  grad('hardsigmoid', (x) => F.hardsigmoid(x), 'F.hardsigmoid(x)'),
  grad('hardswish', (x) => F.hardswish(x), 'F.hardswish(x)'),
  grad('softplus', (x) => F.softplus(x), 'F.softplus(x)'),
  grad('softplus with beta and threshold', (x) => F.softplus(x, { beta: 2, threshold: 6 }), 'F.softplus(x, 2., 6.)'),
  grad('logSigmoid', (x) => F.logSigmoid(x), 'F.logsigmoid(x)'),
  grad('mish', (x) => F.mish(x), 'F.mish(x)'),
  grad('softsign', (x) => F.softsign(x), 'F.softsign(x)'),
  grad('tanhshrink', (x) => F.tanhshrink(x), 'F.tanhshrink(x)'),
  weightedGrad('softmin gradient', f32([[1, 2, 3], [0.5, -1, 4]]), (x) => F.softmin(x, 1), 'F.softmin(x, 1)', [[1, -2, 3], [0.5, 2, -1]]),
];

torchTier('nn.functional activations follow PyTorch', cases, { compile: true });

describe('nn.functional activation options', () => {
  const x = tpu.tensor([1, -2]);
  it('names a mistyped option and suggests the right one', () => {
    expect(() => F.leakyRelu(x, { negative_slope: 0.1 } as never)).toThrow(/leakyRelu: unknown option 'negative_slope' \(did you mean 'negativeSlope'\?\)/);
    expect(() => F.hardtanh(x, { min_val: 0 } as never)).toThrow(/did you mean 'minVal'/);
    expect(() => F.softplus(x, { Beta: 2 } as never)).toThrow(/did you mean 'beta'/);
  });
  it('rejects a non-number option, naming it', () => {
    expect(() => F.elu(x, { alpha: '1' } as never)).toThrow(/elu: alpha must be a number; got string "1"/);
  });
});
