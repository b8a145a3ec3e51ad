// Composed ops at extreme inputs against PyTorch 2.13: ±inf, NaN, huge and constant rows, in
// float32 and bfloat16. A composed op here is one op to the user, as PyTorch's native kernel:
// its answer at the edges (NaN, ±inf, 0) must be PyTorch's, not a by-product of the formula.
import { tpu } from 'tpu-kernel/runtime';
import { bf16, f32, ids, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const INF = Infinity;
const EDGES = [-INF, INF, NaN, -0, 0, 1e30, -1e30, 1e38, -3.4e38, 1e-40, 20, -20];
const ROWS = [[1, 2, INF], [-INF, 1, 2], [INF, INF, 1], [-INF, -INF, -INF], [1, NaN, 2], [INF, -INF, 0], [1e30, 1e30, 1e30], [3e38, -3e38, 1]];

const cases: TorchCase[] = [
  { name: 'gelu at the edges', inputs: [f32(EDGES)], js: (x) => F.gelu(x), py: 'F.gelu(x0)' },
  { name: 'gelu tanh at the edges', inputs: [f32(EDGES)], js: (x) => F.gelu(x, { approximate: 'tanh' }), py: "F.gelu(x0, approximate='tanh')" },
  { name: 'gelu bf16 at the edges', inputs: [bf16(EDGES)], js: (x) => F.gelu(x), py: 'F.gelu(x0)' },
  { name: 'gelu tanh bf16 at the edges', inputs: [bf16(EDGES)], js: (x) => F.gelu(x, { approximate: 'tanh' }), py: "F.gelu(x0, approximate='tanh')" },
  { name: 'gelu tanh near the float32 maximum', inputs: [f32([3.4e38, 2e38, -3.4e38])], js: (x) => F.gelu(x, { approximate: 'tanh' }), py: "F.gelu(x0, approximate='tanh')" },
  { name: 'gelu beyond half the float32 maximum', inputs: [f32([3.4e38, 2e38, -3.4e38])], js: (x) => F.gelu(x), py: 'F.gelu(x0)' },
  { name: 'gelu of a one-element +inf', inputs: [f32([INF])], js: (x) => F.gelu(x), py: 'F.gelu(x0)' },
  { name: 'silu at the edges', inputs: [f32(EDGES)], js: (x) => F.silu(x), py: 'F.silu(x0)' },
  { name: 'sigmoid and tanh at the edges', inputs: [f32(EDGES)], js: (x) => [x.sigmoid(), x.tanh()], py: '(x0.sigmoid(), x0.tanh())' },
  { name: 'relu at the edges', inputs: [f32(EDGES)], js: (x) => F.relu(x), py: 'F.relu(x0)' },
  { name: 'layerNorm of rows whose squares overflow', inputs: [f32([[1e30, 1e30, 1e30], [3e38, -3e38, 1]])], js: (x) => F.layerNorm(x, [3]), py: 'F.layer_norm(x0, [3])' },
  { name: 'layerNorm of rows with inf and NaN', inputs: [f32(ROWS.slice(0, 6))], js: (x) => F.layerNorm(x, [3]), py: 'F.layer_norm(x0, [3])' },
  { name: 'layerNorm of a constant row', inputs: [f32([[3, 3, 3], [-0, 0, -0]])], js: (x) => F.layerNorm(x, [3]), py: 'F.layer_norm(x0, [3])' },
  { name: 'layerNorm of -0 rows with a weight, with a bias', inputs: [f32([[-0, -0, -0, -0], [1, -0, 3, 2]]), f32([1, -2, 0.5, -1]), f32([0.5, 0, -1, 0])], js: (x, w, b) => [F.layerNorm(x, [4], { weight: w }), F.layerNorm(x, [4], { weight: w, bias: b }), F.layerNorm(x, [4], { bias: b })], py: '(F.layer_norm(x0, [4], x1), F.layer_norm(x0, [4], x1, x2), F.layer_norm(x0, [4], None, x2))' },
  { name: 'layerNorm bf16 of rows with inf and NaN', inputs: [bf16(ROWS.slice(0, 6))], js: (x) => F.layerNorm(x, [3]), py: 'F.layer_norm(x0, [3])' },
  { name: 'rmsNorm of rows with inf and NaN', inputs: [f32(ROWS)], js: (x) => F.rmsNorm(x, [3]), py: 'F.rms_norm(x0, [3])' },
  { name: 'softmax of rows with inf', inputs: [f32(ROWS)], js: (x) => F.softmax(x, 1), py: 'F.softmax(x0, 1)' },
  { name: 'logSoftmax of rows with inf', inputs: [f32(ROWS)], js: (x) => F.logSoftmax(x, 1), py: 'F.log_softmax(x0, 1)' },
  { name: 'softmax bf16 of rows with inf', inputs: [bf16(ROWS.slice(0, 6))], js: (x) => F.softmax(x, 1), py: 'F.softmax(x0, 1)' },
  { name: 'logSoftmax bf16 of rows with inf', inputs: [bf16(ROWS.slice(0, 6))], js: (x) => F.logSoftmax(x, 1), py: 'F.log_softmax(x0, 1)' },
  { name: 'logsumexp of rows with inf', inputs: [f32(ROWS)], js: (x) => x.logsumexp(1), py: 'x0.logsumexp(1)' },
  { name: 'softmax over dim 0 of rows with inf', inputs: [f32(ROWS)], js: (x) => F.softmax(x, 0), py: 'F.softmax(x0, 0)' },
  { name: 'crossEntropy of logits with inf', inputs: [f32(ROWS.slice(0, 6)), ids([2, 0, 1, 0, 0, 2])], js: (x, t) => tpu.nn.crossEntropy(x, t, { reduction: 'none' }), py: "F.cross_entropy(x0, x1, reduction='none')" },
  { name: 'crossEntropy with label smoothing of huge logits', inputs: [f32([[1e30, -1e30, 0], [3e38, 3e38, -3e38]]), ids([0, 2])], js: (x, t) => tpu.nn.crossEntropy(x, t, { reduction: 'none', labelSmoothing: 0.1 }), py: "F.cross_entropy(x0, x1, reduction='none', label_smoothing=0.1)" },
  { name: 'crossEntropy with probability targets and -inf logits', inputs: [f32([[-INF, 1, 2], [0, 0, -INF]]), f32([[0, 0.5, 0.5], [0.5, 0.5, 0]])], js: (x, t) => tpu.nn.crossEntropy(x, t, { reduction: 'none' }), py: "F.cross_entropy(x0, x1, reduction='none')" },
  { name: 'binaryCrossEntropyWithLogits of huge logits', inputs: [f32([1e30, -1e30, INF, -INF, 100, -100]), f32([1, 0, 0.5, 0.5, 0, 1])], js: (x, t) => tpu.nn.binaryCrossEntropyWithLogits(x, t, { reduction: 'none' }), py: "F.binary_cross_entropy_with_logits(x0, x1, reduction='none')" },
  { name: 'binaryCrossEntropy at 0 and 1', inputs: [f32([0, 1, 0, 1, 1e-30]), f32([0, 1, 1, 0, 0.5])], js: (x, t) => tpu.nn.binaryCrossEntropy(x, t, { reduction: 'none' }), py: "F.binary_cross_entropy(x0, x1, reduction='none')" },
  { name: 'mseLoss of huge values', inputs: [f32([3e38, -3e38, INF, 1]), f32([-3e38, -3e38, INF, NaN])], js: (x, t) => tpu.nn.mseLoss(x, t, { reduction: 'none' }), py: "F.mse_loss(x0, x1, reduction='none')" },
  {
    name: 'attention with inf scores',
    inputs: [f32([[[1e30, 0], [1, 1]]]), f32([[[1, 0], [0, 1], [1, 1]]]), f32([[[1, 2], [3, 4], [5, 6]]])],
    js: (q, k, v) => F.scaledDotProductAttention(q, k, v), py: 'F.scaled_dot_product_attention(x0, x1, x2)',
  },
  {
    name: 'attention with an additive -inf mask row',
    inputs: [f32([[[1, 0], [1, 1]]]), f32([[[1, 0], [0, 1], [1, 1]]]), f32([[[1, 2], [3, 4], [5, 6]]]), f32([[-INF, -INF, -INF], [0, -INF, 1]])],
    js: (q, k, v, m) => F.scaledDotProductAttention(q, k, v, { attnMask: m }), py: 'F.scaled_dot_product_attention(x0, x1, x2, attn_mask=x3)',
  },
  { name: 'var and std of huge values', inputs: [f32([[3e38, -3e38, 0], [1e30, 1e30, 1e30], [1e20, 1e20, -1e20]])], js: (x) => [x.var(1), x.std(1)], py: '(x0.var(1), x0.std(1))' },
  { name: 'var and std with inf and NaN', inputs: [f32(ROWS.slice(0, 6))], js: (x) => [x.var(1), x.std({ dim: 1, correction: 0 })], py: '(x0.var(1), x0.std(1, correction=0))' },
  { name: 'var whose sum of squares overflows but not the variance', inputs: [f32([[1.5e19, -1.5e19, 1.5e19, -1.5e19, 1e18], [1e-20, 3e-20, -2e-20, 0, 5e-21]])], js: (x) => [x.var(1), x.var({ dim: 1, correction: 0 })], py: '(x0.var(1), x0.var(1, correction=0))' },
  { name: 'var of one element', inputs: [f32([[2], [INF]])], js: (x) => [x.var(1), x.var({ dim: 1, correction: 0 })], py: '(x0.var(1), x0.var(1, correction=0))' },
  { name: 'mean of huge values', inputs: [f32([[3e38, 3e38], [-3e38, -3e38]])], js: (x) => x.mean(1), py: 'x0.mean(1)' },
  { name: 'cumsum of inf and NaN', inputs: [f32([1, INF, -INF, 2, NaN, 3])], js: (x) => [x.cumsum(0), x.cumprod(0)], py: '(x0.cumsum(0), x0.cumprod(0))' },
  { name: 'cumsum bf16 accumulates in float32', inputs: [bf16([1, 0.00390625, 0.00390625, 0.00390625, 0.00390625, 256, 1])], js: (x) => x.cumsum(0), py: 'x0.cumsum(0)' },
  { name: 'norm of huge values', inputs: [f32([[3e38, 3e38], [1e-30, 1e-30], [INF, NaN]])], js: (x) => x.norm(2, 1), py: 'x0.norm(2, 1)' },
  { name: 'amax and amin with NaN', inputs: [f32([[1, NaN, 2], [-INF, -0, 0]])], js: (x) => [x.amax(1), x.amin(1)], py: '(x0.amax(1), x0.amin(1))' },
  { name: 'argmax and argmin with NaN and ties', inputs: [f32([[1, NaN, 2], [INF, INF, 0], [-INF, -INF, 0]])], js: (x) => [x.argmax(1), x.argmin(1)], py: '(x0.argmax(1), x0.argmin(1))' },
  { name: 'sort and topk with NaN', inputs: [f32([3, NaN, -INF, 1, INF, -0])], js: (x) => [x.sort(0).values, x.topk(2).values], py: '(x0.sort(0).values, x0.topk(2).values)' },
  { name: 'pow by the numbers 0.5 and -0.5 is sqrt and rsqrt', inputs: [f32([-0, 0, -INF, INF, 4, -4, NaN]), bf16([-0, -INF, 9])], js: (x, h) => [x.pow(0.5), x.pow(-0.5), x.pow(1.5), h.pow(0.5), x.pow(tpu.tensor(0.5))], py: '(x0 ** 0.5, x0 ** -0.5, x0 ** 1.5, x1 ** 0.5, x0 ** torch.tensor(0.5))' },
  { name: 'pow at the edges', inputs: [f32([0, -0, INF, -INF, NaN, -2, 1]), f32([-1, -1, 0, 3, 0, 0.5, NaN])], js: (a, b) => a.pow(b), py: 'x0.pow(x1)' },
  { name: 'division by zeros', inputs: [f32([1, -1, 0, INF, -0]), f32([0, -0, 0, INF, 1])], js: (a, b) => [a.div(b), a.div(b, { roundingMode: 'floor' }), a.remainder(b)], py: "(x0 / x1, torch.div(x0, x1, rounding_mode='floor'), x0.remainder(x1))" },
];

torchTier('composed ops at extreme inputs follow PyTorch', cases);
