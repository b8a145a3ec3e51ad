// A number argument of a tpu.compile function used where an op expects an integer (a dim, a
// size, a count, a row position) or a constant (eps, alpha, a norm's p), against PyTorch 2.13,
// eagerly and compiled, each op with two values called a, b, a on one compiled function: a
// trace kept for one value and replayed for the other would give the first value's answer.
// Then: how many traces that takes (one per value, as torch.compile specializes them; one in
// all for a row read by x.at(i), select and narrow, whose position stays a program input, and
// for an operand), and the errors of a non-integer or an out-of-range value, under
// tpu.compile as eagerly.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, ids, seq } from './torch-tier.js';
import { made, numberArgumentTier, type NumberArgumentCase } from './compile-number-tier.js';

/** [3, 4]: 0 .. 11 */
const M = seq('float32', [3, 4]);
/** [2, 3, 4]: 0 .. 23, scaled so that sums differ from the elements */
const C = seq('float32', [2, 3, 4], 0.5, -5);
/** [2, 3] with ties and negatives */
const PAIRS = f32([[3, 1, 2], [0, 5, -1]]);
/** Indices valid along both dims of M. */
const GATHER = ids([[0, 1, 2, 0], [2, 1, 0, 1], [1, 1, 1, 1]]);

const CASES: readonly NumberArgumentCase[] = [
  // row positions: fed to the program
  { name: 'x.at(i)', inputs: [M], values: [1, -1], js: (i, x) => x.at(i), py: (i) => `x0[${i}]`, fed: true },
  { name: 'x.at(0, i)', inputs: [C], values: [2, 0], js: (i, x) => x.at(0, i), py: (i) => `x0[0, ${i}]`, fed: true },
  { name: 'x.at(i, i) (two dims)', inputs: [M], values: [0, 2], js: (i, x) => x.at(i, i), py: (i) => `x0[${i}, ${i}]`, fed: true },
  { name: 'x.select(-1, i)', inputs: [M], values: [3, -4], js: (i, x) => x.select(-1, i), py: (i) => `x0.select(-1, ${i})`, fed: true },
  { name: 'x.narrow(1, i, 2) (start)', inputs: [M], values: [0, 2], js: (i, x) => x.narrow(1, i, 2), py: (i) => `x0.narrow(1, ${i}, 2)`, fed: true },
  { name: 'x.at(i) gradient', inputs: [M], values: [0, 2], js: (i, x) => { const w = x.requiresGrad_(); w.at(i).mul(3).sum().backward(); return w.grad!; }, py: (i) => `x0.requires_grad_()\nx0[${i}].mul(3).sum().backward()\nresult = x0.grad`, fed: true },
  // an operand stays live, also in a gradient
  { name: 'x.pow(p) gradient', inputs: [PAIRS], values: [2, 3], js: (p, x) => { x.requiresGrad_(); x.pow(p).sum().backward(); return x.grad!; }, py: (p) => `x0.requires_grad_()\nx0.pow(${p}).sum().backward()\nresult = x0.grad`, fed: true },
  { name: 'x.clone().fill_(v)', inputs: [PAIRS], values: [1.5, -2.5], js: (v, x) => x.clone().fill_(v), py: (v) => `x0.clone().fill_(${v})`, fed: true },
  { name: 'x.nanToNum({ nan })', inputs: [f32([[NaN, 1], [2, NaN]])], values: [0.5, 7.5], js: (v, x) => x.nanToNum({ nan: v }), py: (v) => `x0.nan_to_num(nan=${v})`, fed: true },
  // constants the trace is specialized on, as torch.compile specializes floats
  { name: 'x.add(x, { alpha })', inputs: [PAIRS], values: [2, -3], js: (a, x) => x.add(x, { alpha: a }), py: (a) => `x0.add(x0, alpha=${a})` },
  { name: 'x.quantile(q, 1)', inputs: [PAIRS], values: [0.5, 0.25], js: (q, x) => x.quantile(q, 1), py: (q) => `x0.quantile(${q}, 1)` },
  { name: 'x.norm(p)', inputs: [PAIRS], values: [1, 3], js: (p, x) => x.norm(p), py: (p) => `x0.norm(${p})` },
  { name: 'x.isclose(y, { atol })', inputs: [PAIRS], values: [0.2, 0.01], js: (t, x) => x.isclose(x.add(0.1), { atol: t }), py: (t) => `torch.isclose(x0, x0 + 0.1, atol=${t})` },
  { name: 'layerNorm(x, [3], { eps })', inputs: [PAIRS], values: [0.5, 0.25], js: (e, x) => tpu.nn.functional.layerNorm(x, [3], { eps: e }), py: (e) => `F.layer_norm(x0, [3], eps=${e})` },
  { name: 'softplus(x, { beta })', inputs: [PAIRS], values: [1, 2], js: (b, x) => tpu.nn.functional.softplus(x, { beta: b }), py: (b) => `F.softplus(x0, beta=${b})` },
  { name: 'tpu.full([2], v)', inputs: [PAIRS], values: [1.5, 2.5], js: (v) => tpu.full([2], v), py: (v) => `torch.full([2], ${v})` },
  // integers the trace is specialized on
  { name: 'x.narrow(0, 1, i) (length)', inputs: [M], values: [1, 2], js: (i, x) => x.narrow(0, 1, i), py: (i) => `x0.narrow(0, 1, ${i})` },
  { name: 'x.narrow(i, 0, 1) (dim)', inputs: [M], values: [0, 1], js: (i, x) => x.narrow(i, 0, 1), py: (i) => `x0.narrow(${i}, 0, 1)` },
  { name: 'x.slice(1, i) (start)', inputs: [M], values: [1, 3], js: (i, x) => x.slice(1, i), py: (i) => `x0[:, ${i}:]` },
  { name: 'x.slice(1, 0, 4, i) (step)', inputs: [M], values: [1, 2], js: (i, x) => x.slice(1, 0, 4, i), py: (i) => `x0[:, 0:4:${i}]` },
  { name: 'x.sum(i)', inputs: [C], values: [0, 2], js: (i, x) => x.sum(i), py: (i) => `x0.sum(${i})` },
  { name: 'x.sum([i, 2])', inputs: [C], values: [0, 1], js: (i, x) => x.sum([i, 2]), py: (i) => `x0.sum([${i}, 2])` },
  { name: 'x.mean({ dim: i, keepdim: true })', inputs: [C], values: [1, -1], js: (i, x) => x.mean({ dim: i, keepdim: true }), py: (i) => `x0.mean(${i}, keepdim=True)` },
  { name: 'x.max(dim)', inputs: [PAIRS], values: [0, 1], js: (i, x) => x.max(i), py: (i) => `x0.max(${i})` },
  { name: 'x.median(dim)', inputs: [PAIRS], values: [0, 1], js: (i, x) => x.median(i), py: (i) => `x0.median(${i})` },
  { name: 'x.mode(dim)', inputs: [PAIRS], values: [0, 1], js: (i, x) => x.mode(i), py: (i) => `x0.mode(${i})` },
  { name: 'x.std({ dim: 1, correction })', inputs: [PAIRS], values: [0, 1], js: (i, x) => x.std({ dim: 1, correction: i }), py: (i) => `x0.std(1, correction=${i})` },
  { name: 'x.argmax(i)', inputs: [M], values: [0, 1], js: (i, x) => x.argmax(i), py: (i) => `x0.argmax(${i})` },
  { name: 'x.softmax(i)', inputs: [C], values: [0, -1], js: (i, x) => x.softmax(i), py: (i) => `x0.softmax(${i})` },
  { name: 'x.cumsum(i)', inputs: [M], values: [0, 1], js: (i, x) => x.cumsum(i), py: (i) => `x0.cumsum(${i})` },
  { name: 'x.topk(k)', inputs: [M], values: [1, 3], js: (i, x) => x.topk(i), py: (i) => `x0.topk(${i})` },
  { name: 'x.topk(2, dim)', inputs: [M], values: [0, 1], js: (i, x) => x.topk(2, i), py: (i) => `x0.topk(2, ${i})` },
  { name: 'x.sort(dim)', inputs: [PAIRS], values: [0, 1], js: (i, x) => x.sort(i), py: (i) => `x0.sort(${i})` },
  { name: 'x.kthvalue(k)', inputs: [M], values: [1, 3], js: (i, x) => x.kthvalue(i), py: (i) => `x0.kthvalue(${i})` },
  { name: 'x.reshape(n, -1)', inputs: [M], values: [2, 6], js: (i, x) => x.reshape(i, -1), py: (i) => `x0.reshape(${i}, -1)` },
  { name: 'x.reshape([n, -1])', inputs: [M], values: [4, 3], js: (i, x) => x.reshape([i, -1]), py: (i) => `x0.reshape([${i}, -1])` },
  { name: 'x.view(n, -1)', inputs: [M], values: [3, 1], js: (i, x) => x.view(i, -1), py: (i) => `x0.view(${i}, -1)` },
  { name: 'x.unflatten(1, [n, -1])', inputs: [M], values: [2, 4], js: (i, x) => x.unflatten(1, [i, -1]), py: (i) => `x0.unflatten(1, [${i}, -1])` },
  { name: 'x.permute(i, 0, -1)', inputs: [C], values: [1, -2], js: (i, x) => x.permute(i, 0, -1), py: (i) => `x0.permute(${i}, 0, -1)` },
  { name: 'x.transpose(i, 2)', inputs: [C], values: [0, 1], js: (i, x) => x.transpose(i, 2), py: (i) => `x0.transpose(${i}, 2)` },
  { name: 'x.movedim(i, 0)', inputs: [C], values: [1, 2], js: (i, x) => x.movedim(i, 0), py: (i) => `x0.movedim(${i}, 0)` },
  { name: 'x.flatten(i)', inputs: [C], values: [0, 1], js: (i, x) => x.flatten(i), py: (i) => `x0.flatten(${i})` },
  { name: 'x.unsqueeze(i)', inputs: [M], values: [0, -1], js: (i, x) => x.unsqueeze(i), py: (i) => `x0.unsqueeze(${i})` },
  { name: 'x.squeeze(i)', inputs: [M], values: [1, 3], js: (i, x) => x.reshape([3, 1, 4, 1]).squeeze(i), py: (i) => `x0.reshape(3, 1, 4, 1).squeeze(${i})` },
  { name: 'x.flip(i)', inputs: [M], values: [0, 1], js: (i, x) => x.flip(i), py: (i) => `x0.flip(${i})` },
  { name: 'x.repeat(n, 1)', inputs: [M], values: [1, 2], js: (i, x) => x.repeat(i, 1), py: (i) => `x0.repeat(${i}, 1)` },
  { name: 'x.tile([n, 1])', inputs: [M], values: [2, 1], js: (i, x) => x.tile([i, 1]), py: (i) => `x0.tile([${i}, 1])` },
  { name: 'x.expand(n, -1, -1)', inputs: [M], values: [1, 2], js: (i, x) => x.unsqueeze(0).expand(i, -1, -1), py: (i) => `x0.unsqueeze(0).expand(${i}, -1, -1)` },
  { name: 'x.split(n, 1)', inputs: [M], values: [1, 3], js: (i, x) => x.split(i, 1), py: (i) => `x0.split(${i}, 1)` },
  { name: 'x.chunk(n, 1)', inputs: [M], values: [2, 3], js: (i, x) => x.chunk(i, 1), py: (i) => `x0.chunk(${i}, 1)` },
  { name: 'x.unbind(i)', inputs: [M], values: [0, 1], js: (i, x) => x.unbind(i), py: (i) => `x0.unbind(${i})` },
  { name: 'x.roll(shift, 1)', inputs: [M], values: [1, -2], js: (i, x) => x.roll(i, 1), py: (i) => `x0.roll(${i}, 1)` },
  { name: 'x.roll(1, dim)', inputs: [M], values: [0, 1], js: (i, x) => x.roll(1, i), py: (i) => `x0.roll(1, ${i})` },
  { name: 'tpu.cat([x, x], i)', inputs: [M], values: [0, 1], js: (i, x) => tpu.cat([x, x], i), py: (i) => `torch.cat([x0, x0], ${i})` },
  { name: 'tpu.stack([x, x], i)', inputs: [M], values: [0, 2], js: (i, x) => tpu.stack([x, x], i), py: (i) => `torch.stack([x0, x0], ${i})` },
  { name: 'x.gather(i, index)', inputs: [M, GATHER], values: [0, 1], js: (i, x, idx) => x.gather(i, idx), py: (i) => `x0.gather(${i}, x1)` },
  { name: 'x.indexSelect(i, index)', inputs: [M, ids([2, 0])], values: [0, 1], js: (i, x, idx) => x.indexSelect(i, idx), py: (i) => `x0.index_select(${i}, x1)` },
  { name: 'oneHot(index, n)', inputs: [ids([0, 2, 1])], values: [3, 5], js: (i, idx) => tpu.nn.functional.oneHot(idx, i), py: (i) => `F.one_hot(x0, ${i})` },
  { name: 'x.tril(k)', inputs: [M], values: [0, -1], js: (i, x) => x.tril(i), py: (i) => `x0.tril(${i})` },
  { name: 'x.diagonal(k)', inputs: [M], values: [0, 1], js: (i, x) => x.diagonal(i), py: (i) => `x0.diagonal(${i})` },
  { name: 'x.diff(n)', inputs: [M], values: [1, 2], js: (i, x) => x.diff(i), py: (i) => `x0.diff(${i})` },
  { name: 'pad(x, [n, n])', inputs: [M], values: [0, 1], js: (i, x) => tpu.nn.functional.pad(x, [i, i]), py: (i) => `F.pad(x0, [${i}, ${i}])` },
  { name: 'maxPool2d(x, k)', inputs: [M], values: [1, 2], js: (i, x) => tpu.nn.functional.maxPool2d(x.reshape([1, 1, 3, 4]), i), py: (i) => `F.max_pool2d(x0.reshape(1, 1, 3, 4), ${i})` },
  { name: 'x.histc(bins, 0, 12)', inputs: [M], values: [3, 4], js: (i, x) => x.histc(i, 0, 12), py: (i) => `x0.histc(${i}, 0, 12)` },
  { name: 'tpu.zeros(n, 4)', inputs: [M], values: [1, 2], js: (i, x) => tpu.zeros(i, 4).add(x.at(0)), py: (i) => `torch.zeros(${i}, 4) + x0[0]` },
  { name: 'tpu.ones([n, 4])', inputs: [M], values: [2, 1], js: (i, x) => tpu.ones([i, 4]).mul(x.at(1)), py: (i) => `torch.ones([${i}, 4]) * x0[1]` },
  { name: 'tpu.eye(2, m)', inputs: [M], values: [2, 3], js: (i) => tpu.eye(2, i), py: (i) => `torch.eye(2, ${i})` },
  { name: 'tpu.arange(n)', inputs: [M], values: [3, 5], js: (i) => tpu.arange(i), py: (i) => `torch.arange(${i})` },
  { name: 'tpu.linspace(0, 1, n)', inputs: [M], values: [3, 5], js: (i) => tpu.linspace(0, 1, i), py: (i) => `torch.linspace(0, 1, ${i})` },
];

numberArgumentTier('an op under tpu.compile reads a number argument where it expects an integer or a constant', CASES);

describe('traces of a number argument an op takes', () => {
  it('one trace per value for a dim or a size, one for every row position; a value seen before replays', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const x = made(M);
    const sum = tpu.compile((t: Tensor, d: number) => t.sum(d));
    const row = tpu.compile((t: Tensor, i: number) => t.at(i).mul(2));
    // Σ over rows: [12, 15, 18, 21]; over columns: [6, 22, 38]; row i doubled: 8i + 2j
    for (const d of [0, 1, 0, 1, -1]) expect(await sum(x, d).array()).toEqual(d === 0 ? [12, 15, 18, 21] : [6, 22, 38]);
    expect(sum.stats().traces).toBe(3); // 0, 1 and -1: each a value of its own
    expect(sum.stats().lastRetrace).toMatch(/number argument #0 \(an op argument the trace is specialized on: a dim, a size, a constant\) changed \(1 -> -1\)/);
    for (const i of [0, 2, 1, -1, -3]) {
      const r = i < 0 ? i + 3 : i;
      expect(await row(x, i).array()).toEqual([0, 1, 2, 3].map((j) => 8 * r + 2 * j));
    }
    expect(row.stats().traces).toBe(1);
    expect(warn).not.toHaveBeenCalled(); // specializing is not a JS value frozen by surprise
    warn.mockRestore();
  });

  it('a row position out of range or not an integer traces again and fails as eagerly', () => {
    const x = made(M);
    const row = tpu.compile((t: Tensor, i: number) => t.at(i));
    const column = tpu.compile((t: Tensor, i: number) => t.select(1, i));
    const window = tpu.compile((t: Tensor, i: number) => t.narrow(0, i, 2));
    row(x, 1);
    column(x, 1);
    window(x, 1);
    expect(() => row(x, 3)).toThrow('at: index 3 is out of range for dim 0 of size 3 (input [3, 4])');
    expect(() => row(x, -4)).toThrow('at: index -4 is out of range for dim 0 of size 3 (input [3, 4])');
    expect(() => row(x, 1.5)).toThrow('at: an index must be an integer; got 1.5 for dim 0');
    expect(() => column(x, 4)).toThrow('select: index 4 out of range for tensor of size [3, 4] at dimension 1 (valid: -4 to 3)');
    expect(() => column(x, 0.5)).toThrow('select: index must be an integer; got 0.5');
    expect(() => window(x, 2)).toThrow('narrow: start 2 and length 2 do not fit dim 0 of size 3 (input [3, 4])');
    expect(() => window(x, 1.5)).toThrow('narrow: start and length must be integers; got start 1.5 and length 2');
    // the same errors eagerly
    expect(() => x.at(3)).toThrow('at: index 3 is out of range for dim 0 of size 3 (input [3, 4])');
    expect(() => x.at(1.5)).toThrow('at: an index must be an integer; got 1.5 for dim 0');
    expect(() => x.narrow(0, 1.5, 2)).toThrow('narrow: start and length must be integers; got start 1.5 and length 2');
  });

  it('a number that is not an integer where one is expected is an error naming the argument', () => {
    const x = made(M);
    const cases: [(t: Tensor, v: number) => unknown, RegExp][] = [
      [(t, v) => t.sum(v), /^sum: dim must be an integer in \[-2, 1\] for a tensor of rank 2; got 1\.5$/],
      [(t, v) => t.softmax(v), /^softmax: dim must be an integer in \[-2, 1\] for a tensor of rank 2; got 1\.5$/],
      [(t, v) => t.reshape(v, -1), /^reshape: shape\[0\] must be an integer ≥ -1 \(one -1 is inferred from the others\); got 1\.5 in reshape\(1\.5, -1\)$/],
      [(t, v) => t.topk(v), /^topk: k must be a non-negative integer; got 1\.5$/],
      [(t, v) => t.chunk(v), /^chunk: chunks must be a positive integer; got 1\.5$/],
      [(t, v) => t.roll(v, 1), /^roll: shifts must be integers; got 1\.5$/],
      [(t, v) => t.narrow(0, 0, v), /^narrow: start and length must be integers; got start 0 and length 1\.5$/],
      [(t, v) => tpu.zeros(v, 2), /^tpu\.zeros: shape\[0\] must be a non-negative integer; got 1\.5 in tpu\.zeros\(1\.5, 2\)$/],
    ];
    for (const [body, message] of cases) {
      expect(() => tpu.compile(body)(x, 1.5)).toThrow(message);
      expect(() => body(x, 1.5)).toThrow(message); // as eagerly
    }
  });
});

afterEach(() => vi.restoreAllMocks());
