// Gradients against PyTorch autograd at the edges: zeros, ties, infinities, masked values.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const INF = Infinity;

/** d(sum(f(x)))/dx on both sides. */
function grad(name: string, values: Parameters<typeof f32>[0], js: (x: Tensor) => Tensor, pyExpr: string): TorchCase {
  return {
    name,
    inputs: [f32(values)],
    js: (x) => { x.requiresGrad_(); js(x).sum().backward(); return x.grad!; },
    py: `(lambda x: ((${pyExpr}).sum().backward(), x.grad)[1])(x0.clone().requires_grad_())`,
  };
}

/** A case whose forward or backward makes an inf on the way by design: debug mode's check may raise. */
function infOnTheWay(c: TorchCase): TorchCase {
  return { ...c, py: `result = ${c.py}\nnonfinite_on_the_way = True` };
}

const cases: TorchCase[] = [
  grad('norm at zero has a zero gradient', [0, 0, 0], (x) => x.norm(), 'torch.linalg.vector_norm(x)'),
  grad('norm gradient', [3, -4, 0], (x) => x.norm(), 'torch.linalg.vector_norm(x)'),
  grad('std of equal values', [2, 2, 2], (x) => x.std(), 'torch.std(x)'),
  infOnTheWay(grad('var of a row with an infinity is 2(x - mean)/n: inf, and NaN at the infinity', [[-INF, 1, 2], [3, INF, -1], [1, 2, 4]], (x) => x.var(1).mul(tpu.tensor([1, 2, 3])), 'x.var(1) * torch.tensor([1., 2, 3])')),
  infOnTheWay(grad('std of a row with an infinity', [[-INF, 1, 2], [1, 2, 4]], (x) => x.std(1), 'x.std(1)')),
  grad('sqrt at zero is inf', [0, 4], (x) => x.sqrt(), 'torch.sqrt(x)'),
  grad('abs at zero has a zero gradient', [0, -2, 3], (x) => x.abs(), 'torch.abs(x)'),
  grad('relu at zero has a zero gradient', [0, -2, 3], (x) => x.relu(), 'torch.relu(x)'),
  grad('amax ties share the gradient', [[1, 3, 3], [2, 2, 0]], (x) => x.amax(1), 'torch.amax(x, 1)'),
  infOnTheWay(grad('a NaN gradient into max() reaches only the maximum', [1, 3, 2], (x) => x.max().pow(tpu.tensor(0.5)).mul(tpu.tensor(NaN)), 'x.max() ** torch.tensor(0.5) * torch.tensor(float("nan"))')),
  infOnTheWay(grad('max() and min() of a whole tensor with NaN share the gradient among the NaNs; amax gives NaN', [[1, NaN, 3], [NaN, 2, 0]], (x) => x.max().add(x.min().mul(2)).add(x.amax(1).sum().mul(3)), 'x.max() + 2 * x.min() + 3 * x.amax(1).sum()')),
  infOnTheWay(grad('prod with NaN or inf and no zero is result / x, as in PyTorch', [[NaN, 2, 3], [INF, 2, 0.5]], (x) => x.prod(1).add(x.prod()), 'x.prod(1) + x.prod()')),
  infOnTheWay(grad('prod of a 0-d NaN passes the gradient on', NaN, (x) => x.prod().mul(2), 'x.prod() * 2')),
  infOnTheWay(grad('prod() of two or more zeros gives zeros, even for an inf gradient', [[0, 2], [0, 3]], (x) => x.prod().sqrt(), 'x.prod().sqrt()')),
  infOnTheWay(grad('prod(dim) of two zeros takes the product of the others, as PyTorch', [[0, 2, 0], [1, 0, 3]], (x) => x.prod(1).sqrt(), 'x.prod(1).sqrt()')),
  grad('prod with a zero anywhere is the product of the others', [[1.5, 2, 3], [4, 0, 0.5]], (x) => x.prod(1).mul(tpu.tensor([1, 2])), 'x.prod(1) * torch.tensor([1., 2])'),
  grad('gradients through an empty tensor are empty', [[], []], (x) => x.mean(0).sum().add(x.flip(1).at(-1).sum()).add(x.sum(1).sum()), 'x.mean(0).sum() + x.flip(1)[-1].sum() + x.sum(1).sum()'),
  grad('max(dim) sends the gradient to one index', [[1, 3, 3], [2, 2, 0]], (x) => x.max(1).values, 'torch.max(x, 1).values'),
  grad('maximum ties split the gradient', [1, 2, 3], (x) => x.maximum(tpu.tensor([1, 0, 3])), 'torch.maximum(x, torch.tensor([1., 0, 3]))'),
  infOnTheWay(grad('maximum and minimum with NaN give the whole gradient to both sides', [1, NaN, 2, -1], (x) => x.maximum(tpu.tensor([NaN, 1, 2, 0])).add(x.minimum(tpu.tensor([NaN, 1, 2, 0])).mul(2)), 'torch.maximum(x, torch.tensor([float("nan"), 1, 2, 0])) + 2 * torch.minimum(x, torch.tensor([float("nan"), 1, 2, 0]))')),
  infOnTheWay(grad('clamp passes no NaN gradient from outside its bounds', [-3, 0.5, 4, 1], (x) => x.clamp(0, 2).sub(1).pow(tpu.tensor([0.5, 0.5, 0.5, 2])), 'torch.clamp(x, 0, 2).sub(1) ** torch.tensor([0.5, 0.5, 0.5, 2])')),
  grad('clamp at the bounds', [0, 0.5, 1, 2, -1], (x) => x.clamp(0, 1), 'torch.clamp(x, 0, 1)'),
  grad('logsumexp with -inf entries', [[0, -INF, 1], [2, 3, -INF]], (x) => x.logsumexp(1), 'torch.logsumexp(x, 1)'),
  grad('softmax with -inf entries', [[0, -INF, 1]], (x) => x.softmax(1).mul(tpu.tensor([[1, 2, 3]])), 'torch.softmax(x, 1) * torch.tensor([[1., 2, 3]])'),
  grad('pow with a zero base', [0, 2, -1], (x) => x.pow(2), 'x ** 2'),
  infOnTheWay(grad('sign has a zero gradient, also under a NaN one', [-2, 0, 1.5], (x) => x.sign().add(1).log().mul(x.relu().add(x.log())), '(torch.sign(x) + 1).log() * (torch.relu(x) + x.log())')),
  infOnTheWay(grad('relu passes its gradient on at a NaN x', [NaN, -1, 0, 2], (x) => x.relu().mul(3), 'torch.relu(x) * 3')),
  infOnTheWay(grad('relu stops a NaN gradient where x <= 0', [0, -2, 3, -0.5], (x) => x.relu().pow(tpu.tensor([-0.5, -0.5, 2, 0.5])), 'torch.relu(x) ** torch.tensor([-0.5, -0.5, 2, 0.5])')),
  // debug mode checks these gradients, not the 0^-1 and log 0 their rule computes and does not take
  grad('pow by a zero exponent tensor has a zero gradient, also at a zero base', [0, 2, -3], (x) => x.pow(tpu.tensor([0, 0, 0])), 'x ** torch.tensor([0., 0, 0])'),
  grad('pow exponent gradient at a zero base with b >= 0 is 0', [0, 2, 1], (x) => tpu.tensor([0, 0, 3]).pow(x), 'torch.tensor([0., 0, 3]) ** x'),
  grad('pow exponent gradient at a zero base: 0 for b >= 0, -inf for b < 0', [0, 0, 1.5], (x) => tpu.tensor([0, 0, 0]).pow(x.sub(0.5)), 'torch.tensor([0., 0, 0]) ** (x - 0.5)'),
  grad('pow with a fractional exponent at zero', [0, 4], (x) => x.pow(0.5), 'x ** 0.5'),
  grad('log1p and expm1', [0, 1e-6, 3], (x) => x.log1p().add(x.expm1()), 'torch.log1p(x) + torch.expm1(x)'),
  grad('prod with a zero', [2, 0, 3], (x) => x.prod(), 'torch.prod(x)'),
  grad('prod with two zeros', [0, 0, 3], (x) => x.prod(), 'torch.prod(x)'),
  grad('cumprod with a zero', [2, 0, 3], (x) => x.cumprod(0), 'torch.cumprod(x, 0)'),
  grad('sort values', [3, 1, 2], (x) => x.sort().values.mul(tpu.tensor([1, 2, 3])), 'torch.sort(x).values * torch.tensor([1., 2, 3])'),
  grad('where picks', [1, -2, 3], (x) => tpu.where(x.gt(0), x.mul(2), x.mul(-3)), 'torch.where(x > 0, x * 2, x * -3)'),
  grad('layerNorm', [[1, 2, 4, 8]], (x) => tpu.nn.functional.layerNorm(x, [4]).mul(tpu.tensor([[1, -1, 2, 0.5]])), 'F.layer_norm(x, [4]) * torch.tensor([[1., -1, 2, 0.5]])'),
  grad('cumsum over more than one block', Array.from({ length: 300 }, (_, i) => (i % 7) - 3), (x) => x.cumsum(0).mul(x.cumsum(0)), 'torch.cumsum(x, 0) ** 2'),
  grad('var', [1, 2, 4, 7], (x) => x.var(), 'torch.var(x)'),
  grad('std and var over a dim of large rows', [[1e18, 3e18, -2e18], [5, 5, 6]], (x) => x.std({ dim: 1, keepdim: true }).mul(x.var(1).mul(1e-36).add(1).reshape([2, 1])), 'x.std(1, keepdim=True) * (x.var(1) * 1e-36 + 1).reshape(2, 1)'),
  grad('binaryCrossEntropyWithLogits', [-30, -1, 0, 2, 40], (x) => tpu.nn.binaryCrossEntropyWithLogits(x, tpu.tensor([1, 0, 0.5, 1, 0]), { reduction: 'none' }), "F.binary_cross_entropy_with_logits(x, torch.tensor([1., 0, 0.5, 1, 0]), reduction='none')"),
  grad('gelu tanh of large values', [-1e30, -20, 20, 1e30], (x) => tpu.nn.functional.gelu(x, { approximate: 'tanh' }), "F.gelu(x, approximate='tanh')"),
  grad('maxPool2d with ties', [[[[1, 1, 2, 2], [1, 1, 2, 2], [0, 3, 3, 0], [3, 0, 0, 3]]]], (x) => tpu.nn.functional.maxPool2d(x, 2), 'F.max_pool2d(x, 2)'),
  grad('maxPool2d with padding', [[[[1, -2, 3], [-4, 5, -6], [7, -8, 9]]]], (x) => tpu.nn.functional.maxPool2d(x, 2, { stride: 1, padding: 1 }), 'F.max_pool2d(x, 2, stride=1, padding=1)'),
  grad('avgPool2d without the pad', [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]], (x) => tpu.nn.functional.avgPool2d(x, 2, { padding: 1, countIncludePad: false }), 'F.avg_pool2d(x, 2, padding=1, count_include_pad=False)'),
  grad('interpolate bilinear', [[[[1, 2, 3], [4, 5, 7]]]], (x) => tpu.nn.functional.interpolate(x, { size: [3, 5], mode: 'bilinear' }).mul(tpu.arange(15, { dtype: 'float32' }).reshape([1, 1, 3, 5])), "F.interpolate(x, size=(3, 5), mode='bilinear') * torch.arange(15.).reshape(1, 1, 3, 5)"),
  grad('conv2d input gradient', [[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]]], (x) => tpu.nn.functional.conv2d(x, tpu.tensor([[[[1, -1], [0.5, 2]]]]), { padding: 1, stride: 2 }), 'F.conv2d(x, torch.tensor([[[[1., -1], [0.5, 2]]]]), padding=1, stride=2)'),
  grad('topk values', [3, 1, 4, 1, 5], (x) => x.topk(2).values.mul(tpu.tensor([1, 3])), 'torch.topk(x, 2).values * torch.tensor([1., 3])'),
  grad('transposed matmul', [[1, 2], [3, 4], [5, 6]], (x) => x.T.matmul(tpu.tensor([1, -1, 2])), 'x.T @ torch.tensor([1., -1, 2])'),
  grad('gelu and silu', [-3, -0.5, 0, 0.5, 3], (x) => tpu.nn.functional.gelu(x).add(tpu.nn.functional.silu(x)), 'F.gelu(x) + F.silu(x)'),
  grad('attention with a causal mask', [[[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]], (q) => tpu.nn.functional.scaledDotProductAttention(q, q.mul(2), q.add(1), { isCausal: true }), 'F.scaled_dot_product_attention(x, x * 2, x + 1, is_causal=True)'),
  grad('rmsNorm', [[1, -2, 4, 0.5]], (x) => tpu.nn.functional.rmsNorm(x, [4]).mul(tpu.tensor([[1, 2, -1, 0.5]])), 'F.rms_norm(x, [4]) * torch.tensor([[1., 2, -1, 0.5]])'),
  grad('lerp weight above one half', [1, 2, 3], (x) => x.lerp(tpu.tensor([4, -2, 0]), 0.75), 'torch.lerp(x, torch.tensor([4., -2, 0]), 0.75)'),
  grad('div roundingMode has no gradient through the rounding', [7.5, -3.2, 1], (x) => x.div(2, { roundingMode: 'floor' }).add(x), "torch.div(x, 2, rounding_mode='floor') + x"),
];

torchTier('gradients vs PyTorch autograd', cases);
