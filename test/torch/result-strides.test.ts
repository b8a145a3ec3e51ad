// The strides of computed results against PyTorch 2.13: an elementwise op, a cast and a clone
// of a permuted or strided input keep its memory order (ATen's TensorIterator and
// preserve_format), reductions, softmax, matmul, ... are row-major; then which reshapes of
// such results alias, which view() calls fail, and writes through their views.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const strides = (t: Tensor) => tpu.tensor(t.stride(), { dtype: 'int32' });
const X = seq('float32', [2, 3, 4], 0.25, -11);
/** [4, 2, 3] with strides [1, 12, 4]. */
const P = (x: Tensor) => x.permute(2, 0, 1);
const PY_P = 'x0.permute(2, 0, 1)';
/** [3, 4] with strides [2, 6] (not dense) from a [4, 6] input. */
const N = (x: Tensor) => x.T.at('::2');
const PY_N = 'x0.T[::2]';
const X46 = seq('float32', [4, 6], 0.5, -9);

/** The strides and value of f(layout(x)); `values: false` for random results. */
function layoutCase(name: string, input: typeof X, js: (t: Tensor) => Tensor, py: string, values = true): TorchCase {
  return {
    name,
    inputs: [input],
    js: (x) => { const r = js(x); return values ? [strides(r), r] : [strides(r)]; },
    py: `r = ${py}\nresult = (torch.tensor(r.stride(), dtype=torch.int32)${values ? ', r' : ''})`,
  };
}

/** The same op on the permuted input and on the strided one. */
function both(name: string, js: (t: Tensor) => Tensor, py: (t: string) => string, values = true): TorchCase[] {
  return [
    layoutCase(`${name} of a permuted input`, X, (x) => js(P(x)), py(PY_P), values),
    layoutCase(`${name} of a strided input`, X46, (x) => js(N(x)), py(PY_N), values),
  ];
}

const families: TorchCase[] = [
  // elementwise: TensorIterator keeps the operands' memory order
  ...both('exp', (t) => t.exp(), (t) => `${t}.exp()`),
  ...both('neg abs relu sigmoid', (t) => t.neg().abs().relu().sigmoid(), (t) => `${t}.neg().abs().relu().sigmoid()`),
  ...both('mul by a scalar', (t) => t.mul(2), (t) => `${t} * 2`),
  ...both('scalar minus', (t) => tpu.sub(1, t), (t) => `1 - ${t}`),
  ...both('a scalar to a tensor power is row-major', (t) => tpu.pow(2, t), (t) => `torch.pow(2, ${t})`),
  ...both('mul by itself', (t) => t.mul(t), (t) => `${t} * ${t}`),
  ...both('pow maximum fmod', (t) => t.pow(2).maximum(t).fmod(3), (t) => `torch.fmod(torch.maximum(${t}.pow(2), ${t}), 3)`),
  ...both('div with rounding', (t) => t.div(2, { roundingMode: 'floor' }), (t) => `${t}.div(2, rounding_mode='floor')`),
  ...both('comparison and logic', (t) => t.gt(0).logicalAnd(t.lt(1)), (t) => `(${t} > 0).logical_and(${t} < 1)`),
  ...both('where', (t) => tpu.where(t.gt(0), t, 0), (t) => `torch.where(${t} > 0, ${t}, 0.)`),
  ...both('clamp', (t) => t.clamp(-1, 1), (t) => `${t}.clamp(-1, 1)`),
  ...both('round with decimals', (t) => t.round({ decimals: 1 }), (t) => `${t}.round(decimals=1)`),
  ...both('gelu silu', (t) => F.gelu(F.silu(t)), (t) => `F.gelu(F.silu(${t}))`),
  ...both('remainder', (t) => t.remainder(1.5), (t) => `${t}.remainder(1.5)`),
  ...both('lerp', (t) => t.lerp(t.mul(3), 0.25), (t) => `${t}.lerp(${t} * 3, 0.25)`),
  ...both('mseLoss without reduction', (t) => tpu.nn.mseLoss(t, t.mul(0.5), { reduction: 'none' }), (t) => `F.mse_loss(${t}, ${t} * 0.5, reduction='none')`),
  // casts and copies: preserve_format
  ...both('to int32', (t) => t.to('int32'), (t) => `${t}.to(torch.int32)`),
  ...both('to bfloat16', (t) => t.to('bfloat16'), (t) => `${t}.to(torch.bfloat16)`),
  ...both('clone', (t) => t.clone(), (t) => `${t}.clone()`),
  ...both('contiguous', (t) => t.contiguous(), (t) => `${t}.contiguous()`),
  ...both('zerosLike', (t) => tpu.zerosLike(t), (t) => `torch.zeros_like(${t})`),
  ...both('fullLike', (t) => tpu.fullLike(t, 3), (t) => `torch.full_like(${t}, 3)`),
  ...both('randnLike', (t) => tpu.randnLike(t), (t) => `torch.randn_like(${t})`, false),
  ...both('dropout', (t) => F.dropout(t, { p: 0.5 }), (t) => `F.dropout(${t}, 0.5)`, false),
  ...both('flip', (t) => t.flip(0), (t) => `${t}.flip(0)`),
  ...both('sort values', (t) => t.sort(0).values, (t) => `${t}.sort(0).values`),
  ...both('argsort', (t) => t.argsort(1), (t) => `${t}.argsort(1)`),
  // row-major in PyTorch too
  ...both('sum with keepdim', (t) => t.sum({ dim: 1, keepdim: true }), (t) => `${t}.sum(1, keepdim=True)`),
  ...both('amax with keepdim', (t) => t.amax({ dim: 0, keepdim: true }), (t) => `${t}.amax(0, keepdim=True)`),
  ...both('var with keepdim', (t) => t.var({ dim: 1, keepdim: true }), (t) => `${t}.var(1, keepdim=True)`),
  ...both('logsumexp with keepdim', (t) => t.logsumexp({ dim: 1, keepdim: true }), (t) => `${t}.logsumexp(1, keepdim=True)`),
  ...both('softmax', (t) => t.softmax(-1), (t) => `${t}.softmax(-1)`),
  ...both('logSoftmax', (t) => t.logSoftmax(0), (t) => `${t}.log_softmax(0)`),
  ...both('layerNorm', (t) => F.layerNorm(t, [t.shape.at(-1)!]), (t) => `F.layer_norm(${t}, [${t}.shape[-1]])`),
  ...both('rmsNorm', (t) => F.rmsNorm(t, [t.shape.at(-1)!]), (t) => `F.rms_norm(${t}, [${t}.shape[-1]])`),
  ...both('maskedFill', (t) => t.maskedFill(t.gt(0), 0), (t) => `${t}.masked_fill(${t} > 0, 0)`),
  ...both('cumsum', (t) => t.cumsum(1), (t) => `${t}.cumsum(1)`),
  ...both('cumprod', (t) => t.cumprod(0), (t) => `${t}.cumprod(0)`),
  ...both('tril', (t) => t.tril(), (t) => `${t}.tril()`),
  ...both('roll', (t) => t.roll(1, 0), (t) => `${t}.roll(1, 0)`),
  ...both('topk', (t) => t.topk(2, { dim: 0 }).values, (t) => `${t}.topk(2, 0).values`),
  ...both('concat', (t) => tpu.concat([t, t], 0), (t) => `torch.cat([${t}, ${t}], 0)`),
  ...both('matmul', (t) => t.matmul(t.mT), (t) => `${t} @ ${t}.mT`),
  ...both('repeat', (t) => t.repeat([...t.shape.map(() => 1), 2]), (t) => `${t}.repeat(*([1] * ${t}.dim()), 2)`),
  // advanced indexing: a TensorIterator over the input restrided and the index
  ...both('at with an index tensor on dim 1', (t) => t.at(':', tpu.tensor([1, 0, 1], { dtype: 'int32' })), (t) => `${t}[:, torch.tensor([1, 0, 1])]`),
  ...both('index with a 2-d index', (t) => t.index(tpu.tensor([[1, 0], [2, 1]], { dtype: 'int32' })), (t) => `${t}[torch.tensor([[1, 0], [2, 1]])]`),
  ...both('at with a slice, then an index tensor on the last dim', (t) => t.at('1:', '...', tpu.tensor([[2, 0], [1, 1]], { dtype: 'int32' }).T), (t) => `${t}[1:, ..., torch.tensor([[2, 0], [1, 1]]).T]`),
  ...both('at with an integer and an index tensor', (t) => t.at(1, tpu.tensor([0, 1], { dtype: 'int32' })), (t) => `${t}[1, torch.tensor([0, 1])]`),
  ...both('binaryCrossEntropy without reduction', (t) => tpu.nn.binaryCrossEntropy(t.sigmoid(), t.sigmoid().mul(0.5), { reduction: 'none' }), (t) => `F.binary_cross_entropy(${t}.sigmoid(), ${t}.sigmoid() * 0.5, reduction='none')`),
];

// 4-d image ops follow the input's channels-last (NHWC) strides, as PyTorch's CPU kernels do
const IMG = seq('float32', [2, 4, 6, 3], 0.125, -20);
const NHWC = (x: Tensor) => x.permute(0, 3, 1, 2);
const PY_NHWC = 'x0.permute(0, 3, 1, 2)';
const W = tpu.tensor(Array.from({ length: 54 }, (_, i) => ((i * 7) % 11) / 8 - 0.5)).reshape([2, 3, 3, 3]);
const PY_W = 'torch.tensor([((i * 7) % 11) / 8 - 0.5 for i in range(54)]).reshape(2, 3, 3, 3)';
const images: TorchCase[] = [
  layoutCase('maxPool2d of a channels-last input', IMG, (x) => F.maxPool2d(NHWC(x), 2), `F.max_pool2d(${PY_NHWC}, 2)`),
  layoutCase('avgPool2d of a channels-last input', IMG, (x) => F.avgPool2d(NHWC(x), 2, { padding: 1 }), `F.avg_pool2d(${PY_NHWC}, 2, padding=1)`),
  layoutCase('conv2d of a channels-last input', IMG, (x) => F.conv2d(NHWC(x), W, { padding: 1 }), `F.conv2d(${PY_NHWC}, ${PY_W}, padding=1)`),
  layoutCase('conv2d with a channels-last weight', IMG, (x) => F.conv2d(NHWC(x).contiguous(), W.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)), `F.conv2d(${PY_NHWC}.contiguous(), ${PY_W}.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2))`),
  layoutCase('interpolate nearest of a channels-last input', IMG, (x) => F.interpolate(NHWC(x), { scaleFactor: 2 }), `F.interpolate(${PY_NHWC}, scale_factor=2)`),
  layoutCase('interpolate bilinear of a channels-last input', IMG, (x) => F.interpolate(NHWC(x), { size: [3, 5], mode: 'bilinear' }), `F.interpolate(${PY_NHWC}, size=(3, 5), mode='bilinear')`),
  layoutCase('maxPool2d of a strided channels-last input', IMG, (x) => F.maxPool2d(NHWC(x).at(':', ':', '::2'), 1), `F.max_pool2d(${PY_NHWC}[:, :, ::2], 1)`),
  layoutCase('maxPool2d of a single channel is row-major', seq('float32', [2, 4, 6, 1]), (x) => F.maxPool2d(NHWC(x), 2), `F.max_pool2d(${PY_NHWC}, 2)`),
  layoutCase('maxPool2d of swapped H and W is row-major', IMG, (x) => F.maxPool2d(x.permute(0, 1, 3, 2), 2), 'F.max_pool2d(x0.permute(0, 1, 3, 2), 2)'),
  layoutCase('concat of channels-last inputs', IMG, (x) => tpu.concat([NHWC(x), NHWC(x).mul(2)], 1), `torch.cat([${PY_NHWC}, ${PY_NHWC} * 2], 1)`),
  layoutCase('concat of a channels-last and a row-major input', IMG, (x) => tpu.concat([NHWC(x), NHWC(x).contiguous()], 0), `torch.cat([${PY_NHWC}, ${PY_NHWC}.contiguous()], 0)`),
  layoutCase('elementwise ops of a channels-last input stay channels-last', IMG, (x) => NHWC(x).relu().add(NHWC(x).mul(2)), `${PY_NHWC}.relu() + ${PY_NHWC} * 2`),
];

torchTier('results take PyTorch strides', families);
torchTier('image ops follow channels-last inputs', images);
