// A number argument of a tpu.compile function given to what is not an op's dim or constant: a
// layer built inside the function (nn.Linear(4, n), nn.Softmax(d), nn.Dropout(p), ...), linalg's
// tolerances, logit's eps, tpu.normal's mean, the clip-grad bounds, a position written by
// setItem, the values scatter and indexFill write. Each is its value in the trace (specialized:
// one trace per value, as torch.compile specializes a number) or stays a program input (one
// trace for every value); against PyTorch 2.13, eagerly and compiled (compile-number-tier.ts).
// Before, each was refused with a misleading error ("Linear: inFeatures must be a positive
// integer; got 3"), and x.takeAlongDim(idx, d) read d as no dim at all.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, ids, seq } from './torch-tier.js';
import { numberArgumentTier, type NumberArgumentCase } from './compile-number-tier.js';

const { nn } = tpu;
const F = tpu.nn.functional;

/** [3, 4]: 0 .. 11 */
const M = seq('float32', [3, 4]);
/** [2, 3] with ties and negatives */
const PAIRS = f32([[3, 1, 2], [0, 5, -1]]);
/** Probabilities, for logit. */
const P = f32([[0.1, 0.3, 0.6], [0.9, 0.02, 0.5]]);
/** Singular values 3, 1 and 0.1: a tolerance between them decides the rank. */
const A = f32([[2, 1, 0], [1, 2, 0], [0, 0, 0.1]]);

/** Runs x through the modules in order. */
const through = (modules: Iterable<(x: Tensor) => Tensor>, x: Tensor) => [...modules].reduce((y, m) => m(y), x);

const CASES: readonly NumberArgumentCase[] = [
  // layers built inside the compiled function (one that switches train()/eval() or edits a module list there
  // cannot be replayed: its body runs on each call)
  {
    name: 'nn.Linear(n, 2)', inputs: [M], values: [2, 4],
    js: (n, x) => { const l = new nn.Linear(n, 2); nn.init.constant_(l.weight, 0.5); nn.init.zeros_(l.bias!); return l.forward(x.narrow(1, 0, n)); },
    py: (n) => `l = torch.nn.Linear(${n}, 2)\ntorch.nn.init.constant_(l.weight, 0.5)\ntorch.nn.init.zeros_(l.bias)\nresult = l(x0[:, :${n}]).detach()`,
  },
  {
    name: 'nn.Linear(4, n)', inputs: [M], values: [1, 3],
    js: (n, x) => { const l = new nn.Linear(4, n, { bias: false }); nn.init.constant_(l.weight, 0.25); return l.forward(x); },
    py: (n) => `l = torch.nn.Linear(4, ${n}, bias=False)\ntorch.nn.init.constant_(l.weight, 0.25)\nresult = l(x0).detach()`,
  },
  {
    name: 'nn.Conv2d(1, 1, k)', inputs: [M], values: [1, 2],
    js: (k, x) => { const c = new nn.Conv2d(1, 1, k); nn.init.constant_(c.weight, 0.25); nn.init.zeros_(c.bias!); return c.forward(x.reshape([1, 1, 3, 4])); },
    py: (k) => `c = torch.nn.Conv2d(1, 1, ${k})\ntorch.nn.init.constant_(c.weight, 0.25)\ntorch.nn.init.zeros_(c.bias)\nresult = c(x0.reshape(1, 1, 3, 4)).detach()`,
  },
  {
    name: 'nn.Embedding(n, 2)', inputs: [ids([0, 2, 1])], values: [3, 5],
    // row k of the table: [k, k + 0.5]
    js: (n, idx) => { const e = new nn.Embedding(n, 2); tpu.noGrad(() => e.weight.copy_(tpu.arange(n).float().unsqueeze(1).add(tpu.tensor([0, 0.5])))); return e.forward(idx); },
    py: (n) => `e = torch.nn.Embedding(${n}, 2)\nwith torch.no_grad(): e.weight.copy_(torch.arange(${n}, dtype=torch.float32).unsqueeze(1) + torch.tensor([0, 0.5]))\nresult = e(x0).detach()`,
  },
  { name: 'nn.LayerNorm(n)', inputs: [M], values: [4, 6], js: (n, x) => new nn.LayerNorm(n).forward(x.reshape([-1, n])), py: (n) => `torch.nn.LayerNorm(${n})(x0.reshape(-1, ${n})).detach()`, atol: 1e-5 },
  { name: 'nn.LayerNorm(4, { eps })', inputs: [M], values: [0.5, 1.5], js: (e, x) => new nn.LayerNorm(4, { eps: e }).forward(x), py: (e) => `torch.nn.LayerNorm(4, eps=${e})(x0).detach()`, atol: 1e-5 },
  { name: 'nn.BatchNorm1d(n)', inputs: [M], values: [4, 6], js: (n, x) => new nn.BatchNorm1d(n).forward(x.reshape([-1, n])), py: (n) => `torch.nn.BatchNorm1d(${n})(x0.reshape(-1, ${n})).detach()`, atol: 1e-5 },
  { name: 'nn.BatchNorm1d(4, { eps }).eval()', inputs: [M], values: [0.5, 1.5], traces: 4, js: (e, x) => new nn.BatchNorm1d(4, { eps: e }).eval().forward(x), py: (e) => `torch.nn.BatchNorm1d(4, eps=${e}).eval()(x0).detach()`, atol: 1e-5 },
  { name: 'nn.GroupNorm(g, 4)', inputs: [M], values: [2, 4], js: (g, x) => new nn.GroupNorm(g, 4).forward(x.reshape([1, 4, 3])), py: (g) => `torch.nn.GroupNorm(${g}, 4)(x0.reshape(1, 4, 3)).detach()`, atol: 1e-5 },
  { name: 'nn.Softmax(d)', inputs: [PAIRS], values: [0, 1], js: (d, x) => new nn.Softmax(d).forward(x), py: (d) => `torch.nn.Softmax(${d})(x0)` },
  { name: 'nn.Softmin(d)', inputs: [PAIRS], values: [0, -1], js: (d, x) => new nn.Softmin(d).forward(x), py: (d) => `torch.nn.Softmin(${d})(x0)` },
  { name: 'nn.Flatten(startDim)', inputs: [seq('float32', [2, 3, 2])], values: [0, 1], js: (d, x) => new nn.Flatten(d).forward(x), py: (d) => `torch.nn.Flatten(${d})(x0)` },
  { name: 'nn.Unflatten(d, [2, 2])', inputs: [M], values: [1, -1], js: (d, x) => new nn.Unflatten(d, [2, 2]).forward(x), py: (d) => `torch.nn.Unflatten(${d}, (2, 2))(x0)` },
  { name: 'nn.Dropout(p) (0 and 1: no randomness)', inputs: [PAIRS], values: [0, 1], js: (p, x) => new nn.Dropout(p).forward(x), py: (p) => `torch.nn.Dropout(${p})(x0)` },
  {
    name: 'nn.ModuleList.insert(i)', inputs: [PAIRS], values: [0, 2], traces: 4,
    js: (i, x) => through(new nn.ModuleList([new nn.Tanh(), new nn.Sigmoid()]).insert(i, new nn.ReLU()), x),
    py: (i) => `ms = torch.nn.ModuleList([torch.nn.Tanh(), torch.nn.Sigmoid()])\nms.insert(${i}, torch.nn.ReLU())\nresult = x0\nfor m in ms: result = m(result)`,
  },
  // functions' constants: the trace is specialized on them
  { name: 'x.logit(eps)', inputs: [P], values: [0.2, 0.05], js: (e, x) => x.logit(e), py: (e) => `x0.logit(${e})` },
  { name: 'linalg.pinv(a, { atol })', inputs: [A], values: [0.5, 0.05], js: (t, a) => tpu.linalg.pinv(a, { atol: t }), py: (t) => `torch.linalg.pinv(x0, atol=${t})`, atol: 1e-5 },
  { name: 'linalg.pinv(a, { rtol })', inputs: [A], values: [0.2, 0.01], js: (t, a) => tpu.linalg.pinv(a, { rtol: t }), py: (t) => `torch.linalg.pinv(x0, rtol=${t})`, atol: 1e-5 },
  { name: 'linalg.matrixRank(a, { atol })', inputs: [A], values: [0.5, 0.05], js: (t, a) => tpu.linalg.matrixRank(a, { atol: t }), py: (t) => `torch.linalg.matrix_rank(x0, atol=${t})` },
  { name: 'linalg.lstsq(a, b, { rcond })', inputs: [A, f32([[1], [2], [3]])], values: [0.2, 0.01], js: (r, a, b) => tpu.linalg.lstsq(a, b, { rcond: r }).solution, py: (r) => `torch.linalg.lstsq(x0, x1, rcond=${r}, driver='gelsd').solution`, atol: 1e-4 },
  { name: 'tpu.cdist(x, y, { p })', inputs: [PAIRS, f32([[1, 0, 2], [2, 2, 2]])], values: [1, 3], js: (p, x, y) => tpu.cdist(x, y, { p }), py: (p) => `torch.cdist(x0, x1, p=${p})`, atol: 1e-5 },
  { name: 'tpu.polygamma(n, x)', inputs: [f32([0.5, 1, 2.5])], values: [0, 1], js: (n, x) => tpu.polygamma(n, x), py: (n) => `torch.polygamma(${n}, x0)`, atol: 1e-5 },
  { name: 'tpu.addmm(x, a, b, { alpha })', inputs: [PAIRS, f32([[1, 2], [3, 4]]), PAIRS], values: [2, -1], js: (a, x, m1, m2) => tpu.addmm(x, m1, m2, { alpha: a }), py: (a) => `torch.addmm(x0, x1, x2, alpha=${a})` },
  { name: 'x.takeAlongDim(index, d)', inputs: [M, ids([[0, 3, 1, 2], [2, 1, 0, 0], [1, 1, 1, 1]])], values: [0, 1], js: (d, x, idx) => x.narrow(1, 0, 3).narrow(0, 0, 3).takeAlongDim(idx.narrow(1, 0, 3).clamp({ max: 2 }), d), py: (d) => `torch.take_along_dim(x0[:3, :3], x1[:, :3].clamp(max=2), ${d})` },
  { name: 'x.tensorSplit(n, 1)', inputs: [M], values: [2, 3], js: (n, x) => x.tensorSplit(n, 1), py: (n) => `x0.tensor_split(${n}, 1)` },
  { name: 'x.tensorSplit([i], 1)', inputs: [M], values: [1, 3], js: (i, x) => x.tensorSplit([i], 1), py: (i) => `x0.tensor_split([${i}], 1)` },
  { name: 'tpu.logspace(0, 2, 3, { base })', inputs: [M], values: [2, 3], js: (b) => tpu.logspace(0, 2, 3, { base: b }), py: (b) => `torch.logspace(0, 2, 3, base=${b})` },
  { name: 'tpu.tensor([v, 1])', inputs: [M], values: [0.5, -2.5], js: (v) => tpu.tensor([v, 1]), py: (v) => `torch.tensor([${v}, 1.])` },
  { name: 'tpu.normal(mean, 0, [2])', inputs: [M], values: [0.5, -1.5], js: (m) => tpu.normal(m, 0, [2]), py: (m) => `torch.normal(${m}, 0., (2,))` },
  { name: 'x.bernoulli(p) (0 and 1: no randomness)', inputs: [PAIRS], values: [0, 1], js: (p, x) => x.bernoulli(p), py: (p) => `x0.bernoulli(${p})` },
  { name: 'x.copysign(v)', inputs: [PAIRS], values: [-1, 2], js: (v, x) => x.copysign(v), py: (v) => `x0.copysign(${v})` },
  { name: 'x.lerp(y, w)', inputs: [PAIRS, f32([[1, 1, 1], [2, 2, 2]])], values: [0.25, 0.75], js: (w, x, y) => x.lerp(y, w), py: (w) => `x0.lerp(x1, ${w})` },
  { name: 'x.remainder(v)', inputs: [PAIRS], values: [2, -2], js: (v, x) => x.remainder(v), py: (v) => `x0.remainder(${v})` },
  { name: "x.div(v, { roundingMode: 'floor' })", inputs: [PAIRS], values: [0, -2], js: (v, x) => x.div(v, { roundingMode: 'floor' }), py: (v) => `x0.div(${v}, rounding_mode='floor')` },
  { name: "nn.init.calculateGain('leaky_relu', slope)", inputs: [M], values: [0.2, 0.5], js: (a) => tpu.full([1], nn.init.calculateGain('leaky_relu', a)), py: (a) => `torch.full([1], torch.nn.init.calculate_gain('leaky_relu', ${a}))` },
  {
    name: 'F.batchNorm(x, runningMean, runningVar, { momentum })', inputs: [PAIRS, f32([0, 0, 0])], values: [0.1, 0.5],
    js: (m, x, r) => { const rm = r.clone(); F.batchNorm(x, rm, tpu.ones([3]), { training: true, momentum: m }); return rm; },
    py: (m) => `rm = x1.clone()\nF.batch_norm(x0, rm, torch.ones(3), training=True, momentum=${m})\nresult = rm`,
  },
  {
    name: 'clipGradNorm_(params, 1, normType)', inputs: [PAIRS], values: [1, 3],
    js: (p, x) => { x.requiresGrad_(); x.mul(x).sum().backward(); nn.utils.clipGradNorm_([x], 1, p); return x.grad!; },
    py: (p) => `x0.requires_grad_()\n(x0 * x0).sum().backward()\ntorch.nn.utils.clip_grad_norm_([x0], 1, ${p})\nresult = x0.grad`,
  },
  // values that stay program inputs: one trace for every value
  {
    name: 'clipGradNorm_(params, maxNorm)', inputs: [PAIRS], values: [0.5, 2.5], fed: true,
    js: (m, x) => { x.requiresGrad_(); x.mul(x).sum().backward(); nn.utils.clipGradNorm_([x], m); return x.grad!; },
    py: (m) => `x0.requires_grad_()\n(x0 * x0).sum().backward()\ntorch.nn.utils.clip_grad_norm_([x0], ${m})\nresult = x0.grad`,
  },
  {
    name: 'clipGradValue_(params, v)', inputs: [PAIRS], values: [0.5, 3.5], fed: true,
    js: (v, x) => { x.requiresGrad_(); x.mul(x).sum().backward(); nn.utils.clipGradValue_([x], v); return x.grad!; },
    py: (v) => `x0.requires_grad_()\n(x0 * x0).sum().backward()\ntorch.nn.utils.clip_grad_value_([x0], ${v})\nresult = x0.grad`,
  },
  { name: 'x.scatter(1, index, v)', inputs: [PAIRS, ids([[2], [0]])], values: [0.5, -2.5], fed: true, js: (v, x, idx) => x.scatter(1, idx, v), py: (v) => `x0.scatter(1, x1, ${v})` },
  { name: 'x.indexFill(1, index, v)', inputs: [PAIRS, ids([0, 2])], values: [0.5, -2.5], fed: true, js: (v, x, idx) => x.indexFill(1, idx, v), py: (v) => `x0.index_fill(1, x1, ${v})` },
  { name: 'nn.init.constant_(x, v)', inputs: [PAIRS], values: [0.5, -2.5], fed: true, js: (v, x) => nn.init.constant_(x.clone(), v), py: (v) => `torch.nn.init.constant_(x0.clone(), ${v})` },
  {
    name: 'x.setItem([i, [0, 2]], 7) (a row position)', inputs: [PAIRS], values: [0, 1], fed: true,
    js: (i, x) => { const t = x.clone(); t.setItem([i, [0, 2]], 7); return t; },
    py: (i) => `t = x0.clone()\nt[${i}, [0, 2]] = 7\nresult = t`,
  },
];

numberArgumentTier('a layer, a function or a value under tpu.compile reads a number argument', CASES);
