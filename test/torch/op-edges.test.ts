// OpInfo-style edge cases against PyTorch 2.13 for ops and options the other tables leave
// out: NaN and ±inf through pooling, gathers and scans; empty dims; 0-d operands; int32
// extremes; bfloat16; transposed views read inside fused regions.
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, ids, seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const INF = Infinity;
const IMAX = 2147483647;
const IMIN = -2147483648;
const M = seq('float32', [3, 4], 0.5, -3);
const E = seq('float32', [0, 3]);

const cases: TorchCase[] = [
  // NaN and ±inf
  { name: 'maxPool2d propagates NaN', inputs: [f32([[[[1, NaN, 2, 3], [4, 5, -INF, 6], [7, 8, 9, INF], [0, 1, 2, 3]]]])], js: (x) => F.maxPool2d(x, 2), py: 'F.max_pool2d(x0, 2)' },
  { name: 'avgPool2d with inf and NaN', inputs: [f32([[[[1, NaN, 2, 3], [4, 5, -INF, 6], [7, 8, INF, -INF], [0, 1, 2, 3]]]])], js: (x) => F.avgPool2d(x, 2), py: 'F.avg_pool2d(x0, 2)' },
  { name: 'gather and indexSelect carry NaN and -0', inputs: [f32([[NaN, -0, INF], [1, -INF, 0]]), ids([[2, 1], [0, 0]])], js: (x, i) => [x.gather(1, i), tpu.indexSelect(x, 1, i.at(0))], py: '(x0.gather(1, x1), x0.index_select(1, x1[0]))' },
  { name: 'scatterAdd of inf and NaN', inputs: [f32([0, 0, 0]), ids([0, 0, 1, 2]), f32([INF, -INF, NaN, -0])], js: (x, i, s) => x.scatterAdd(0, i, s), py: 'x0.scatter_add(0, x1, x2)' },
  { name: 'embedding rows with NaN', inputs: [ids([1, 0, 1]), f32([[NaN, 1], [-0, INF]])], js: (i, w) => F.embedding(i, w), py: 'F.embedding(x0, x1)' },
  { name: 'cumprod of -0 and inf', inputs: [f32([-0, INF, 2, -1])], js: (x) => x.cumprod(0), py: 'x0.cumprod(0)' },
  { name: 'matmul with inf and NaN', inputs: [f32([[INF, 1], [0, NaN]]), f32([[1, 0], [0, 1]])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'einsum of a row with inf', inputs: [f32([[1, INF], [2, 3]]), f32([1, -1])], js: (a, b) => tpu.einsum('ij,j->i', a, b), py: "torch.einsum('ij,j->i', x0, x1)" },
  { name: 'lerp at weight 1 with inf', inputs: [f32([INF, 1, -0]), f32([1, INF, 0])], js: (a, b) => a.lerp(b, 1), py: 'torch.lerp(x0, x1, 1.0)' },
  { name: 'pad with NaN and -inf values', inputs: [f32([[1, 2]])], js: (x) => [F.pad(x, [1, 1], { value: NaN }), F.pad(x, [0, 1], { value: -INF })], py: "(F.pad(x0, [1, 1], value=math.nan), F.pad(x0, [0, 1], value=-math.inf))" },
  { name: 'interpolate bilinear of inf', inputs: [f32([[[[1, INF], [0, 2]]]])], js: (x) => F.interpolate(x, { scaleFactor: 2, mode: 'bilinear' }), py: "F.interpolate(x0, scale_factor=2, mode='bilinear')" },
  { name: 'topk and sort of -0 and 0 keep order', inputs: [f32([0, -0, 1, -0, 0])], js: (x) => [x.sort({ dim: 0, stable: true }).indices, x.topk(2).values], py: '(x0.sort(dim=0, stable=True).indices, x0.topk(2).values)' },
  // empty dims
  { name: 'matmul over an empty inner dim is zeros', inputs: [seq('float32', [2, 0]), seq('float32', [0, 3])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'softmax and logSoftmax of an empty batch', inputs: [E], js: (x) => [x.softmax(1), x.logSoftmax(1)], py: '(x0.softmax(1), x0.log_softmax(1))' },
  { name: 'softmax and logSoftmax over an empty dim', inputs: [seq('float32', [3, 0]), seq('float32', [2, 0, 5])], js: (a, b) => [a.softmax(-1), a.logSoftmax(1), b.softmax(1), b.logSoftmax(1)], py: '(x0.softmax(-1), x0.log_softmax(1), x1.softmax(1), x1.log_softmax(1))' },
  { name: 'cumsum and sort of an empty tensor', inputs: [E], js: (x) => [x.cumsum(0), x.sort(1).values], py: '(x0.cumsum(0), x0.sort(1).values)' },
  { name: 'layerNorm of an empty batch', inputs: [E], js: (x) => F.layerNorm(x, [3]), py: 'F.layer_norm(x0, [3])' },
  { name: 'crossEntropy of an empty batch is NaN', inputs: [E, ids([])], js: (x, t) => tpu.nn.crossEntropy(x, t), py: 'F.cross_entropy(x0, x1)' },
  { name: 'concat with an empty tensor', inputs: [E, seq('float32', [2, 3])], js: (a, b) => tpu.concat([a, b], 0), py: 'torch.cat([x0, x1], 0)' },
  { name: 'topk of k 0', inputs: [M], js: (x) => x.topk(0).values, py: 'x0.topk(0).values' },
  { name: 'argmax over an empty dim is an error', inputs: [E], js: (x) => x.argmax(0), py: 'x0.argmax(0)' },
  { name: 'var of an empty dim is NaN', inputs: [E], js: (x) => x.var(0), py: 'x0.var(0)' },
  { name: 'linear of an empty batch', inputs: [E, seq('float32', [2, 3])], js: (x, w) => F.linear(x, w), py: 'F.linear(x0, x1)' },
  // 0-d operands
  { name: '0-d softmax, cumsum and logsumexp over dim 0', inputs: [f32(2.5)], js: (x) => [x.softmax(0), x.cumsum(0), x.logsumexp(0)], py: '(x0.softmax(0), x0.cumsum(0), x0.logsumexp(0))' },
  { name: '0-d sort and topk', inputs: [f32(-1.5)], js: (x) => [x.sort(0).values, x.topk(1).values], py: '(x0.sort(0).values, x0.topk(1).values)' },
  { name: '0-d matmul is an error', inputs: [f32(2), f32([1, 2])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: '0-d where and clamp', inputs: [f32(-0), f32([1, NaN])], js: (a, b) => [tpu.where(b.isnan(), a, b), b.clamp(a, 0.5)], py: '(torch.where(x1.isnan(), x0, x1), x1.clamp(x0, 0.5))' },
  { name: '0-d gather', inputs: [f32(3), ids(0)], js: (x, i) => x.gather(0, i), py: 'x0.gather(0, x1)' },
  { name: '0-d var and std', inputs: [f32(4)], js: (x) => [x.var(), x.std({ correction: 0 })], py: '(x0.var(), x0.std(correction=0))' },
  // int32 extremes
  { name: 'int32 extremes compare, clamp and sort', inputs: [i32([IMAX, IMIN, 0, -1, IMAX])], js: (x) => [x.gt(0), x.clamp(-5, 5), x.sort(0).values, x.argmax(0)], py: '(x0 > 0, x0.clamp(-5, 5), x0.sort(0).values, x0.argmax(0))' },
  { name: 'int32 extremes max, min and abs', inputs: [i32([IMAX, IMIN, -IMAX])], js: (x) => [x.amax(0), x.amin(0), x.abs()], py: '(x0.amax(0), x0.amin(0), x0.abs())' },
  { name: 'int32 extremes to float32 and bf16', inputs: [i32([IMAX, IMIN, 16777217, -16777217])], js: (x) => [x.to('float32'), x.to('bfloat16')], py: '(x0.to(torch.float32), x0.to(torch.bfloat16))' },
  { name: 'float32 beyond int32 cast to int32', inputs: [f32([2.5e9, -2.5e9, NaN, INF])], js: (x) => x.to('int32'), py: 'x0.to(torch.int32)' },
  { name: 'int32 floor division and remainder at the extremes', inputs: [i32([IMIN, IMAX, -7]), i32([2, -2, IMAX])], js: (a, b) => [a.div(b, { roundingMode: 'floor' }), a.remainder(b)], py: "(torch.div(x0, x1, rounding_mode='floor'), x0.remainder(x1))" },
  { name: 'int32 cumsum that fits', inputs: [i32([IMAX, IMIN, 1, -1])], js: (x) => x.cumsum(0), py: 'x0.cumsum(0)' },
  // bfloat16
  { name: 'bf16 matmul rounds once', inputs: [bf16([[1.5, 2.25, -3], [0.1, 0.2, 0.3]]), bf16([[1], [2], [3.5]])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'bf16 cumsum and cumprod', inputs: [bf16([1.01, 2.02, 3.03, 4.04, 5.05])], js: (x) => [x.cumsum(0), x.cumprod(0)], py: '(x0.cumsum(0), x0.cumprod(0))' },
  { name: 'bf16 div, pow and remainder', inputs: [bf16([7, -3.5, 1e3, 0.1]), bf16([3, 2, -7, 0.3])], js: (a, b) => [a.div(b), a.pow(b), a.remainder(b)], py: '(x0 / x1, x0.pow(x1), x0.remainder(x1))' },
  { name: 'bf16 layerNorm and rmsNorm with inf', inputs: [bf16([[1, INF, 2], [3, 4, 5]])], js: (x) => [F.layerNorm(x, [3]), F.rmsNorm(x, [3])], py: '(F.layer_norm(x0, [3]), F.rms_norm(x0, [3]))' },
  { name: 'bf16 crossEntropy', inputs: [bf16([[1.5, -2, 0.25], [3, 3, -1]]), ids([2, 0])], js: (x, t) => tpu.nn.crossEntropy(x, t), py: 'F.cross_entropy(x0, x1)' },
  { name: 'bf16 var and std', inputs: [bf16([[1e4, 1e4 + 64, 1e4 - 64], [1, 2, 4]])], js: (x) => [x.var(1), x.std(1)], py: '(x0.var(1), x0.std(1))' },
  { name: 'bf16 attention', inputs: [bf16([[[0.5, 1], [1, -1]]]), bf16([[[1, 0], [0, 1]]]), bf16([[[1, 2], [3, 4]]])], js: (q, k, v) => F.scaledDotProductAttention(q, k, v), py: 'F.scaled_dot_product_attention(x0, x1, x2)', rtol: 8e-3, atol: 8e-3 },
  // transposed views read inside fused regions
  { name: 'softmax and logsumexp of a transposed view', inputs: [M], js: (m) => [m.T.softmax(1), m.T.logsumexp(0)], py: '(x0.T.softmax(1), x0.T.logsumexp(0))' },
  { name: 'cumsum and var of a transposed view', inputs: [M], js: (m) => [m.T.cumsum(1), m.T.var(0)], py: '(x0.T.cumsum(1), x0.T.var(0))' },
  { name: 'layerNorm of a transposed view', inputs: [M], js: (m) => F.layerNorm(m.T, [3]), py: 'F.layer_norm(x0.T, [3])' },
  { name: 'elementwise chain over a transposed view and its base', inputs: [seq('float32', [3, 3], 0.5, -2)], js: (m) => m.T.exp().sub(m).mul(m.T.sigmoid()), py: '(x0.T.exp() - x0) * x0.T.sigmoid()' },
  { name: 'sort and topk of a transposed view', inputs: [M], js: (m) => [m.T.sort(1).values, m.T.topk(2, { dim: 0 }).indices], py: '(x0.T.sort(1).values, x0.T.topk(2, dim=0).indices)' },
  { name: 'gather from a permuted view', inputs: [seq('float32', [2, 3, 2], 1), ids([[[1], [0]], [[2], [1]]])], js: (x, i) => x.permute(0, 2, 1).gather(2, i), py: 'x0.permute(0, 2, 1).gather(2, x1)' },
  { name: 'crossEntropy of a transposed view', inputs: [M, ids([0, 2, 1, 1])], js: (m, t) => tpu.nn.crossEntropy(m.T, t), py: 'F.cross_entropy(x0.T, x1)' },
  { name: 'maxPool2d of a transposed view', inputs: [seq('float32', [1, 1, 4, 4], 1.5, -7)], js: (x) => F.maxPool2d(x.transpose(2, 3), 2), py: 'F.max_pool2d(x0.transpose(2, 3), 2)' },
  // options
  { name: 'avgPool2d without the padding in the count', inputs: [seq('float32', [1, 1, 3, 3], 1)], js: (x) => F.avgPool2d(x, 2, { padding: 1, countIncludePad: false }), py: 'F.avg_pool2d(x0, 2, padding=1, count_include_pad=False)' },
  { name: 'conv2d bf16 with valid padding', inputs: [bf16([[[[1.5, 2, -1], [0.25, 3, 1], [2, -2, 0.5]]]]), bf16([[[[1, -1], [0.5, 2]]]])], js: (x, w) => F.conv2d(x, w, { padding: 'valid' }), py: "F.conv2d(x0, x1, padding='valid')" },
  { name: 'conv2d with an inf input', inputs: [f32([[[[1, INF], [0, 1]]]]), f32([[[[1, 0], [0, 1]]]])], js: (x, w) => F.conv2d(x, w, { padding: 1 }), py: 'F.conv2d(x0, x1, padding=1)' },
  { name: 'pad with negative widths crops', inputs: [M], js: (x) => F.pad(x, [-1, 1, 0, -1]), py: 'F.pad(x0, [-1, 1, 0, -1])' },
  { name: 'einsum over a transposed view', inputs: [seq('float32', [3, 3], 1), seq('float32', [2, 3, 4], 0.5)], js: (a, b) => tpu.einsum('bij,jk->bik', b.transpose(1, 2), a), py: "torch.einsum('bij,jk->bik', x1.transpose(1, 2), x0)" },
  { name: 'clamp with min above max gives max', inputs: [f32([-1, 0.5, 3])], js: (x) => x.clamp(2, 1), py: 'x0.clamp(2, 1)' },
  { name: 'lerp with a tensor weight', inputs: [f32([1, INF, -0]), f32([3, 1, 0]), f32([0.5, 0, 1])], js: (a, b, w) => a.lerp(b, w), py: 'torch.lerp(x0, x1, x2)' },
  { name: 'argmin and argmax of -0 and 0 ties take the first', inputs: [f32([0, -0, 1, -0]), f32([-0, 0, -1, 0])], js: (a, b) => [a.argmin(0), b.argmax(0), a.amin(0), b.amax(0)], py: '(x0.argmin(0), x1.argmax(0), x0.amin(0), x1.amax(0))' },
  { name: 'attention with a float mask, a scale and a transposed key', inputs: [seq('float32', [1, 2, 3], 0.3), seq('float32', [1, 3, 2], 0.2), seq('float32', [1, 2, 2], 0.1), f32([[0, -1], [-INF, 2]])], js: (q, k, v, m) => F.scaledDotProductAttention(q, k.transpose(1, 2), v, { attnMask: m, scale: 2 }), py: 'F.scaled_dot_product_attention(x0, x1.transpose(1, 2), x2, attn_mask=x3, scale=2.0)' },
  { name: 'crossEntropy of probabilities with weight and label smoothing', inputs: [f32([[1, 2, -1], [0, -INF, 3]]), f32([[0.2, 0.8, 0], [1, 0, 0]]), f32([1, 2, 0.5])], js: (x, t, w) => tpu.nn.crossEntropy(x, t, { weight: w, labelSmoothing: 0.2, reduction: 'none' }), py: "F.cross_entropy(x0, x1, weight=x2, label_smoothing=0.2, reduction='none')" },
  { name: 'round bf16 with decimals', inputs: [bf16([1.2578125, -2.5, 0.125, 1000.5])], js: (x) => [x.round(), x.round({ decimals: 1 })], py: '(x0.round(), x0.round(decimals=1))' },
  { name: 'max and sum over a dim that keeps an empty one', inputs: [f32([[], []]), i64([[], [], []])], js: (x, n) => [x.max(0).values, x.max(0).indices, x.argmax(0), n.sum(0, true), n.prod(0)], py: '(x0.max(0).values, x0.max(0).indices, x0.argmax(0), x1.sum(0, keepdim=True), x1.prod(0))' },
  { name: 'integer division broadcast into an empty result divides by nothing', inputs: [i64([[], []]), bool([[false], [true]]), i32([0, 2])], js: (a, z, n) => [a.div(z, { roundingMode: 'trunc' }), a.fmod(z), a.remainder(z), tpu.zeros([0, 2], { dtype: 'int32' }).div(n, { roundingMode: 'floor' })], py: "(torch.div(x0, x1, rounding_mode='trunc'), torch.fmod(x0, x1), torch.remainder(x0, x1), torch.div(torch.zeros(0, 2, dtype=torch.int32), x2, rounding_mode='floor'))" },
];

torchTier('op edges (NaN, inf, empty, 0-d, int32 extremes, bf16, transposed views) follow PyTorch', cases);
