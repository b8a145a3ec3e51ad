// tpu.logspace randperm normal hstack vstack meshgrid against PyTorch 2.13 (values where they
// are deterministic: logspace, a sorted permutation, a normal of std 0; dtypes, shapes, errors,
// gradients), and the random ones' own properties: seeded by tpu.manualSeed, each permutation
// a permutation, samples of the asked mean and spread.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, seq, torchTier, type TorchCase } from './torch-tier.js';

const none: TorchCase['inputs'] = [];

const cases: TorchCase[] = [
  // logspace
  { name: 'logspace of base 10, positional base and base in the options', inputs: none, js: () => [tpu.logspace(-2, 3, 7), tpu.logspace(0, 10, 11, 2), tpu.logspace(0.1, 2.7, 9, { base: 2 }), tpu.logspace(-5, 5, 11, 3), tpu.logspace(3, 1, 4)], py: '(torch.logspace(-2, 3, 7), torch.logspace(0, 10, 11, 2), torch.logspace(0.1, 2.7, 9, base=2), torch.logspace(-5, 5, 11, 3), torch.logspace(3, 1, 4))' },
  { name: 'logspace of 0 and 1 steps, base 0.5', inputs: none, js: () => [tpu.logspace(2, 5, 1), tpu.logspace(2, 5, 0), tpu.logspace(-3, 3, 5, 0.5)], py: '(torch.logspace(2, 5, 1), torch.logspace(2, 5, 0), torch.logspace(-3, 3, 5, 0.5))' },
  { name: 'logspace of integer and bf16 dtypes', inputs: none, js: () => [tpu.logspace(0, 3, 4, { dtype: 'int64' }), tpu.logspace(0.5, 2.5, 3, 10, { dtype: 'int32' }), tpu.logspace(0, 3, 4, { dtype: 'bfloat16' }), tpu.logspace(0, 1, 3, 10, { dtype: 'int64' })], py: '(torch.logspace(0, 3, 4, dtype=torch.int64), torch.logspace(0.5, 2.5, 3, 10, dtype=torch.int32), torch.logspace(0, 3, 4, dtype=torch.bfloat16), torch.logspace(0, 1, 3, 10, dtype=torch.int64))' },
  { name: 'logspace with negative steps is an error', inputs: none, js: () => tpu.logspace(0, 1, -1), py: 'torch.logspace(0, 1, -1)' },
  // randperm
  { name: 'randperm sorted is arange, int64', inputs: none, js: () => [tpu.randperm(10).sort().values, tpu.randperm(0), tpu.randperm(1)], py: '(torch.randperm(10).sort().values, torch.randperm(0), torch.randperm(1))' },
  { name: 'randperm of other dtypes', inputs: none, js: () => [tpu.randperm(5, { dtype: 'int32' }).sort().values, tpu.randperm(6, { dtype: 'float32' }).sort().values], py: '(torch.randperm(5, dtype=torch.int32).sort().values, torch.randperm(6, dtype=torch.float32).sort().values)' },
  { name: 'randperm of a negative n is an error', inputs: none, js: () => tpu.randperm(-1), py: 'torch.randperm(-1)' },
  // normal
  { name: 'normal of std 0 is the mean', inputs: [f32([1, -2, 3]), bf16([[0.5], [1.5]])], js: (m, h) => [tpu.normal(2, 0, [2, 3]), tpu.normal(m, 0), tpu.normal(m, tpu.zerosLike(m)), tpu.normal(h, 0), tpu.normal(-1, tpu.zeros([2])), tpu.normal(m, tpu.zeros([2, 1]))], py: '(torch.normal(2., 0., (2, 3)), torch.normal(x0, 0.), torch.normal(x0, torch.zeros_like(x0)), torch.normal(x1, 0.), torch.normal(-1., torch.zeros(2)), torch.normal(x0, torch.zeros(2, 1)))' },
  { name: 'normal with a negative std is an error', inputs: none, js: () => tpu.normal(0, -1, [2]), py: 'torch.normal(0., -1., (2,))' },
  { name: 'normal of an integer mean is an error', inputs: [i64([1, 2])], js: (m) => tpu.normal(m, 1), py: 'torch.normal(x0, 1.)' },
  // hstack vstack
  { name: 'hstack of vectors, 0-d tensors and matrices', inputs: [f32([1, 2]), f32([3]), f32(4), seq('float32', [2, 2]), seq('float32', [2, 1], 10)], js: (a, b, c, m, n) => [tpu.hstack([a, b]), tpu.hstack([c, a, c]), tpu.hstack([m, n, m])], py: '(torch.hstack([x0, x1]), torch.hstack([x2, x0, x2]), torch.hstack([x3, x4, x3]))' },
  { name: 'vstack of vectors, 0-d tensors, matrices and 3-D tensors', inputs: [f32([1, 2]), f32([3, 4]), f32(5), seq('float32', [2, 2]), seq('float32', [1, 2, 2])], js: (a, b, c, m, t) => [tpu.vstack([a, b]), tpu.vstack([c, c]), tpu.vstack([m, a]), tpu.vstack([t, t])], py: '(torch.vstack([x0, x1]), torch.vstack([x2, x2]), torch.vstack([x3, x0]), torch.vstack([x4, x4]))' },
  { name: 'hstack and vstack promote dtypes', inputs: [i32([1, 2]), f32([0.5, 1.5]), bool([true, false]), bf16([2.5, 3])], js: (i, f, b, h) => [tpu.hstack([i, f]), tpu.vstack([b, i]), tpu.hstack([h, b])], py: '(torch.hstack([x0, x1]), torch.vstack([x2, x0]), torch.hstack([x3, x2]))' },
  { name: 'hstack of mismatched matrices is an error', inputs: [seq('float32', [2, 2]), seq('float32', [3, 1])], js: (a, b) => tpu.hstack([a, b]), py: 'torch.hstack([x0, x1])' },
  { name: 'vstack of mismatched rows is an error', inputs: [f32([1, 2]), f32([1, 2, 3])], js: (a, b) => tpu.vstack([a, b]), py: 'torch.vstack([x0, x1])' },
  // meshgrid
  { name: 'meshgrid ij and xy of two and three tensors', inputs: [f32([1, 2]), f32([3, 4, 5]), i32([7, 8, 9, 10])], js: (a, b, c) => [...tpu.meshgrid([a, b]), ...tpu.meshgrid([a, b], { indexing: 'xy' }), ...tpu.meshgrid(a, b, a, { indexing: 'xy' }), ...tpu.meshgrid(c, c.flip(0))], py: '(*torch.meshgrid([x0, x1], indexing="ij"), *torch.meshgrid([x0, x1], indexing="xy"), *torch.meshgrid(x0, x1, x0, indexing="xy"), *torch.meshgrid(x2, x2.flip(0), indexing="ij"))' },
  { name: 'meshgrid of one tensor, 0-d tensors and an empty one', inputs: [f32([1, 2]), f32(3), f32([])], js: (a, s, e) => [...tpu.meshgrid([a], { indexing: 'xy' }), ...tpu.meshgrid(s, a), ...tpu.meshgrid([a, e], { indexing: 'xy' })], py: '(*torch.meshgrid([x0], indexing="xy"), *torch.meshgrid(x1, x0, indexing="ij"), *torch.meshgrid([x0, x2], indexing="xy"))' },
  { name: 'meshgrid results are expanded views: writes to them are errors', inputs: [f32([1, 2]), f32([3, 4, 5])], js: (a, b) => tpu.meshgrid([a, b])[0]!.add_(1), py: 'torch.meshgrid([x0, x1], indexing="ij")[0].add_(1)' },
  { name: 'meshgrid of two dtypes is an error', inputs: [f32([1]), i32([1])], js: (a, b) => tpu.meshgrid([a, b])[0]!, py: 'torch.meshgrid([x0, x1], indexing="ij")[0]' },
  { name: 'meshgrid of a matrix is an error', inputs: [seq('float32', [2, 2])], js: (a) => tpu.meshgrid([a])[0]!, py: 'torch.meshgrid([x0], indexing="ij")[0]' },
  // gradients
  {
    name: 'hstack, vstack and meshgrid gradients',
    inputs: [f32([1, 2]), f32([3, 4, 5])],
    js: (a, b) => {
      a.requiresGrad_(); b.requiresGrad_();
      const [g0, g1] = tpu.meshgrid([a, b], { indexing: 'xy' });
      g0!.mul(g1!).sum().add(tpu.hstack([a, b]).mul(tpu.arange(5).to('float32')).sum()).add(tpu.vstack([a, a]).pow(2).sum()).backward();
      return [a.grad!, b.grad!];
    },
    py: 'a = x0.requires_grad_()\nb = x1.requires_grad_()\ng0, g1 = torch.meshgrid([a, b], indexing="xy")\n((g0 * g1).sum() + (torch.hstack([a, b]) * torch.arange(5).float()).sum() + (torch.vstack([a, a]) ** 2).sum()).backward()\nresult = (a.grad, b.grad)',
  },
];

torchTier('logspace, randperm, normal and the stacking functions follow PyTorch', cases, { compile: true });

describe('random creation is seeded and has the asked distribution', () => {
  const values = (t: Tensor) => Array.from(t.dataSync() as ArrayLike<number | bigint>, Number);

  it('randperm: every draw is a permutation, tpu.manualSeed repeats it, and all orders of 3 come up about equally', () => {
    tpu.manualSeed(7);
    const a = values(tpu.randperm(50));
    tpu.manualSeed(7);
    expect(values(tpu.randperm(50))).toEqual(a);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(values(tpu.randperm(50))).not.toEqual(a);
    const counts = new Map<string, number>();
    for (let k = 0; k < 3000; k++) {
      const key = values(tpu.randperm(3)).join(',');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    // 500 expected each; 4.5 standard deviations is ±92
    for (const n of counts.values()) expect(Math.abs(n - 500)).toBeLessThan(92);
  });

  it('normal: numbers and tensors give the asked mean and std; tpu.manualSeed repeats them', () => {
    tpu.manualSeed(3);
    const x = values(tpu.normal(5, 2, [40000]));
    tpu.manualSeed(3);
    expect(values(tpu.normal(5, 2, [40000]))).toEqual(x);
    const mean = x.reduce((s, v) => s + v, 0) / x.length;
    const sd = Math.sqrt(x.reduce((s, v) => s + (v - mean) ** 2, 0) / (x.length - 1));
    // standard errors: 0.01 for the mean, 0.007 for the std
    expect(Math.abs(mean - 5)).toBeLessThan(0.05);
    expect(Math.abs(sd - 2)).toBeLessThan(0.035);
    const m = tpu.tensor([-10, 10]).reshape([2, 1]).expand([2, 20000]);
    const y = values(tpu.normal(m, tpu.tensor([[1], [3]])));
    const stats = (v: number[]) => {
      const mu = v.reduce((s, e) => s + e, 0) / v.length;
      return [mu, Math.sqrt(v.reduce((s, e) => s + (e - mu) ** 2, 0) / (v.length - 1))];
    };
    const [m0, s0] = stats(y.slice(0, 20000));
    const [m1, s1] = stats(y.slice(20000));
    expect(Math.abs(m0! + 10)).toBeLessThan(0.04);
    expect(Math.abs(s0! - 1)).toBeLessThan(0.04);
    expect(Math.abs(m1! - 10)).toBeLessThan(0.1);
    expect(Math.abs(s1! - 3)).toBeLessThan(0.1);
  });

  it('normal: the gradient is 1 for the mean and (sample - mean) / std for the std, as PyTorch\'s', () => {
    const mean = tpu.tensor([1, -2, 0.5], { requiresGrad: true });
    const std = tpu.tensor([0.5, 2, 1], { requiresGrad: true });
    const y = tpu.normal(mean, std);
    y.sum().backward();
    expect(values(mean.grad!)).toEqual([1, 1, 1]);
    const sample = values(y);
    values(std.grad!).forEach((g, i) => expect(g).toBeCloseTo((sample[i]! - [1, -2, 0.5][i]!) / [0.5, 2, 1][i]!, 5));
  });

  it('normal of a negative std element is NaN there', () => {
    expect(values(tpu.normal(tpu.zeros([3]), tpu.tensor([1, -1, 0])).isnan())).toEqual([0, 1, 0]);
  });

  it('the computed creation functions take requiresGrad, and refuse it for integers', () => {
    expect(tpu.logspace(0, 1, 3, { requiresGrad: true }).requiresGrad).toBe(true);
    expect(tpu.linspace(0, 1, 3, { requiresGrad: true }).requiresGrad).toBe(true);
    expect(tpu.eye(2, { requiresGrad: true }).requiresGrad).toBe(true);
    expect(() => tpu.randint(0, 5, [2], { requiresGrad: true })).toThrow(/only floating point tensors/);
    expect(tpu.randperm(3, { dtype: 'float32', requiresGrad: true }).requiresGrad).toBe(true);
    expect(() => tpu.randperm(3, { requiresGrad: true })).toThrow(/only floating point tensors/);
  });
});
