// nn ops and views against PyTorch: bf16 layerNorm, masked attention rows, pooling padding,
// matmul of transposed and strided views with vectors (inside fused regions too).
import { tpu } from 'tpu-kernel/runtime';
import { bf16, f32, ids, seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const INF = Infinity;
const M = seq('float32', [3, 4], 0.5, -3);
const V3 = f32([1, -2, 0.5]);
const V4 = f32([0.25, 1, -1, 2]);

const cases: TorchCase[] = [
  { name: 'transposed matrix times a vector', inputs: [M, V3], js: (m, v) => m.T.matmul(v), py: 'x0.T @ x1' },
  { name: 'vector times a transposed matrix', inputs: [M, V4], js: (m, v) => v.matmul(m.T), py: 'x1 @ x0.T' },
  { name: 'strided view times a vector', inputs: [seq('float32', [4, 6], 0.5), f32([1, 2, 3])], js: (m, v) => m.at('::2', '::2').matmul(v), py: 'x0[::2, ::2] @ x1' },
  { name: 'transposed view times a transposed view', inputs: [M, seq('float32', [4, 3], 0.25)], js: (a, b) => a.T.matmul(b.T), py: 'x0.T @ x1.T' },
  { name: 'permuted batch matmul', inputs: [seq('float32', [2, 3, 4], 0.1), seq('float32', [2, 3, 5], 0.2)], js: (a, b) => a.permute(0, 2, 1).matmul(b), py: 'x0.permute(0, 2, 1) @ x1' },
  { name: 'vector dot vector', inputs: [V4, V4], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'matmul shape mismatch is an error', inputs: [M, V4], js: (m, v) => m.T.matmul(v), py: 'x0.T @ x1' },
  { name: 'layerNorm float32', inputs: [seq('float32', [2, 5], 0.7, -2)], js: (x) => F.layerNorm(x, [5]), py: 'F.layer_norm(x0, [5])' },
  { name: 'layerNorm bf16', inputs: [bf16([[1.5, -2, 3.25, 0.125, 7], [100, 101, 102, 103, 104]])], js: (x) => F.layerNorm(x, [5]), py: 'F.layer_norm(x0, [5])' },
  { name: 'layerNorm bf16 with weight and bias', inputs: [bf16([[1.5, -2, 3.25, 0.125]]), bf16([1, 0.5, 2, -1]), bf16([0, 0.25, -0.5, 1])], js: (x, w, b) => F.layerNorm(x, [4], { weight: w, bias: b }), py: 'F.layer_norm(x0, [4], x1, x2)' },
  { name: 'rmsNorm', inputs: [seq('float32', [2, 4], 0.5, -3)], js: (x) => F.rmsNorm(x, [4]), py: 'F.rms_norm(x0, [4])' },
  { name: 'softmax bf16 rounds once', inputs: [bf16([[1, 2, 3.5, -1], [0.1, 0.2, 0.3, 0.4]])], js: (x) => x.softmax(1), py: 'torch.softmax(x0, 1)' },
  { name: 'logSoftmax bf16', inputs: [bf16([[1, 2, 3.5, -1]])], js: (x) => x.logSoftmax(1), py: 'torch.log_softmax(x0, 1)' },
  { name: 'functional softmax takes { dim }', inputs: [f32([[1, 2], [3, 5]])], js: (x) => F.softmax(x, { dim: 1 }), py: 'F.softmax(x0, dim=1)' },
  {
    name: 'attention with a fully masked row',
    inputs: [seq('float32', [1, 2, 4], 0.1), seq('float32', [1, 3, 4], 0.2), seq('float32', [1, 3, 2], 0.3)],
    js: (q, k, v) => F.scaledDotProductAttention(q, k, v, { attnMask: tpu.tensor([[true, true, false], [false, false, false]]) }),
    py: 'F.scaled_dot_product_attention(x0, x1, x2, attn_mask=torch.tensor([[True, True, False], [False, False, False]]))',
  },
  {
    name: 'attention with an additive -inf mask',
    inputs: [seq('float32', [1, 2, 4], 0.1), seq('float32', [1, 3, 4], 0.2), seq('float32', [1, 3, 2], 0.3), f32([[0, -INF, 0.5], [-1, 0, 0]])],
    js: (q, k, v, m) => F.scaledDotProductAttention(q, k, v, { attnMask: m }),
    py: 'F.scaled_dot_product_attention(x0, x1, x2, attn_mask=x3)',
  },
  { name: 'causal attention', inputs: [seq('float32', [1, 3, 4], 0.1), seq('float32', [1, 3, 4], 0.2), seq('float32', [1, 3, 2], 0.3)], js: (q, k, v) => F.scaledDotProductAttention(q, k, v, { isCausal: true }), py: 'F.scaled_dot_product_attention(x0, x1, x2, is_causal=True)' },
  { name: 'maxPool2d pads with -inf', inputs: [f32([[[[-INF, -INF], [-INF, -INF]]]])], js: (x) => F.maxPool2d(x, 2, { padding: 1 }), py: 'F.max_pool2d(x0, 2, padding=1)' },
  { name: 'avgPool2d of inf', inputs: [f32([[[[INF, 1], [2, 3]]]])], js: (x) => F.avgPool2d(x, 1), py: 'F.avg_pool2d(x0, 1)' },
  { name: 'attention with a bool mask hiding a whole row', inputs: [seq('float32', [1, 2, 4], 0.1), seq('float32', [1, 3, 4], 0.2), seq('float32', [1, 3, 2], 0.3), { values: [false, false, false, true, false, true], shape: [2, 3], dtype: 'bool' }], js: (q, k, v, m) => F.scaledDotProductAttention(q, k, v, { attnMask: m }), py: 'F.scaled_dot_product_attention(x0, x1, x2, attn_mask=x3)' },
  { name: 'rmsNorm of zeros', inputs: [f32([[0, 0, 0], [-0, 1, 2]])], js: (x) => F.rmsNorm(x, [3]), py: 'F.rms_norm(x0, [3])' },
  { name: 'crossEntropy labelSmoothing with -inf', inputs: [f32([[0, -INF, 1], [2, 0, 1]]), ids([0, 1])], js: (x, t) => tpu.nn.crossEntropy(x, t, { labelSmoothing: 0.1, reduction: 'none' }), py: "F.cross_entropy(x0, x1, label_smoothing=0.1, reduction='none')" },
  { name: 'bce with logits of inf', inputs: [f32([INF, -INF, 100, -100]), f32([1, 0, 1, 0])], js: (x, t) => tpu.nn.binaryCrossEntropyWithLogits(x, t, { reduction: 'none' }), py: "F.binary_cross_entropy_with_logits(x0, x1, reduction='none')" },
  { name: 'mseLoss with inf', inputs: [f32([INF, 1]), f32([INF, 1])], js: (x, t) => tpu.nn.mseLoss(x, t, { reduction: 'none' }), py: "F.mse_loss(x0, x1, reduction='none')" },
  // torch.nn.functional's losses as F.* (PyTorch's F.cross_entropy habit), not only tpu.nn.*
  {
    name: 'losses through tpu.nn.functional',
    inputs: [f32([[0.5, -1, 2], [1, 0, -0.5]]), ids([2, 0]), f32([[0.2, 0.9, 0.4], [0.7, 0.1, 0.5]]), f32([[1, 0, 1], [0, 0, 1]])],
    js: (x, t, p, y) => [F.crossEntropy(x, t), F.mseLoss(x, y), F.binaryCrossEntropy(p, y, { reduction: 'sum' }), F.binaryCrossEntropyWithLogits(x, y)],
    py: "(F.cross_entropy(x0, x1), F.mse_loss(x0, x3), F.binary_cross_entropy(x2, x3, reduction='sum'), F.binary_cross_entropy_with_logits(x0, x3))",
  },
  { name: 'clamp of -0 keeps it', inputs: [f32([-0, 0, -1, 2, NaN])], js: (x) => [x.clamp(0, 1), x.clamp({ max: 1 })], py: '(torch.clamp(x0, 0, 1), torch.clamp(x0, max=1.))' },
  { name: 'maxPool2d with padding of negative inputs', inputs: [seq('float32', [1, 1, 4, 4], -1, 1)], js: (x) => F.maxPool2d(x, 2, { padding: 1 }), py: 'F.max_pool2d(x0, 2, padding=1)' },
  { name: 'maxPool2d propagates NaN', inputs: [f32([[[[1, NaN, 2, 3], [4, 5, 6, 7], [8, 9, NaN, 1], [0, 0, 0, 0]]]])], js: (x) => F.maxPool2d(x, 2), py: 'F.max_pool2d(x0, 2)' },
  { name: 'maxPool2d stride and dilation', inputs: [seq('float32', [1, 2, 5, 5], 0.5, -7)], js: (x) => F.maxPool2d(x, 2, { stride: 1, dilation: 2 }), py: 'F.max_pool2d(x0, 2, stride=1, dilation=2)' },
  { name: 'avgPool2d padding counts the pad', inputs: [seq('float32', [1, 1, 4, 4])], js: (x) => [F.avgPool2d(x, 2, { padding: 1 }), F.avgPool2d(x, 2, { padding: 1, countIncludePad: false })], py: '(F.avg_pool2d(x0, 2, padding=1), F.avg_pool2d(x0, 2, padding=1, count_include_pad=False))' },
  { name: 'conv2d padding same', inputs: [seq('float32', [1, 2, 4, 4], 0.1), seq('float32', [3, 2, 3, 3], 0.05, -9)], js: (x, w) => F.conv2d(x, w, { padding: 'same' }), py: "F.conv2d(x0, x1, padding='same')", rtol: 1e-4 },
  { name: 'gelu on a transposed view', inputs: [M], js: (m) => F.gelu(m.T), py: 'F.gelu(x0.T)' },
  { name: 'sum of a broadcast view', inputs: [V4], js: (v) => v.expand([3, 4]).sum(0), py: 'x0.expand(3, 4).sum(0)' },
  { name: 'linear with a transposed weight', inputs: [seq('float32', [2, 3], 0.5), seq('float32', [3, 4], 0.25)], js: (x, w) => F.linear(x, w.T), py: 'F.linear(x0, x1.T)' },
  { name: 'reshape of a transposed view', inputs: [M], js: (m) => m.T.reshape([-1]), py: 'x0.T.reshape(-1)' },
  { name: 'flatten of a permuted view', inputs: [seq('float32', [2, 3, 4])], js: (x) => x.permute(2, 0, 1).flatten(), py: 'x0.permute(2, 0, 1).flatten()' },
  { name: 'cumsum and sort of a strided view', inputs: [seq('float32', [4, 6], -0.5, 3)], js: (x) => [x.at('::2', '1::2').cumsum(1), x.flip(0).at(':', '::3').sort(0).values], py: '(x0[::2, 1::2].cumsum(1), x0.flip(0)[:, ::3].sort(0).values)' },
  { name: 'softmax over dim 0 of a transposed view', inputs: [M], js: (m) => m.T.softmax(0), py: 'torch.softmax(x0.T, 0)' },
  { name: 'gather and indexSelect on views', inputs: [M], js: (m) => [m.T.gather(1, tpu.tensor([[2], [0], [1], [1]], { dtype: 'int32' })), m.at(':', '::2').indexSelect(1, tpu.tensor([1, 0], { dtype: 'int32' }))], py: '(x0.T.gather(1, torch.tensor([[2], [0], [1], [1]])), x0[:, ::2].index_select(1, torch.tensor([1, 0])))' },
  { name: 'concat of a view and its transpose', inputs: [seq('float32', [3, 3])], js: (x) => tpu.concat([x, x.T], 0).sum(1), py: 'torch.cat([x0, x0.T], 0).sum(1)' },
  { name: 'matmul of a broadcast view', inputs: [f32([1, 2]), seq('float32', [3, 2, 2])], js: (v, b) => v.expand([3, 1, 2]).matmul(b), py: 'x0.expand(3, 1, 2) @ x1' },
  { name: 'elementwise of a view and the base', inputs: [M], js: (m) => m.add(m.flip(1)).mul(m.T.T), py: '(x0 + x0.flip(1)) * x0.T.T' },
  // writes through a view reach the base (PyTorch's aliasing)
  { name: 'copy_ into a view reaches the base', inputs: [f32([[1, 2], [3, 4]]), f32([5, 6, 7, 8])], js: (b, y) => { b.view([4]).copy_(y); return b; }, py: '(lambda b, y: (b.view(4).copy_(y), b)[1])(x0.clone(), x1)' },
  { name: 'copy_ into a row reaches the base', inputs: [f32([[1, 2], [3, 4]]), f32([5, 6])], js: (b, y) => { b.at(0).copy_(y); return b; }, py: '(lambda b, y: (b[0].copy_(y), b)[1])(x0.clone(), x1)' },
  { name: 'copy_ into a transposed view reaches the base', inputs: [f32([[1, 2], [3, 4]]), f32([[5, 6], [7, 8]])], js: (b, y) => { b.T.copy_(y); return b; }, py: '(lambda b, y: (b.T.copy_(y), b)[1])(x0.clone(), x1)' },
];

torchTier('nn ops and views vs PyTorch', cases);
