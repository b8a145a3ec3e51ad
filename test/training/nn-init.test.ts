// tpu.nn.init and the in-place random fills x.uniform_/x.normal_, as PyTorch's weight init
// code uses them. Bounds and standard deviations are torch/nn/init.py's documented formulas,
// computed here; samples are checked against them with statistical margins (20,000+ draws).
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { nn } = tpu;
afterEach(() => tpu.mode('strict'));

function stats(t: Tensor): { mean: number; std: number; min: number; max: number } {
  const v = Array.from(t.dataSync() as Float32Array);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const std = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
  return { mean, std, min: Math.min(...v), max: Math.max(...v) };
}

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('uniform_ and normal_ fill in place with the asked range and moments, the same for the same seed', () => {
    tpu.mode(mode);
    tpu.manualSeed(3);
    const u = tpu.zeros([200, 100]);
    expect(u.uniform_(-0.5, 1.5)).toBe(u);
    const su = stats(u);
    expect(su.min).toBeGreaterThanOrEqual(-0.5);
    expect(su.max).toBeLessThan(1.5);
    expect(su.mean).toBeCloseTo(0.5, 1); // uniform mean (a + b) / 2, σ/√n ≈ 0.004
    expect(su.std).toBeCloseTo(2 / Math.sqrt(12), 2);
    const n = tpu.zeros([200, 100]).normal_({ mean: 1, std: 0.02 });
    const sn = stats(n);
    expect(Math.abs(sn.mean - 1)).toBeLessThan(5 * 0.02 / Math.sqrt(20000));
    expect(Math.abs(sn.std / 0.02 - 1)).toBeLessThan(0.03);
    tpu.manualSeed(3);
    expect(Array.from(tpu.zeros([200, 100]).uniform_(-0.5, 1.5).dataSync())).toEqual(Array.from(u.dataSync()));
  });

  it('nn.init fills a parameter in place, outside autograd: it stays a leaf that requires grad', () => {
    tpu.mode(mode);
    const layer = new nn.Linear(3, 2);
    nn.init.constant_(layer.weight, 0.25);
    nn.init.zeros_(layer.bias!);
    expect(layer.weight.tolist()).toEqual([[0.25, 0.25, 0.25], [0.25, 0.25, 0.25]]);
    expect(layer.bias!.tolist()).toEqual([0, 0]);
    expect(layer.weight.requiresGrad && layer.weight.isLeaf).toBe(true);
    expect(nn.init.ones_(tpu.zeros([2])).tolist()).toEqual([1, 1]);
    expect(nn.init.eye_(tpu.zeros([2, 3])).tolist()).toEqual([[1, 0, 0], [0, 1, 0]]);
    layer.forward(tpu.ones([1, 3])).sum().backward();
    expect(layer.weight.grad!.tolist()).toEqual([[1, 1, 1], [1, 1, 1]]);
  });
});

describe('tpu.nn.init', () => {
  it("calculateGain gives torch.nn.init.calculate_gain's values", () => {
    expect(nn.init.calculateGain('linear')).toBe(1);
    expect(nn.init.calculateGain('conv2d')).toBe(1);
    expect(nn.init.calculateGain('sigmoid')).toBe(1);
    expect(nn.init.calculateGain('tanh')).toBe(5 / 3);
    expect(nn.init.calculateGain('relu')).toBe(Math.sqrt(2));
    expect(nn.init.calculateGain('selu')).toBe(0.75);
    expect(nn.init.calculateGain('leaky_relu')).toBe(Math.sqrt(2 / (1 + 0.01 ** 2)));
    expect(nn.init.calculateGain('leaky_relu', 0.2)).toBe(Math.sqrt(2 / 1.04));
    expect(() => nn.init.calculateGain('gelu' as never)).toThrow(/calculateGain: unsupported nonlinearity "gelu"/);
  });

  it('xavier and kaiming draw within the bounds and at the std of their fans', () => {
    tpu.manualSeed(11);
    // [out 300, in 200]: fan_in 200, fan_out 300
    const xu = stats(nn.init.xavierUniform_(tpu.zeros([300, 200]), 2));
    const bound = 2 * Math.sqrt(6 / 500);
    expect(xu.max).toBeLessThanOrEqual(bound);
    expect(xu.min).toBeGreaterThanOrEqual(-bound);
    expect(xu.max).toBeGreaterThan(0.99 * bound);
    expect(stats(nn.init.xavierNormal_(tpu.zeros([300, 200]))).std / Math.sqrt(2 / 500)).toBeCloseTo(1, 1);
    // conv weight [64, 32, 3, 3]: receptive field 9, fan_in 288, fan_out 576
    const kn = stats(nn.init.kaimingNormal_(tpu.zeros([64, 32, 3, 3]), { mode: 'fan_out', nonlinearity: 'relu' }));
    expect(Math.abs(kn.std / (Math.SQRT2 / Math.sqrt(576)) - 1)).toBeLessThan(0.03);
    // PyTorch's default: leaky_relu with a = √5 gives the Linear layer's bound 1/√fan_in
    const ku = stats(nn.init.kaimingUniform_(tpu.zeros([300, 200]), { a: Math.sqrt(5) }));
    expect(ku.max).toBeLessThanOrEqual(1 / Math.sqrt(200) + 1e-7);
    expect(ku.max).toBeGreaterThan(0.99 / Math.sqrt(200));
    const tn = stats(nn.init.truncNormal_(tpu.zeros([100, 100]), { std: 0.5, a: -0.25, b: 0.5 }));
    expect(tn.min).toBeGreaterThanOrEqual(-0.25);
    expect(tn.max).toBeLessThanOrEqual(0.5);
  });

  it('errors name the function, the argument and what came; the tensor keeps its values', () => {
    const w = tpu.tensor([[1, 2]], { requiresGrad: true });
    expect(() => w.normal_()).toThrow(/normal_: a leaf Variable that requires grad is being used in an in-place operation/);
    expect(() => nn.init.xavierUniform_(tpu.zeros([3]))).toThrow('tpu.nn.init.xavierUniform_: fan in and fan out cannot be computed for a tensor of fewer than 2 dims; got [3]');
    expect(() => nn.init.kaimingNormal_(tpu.zeros([2, 2]), { mode: 'fanout' as never })).toThrow(`tpu.nn.init.kaimingNormal_: options.mode must be 'fan_in' or 'fan_out'; got "fanout"`);
    expect(() => nn.init.kaimingNormal_(tpu.zeros([2, 2]), { nonlinearty: 'relu' } as never)).toThrow(/unknown option 'nonlinearty'/);
    expect(() => nn.init.normal_(tpu.zeros([2]), 0, -1)).toThrow('tpu.nn.init.normal_: std must be at least 0; got -1');
    expect(() => tpu.zeros([2], { dtype: 'int32' }).uniform_()).toThrow('uniform_: x must be a floating-point tensor (as PyTorch\'s); got int32');
    expect(() => nn.init.uniform_(tpu.zeros([2]), 'a' as never)).toThrow('tpu.nn.init.uniform_: a must be a finite number; got string "a"');
    expect(() => nn.init.truncNormal_(tpu.zeros([2]), { a: 50, b: 51 })).toThrow(/holds too little of N\(0, 1²\)/);
    expect(w.tolist()).toEqual([[1, 2]]);
  });
});
