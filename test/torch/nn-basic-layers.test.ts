// Layers and functions natural notebook code reaches for (nn.Conv1d, RMSNorm, PReLU, GLU,
// Upsample, Hardshrink, Softshrink, Threshold; F.prelu, glu, hardshrink, softshrink, threshold)
// against PyTorch 2.13: values and gradients at the kinks in every mode and under tpu.compile,
// layers given PyTorch's weights, bad arguments named, reprs as PyTorch's in camelCase.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, grads, torchTier, uniform, weightedGrad, type TorchCase } from './torch-tier.js';
import { loaded, pyLoad, pyTrained, trained } from './module-weights.js';

const { nn } = tpu;
const F = nn.functional;

// the kinks of every function here: ±0.5 (default lambd), ±1, the thresholds 0.5 and -1, ±0
const KINKS = [-3, -1.5, -1, -0.75, -0.5, -0.25, -0, 0, 0.25, 0.5, 0.75, 1, 1.5, 3];
const X = f32(KINKS);
const W = KINKS.map((_, i) => i + 1);

const functionCases: TorchCase[] = [
  {
    name: 'hardshrink, softshrink and threshold: defaults, lambd by position and by name',
    inputs: [X],
    js: (x) => [F.hardshrink(x), F.hardshrink(x, 1), F.hardshrink(x, { lambd: 0 }), F.softshrink(x), F.softshrink(x, 1), F.softshrink(x, { lambd: 0 }),
      F.threshold(x, 0.5, -9), F.threshold(x, { threshold: -1, value: 2 })],
    py: '[F.hardshrink(x0), F.hardshrink(x0, 1.), F.hardshrink(x0, lambd=0.), F.softshrink(x0), F.softshrink(x0, 1.), F.softshrink(x0, lambd=0.), F.threshold(x0, 0.5, -9.), F.threshold(x0, threshold=-1., value=2.)]',
    // PyTorch's softshrink gives -0 or +0 inside the band by the tensor's length (scalar or vector loop)
    signedZeros: false,
  },
  {
    name: 'hardshrink, softshrink and threshold in bfloat16',
    inputs: [bf16([-1.3, -0.5, -0.3, 0.3, 0.5, 0.7, 2.1])],
    js: (x) => [F.hardshrink(x), F.softshrink(x, 0.3), F.threshold(x, 0.3, 7)],
    py: '[F.hardshrink(x0), F.softshrink(x0, 0.3), F.threshold(x0, 0.3, 7.)]',
    signedZeros: false,
  },
  weightedGrad('hardshrink gradient: 0 at ±lambd', X, (x) => F.hardshrink(x), 'F.hardshrink(x)', W),
  weightedGrad('hardshrink(1) gradient', X, (x) => F.hardshrink(x, 1), 'F.hardshrink(x, 1.)', W),
  weightedGrad('softshrink gradient: 0 at ±lambd', X, (x) => F.softshrink(x), 'F.softshrink(x)', W),
  weightedGrad('threshold gradient: 0 at the threshold', X, (x) => F.threshold(x, -1, 4), 'F.threshold(x, -1., 4.)', W),
  {
    name: 'prelu: one slope, one per channel, a 1-D input',
    inputs: [uniform([2, 3, 2, 2], 1, -2, 2), f32([0.1, -0.5, 2]), f32([0.25]), X],
    js: (x, w3, w1, v) => [F.prelu(x, w3), F.prelu(x, w1), F.prelu(v, w1), F.prelu(x.flatten(2), w3)],
    py: '[F.prelu(x0, x1), F.prelu(x0, x2), F.prelu(x3, x2), F.prelu(x0.flatten(2), x1)]',
  },
  grads('prelu gradients of input and slopes (at 0: the slope side)', [f32([[[-1, 0, 2], [0.5, -0, -3]], [[1, -2, 0], [4, -0.5, 0]]]), f32([0.2, -0.7])], (x, w) => F.prelu(x, w), 'F.prelu(x0, x1)'),
  { name: 'prelu: slopes not matching the channels is an error', inputs: [uniform([2, 3, 2], 2), f32([1, 2])], js: (x, w) => F.prelu(x, w), py: 'F.prelu(x0, x1)' },
  {
    name: 'glu over the last dim and over dim 0',
    inputs: [uniform([4, 6], 3, -3, 3)],
    js: (x) => [F.glu(x), F.glu(x, 0), F.glu(x, { dim: -2 }), F.glu(x.to('bfloat16'))],
    py: '[F.glu(x0), F.glu(x0, 0), F.glu(x0, dim=-2), F.glu(x0.bfloat16())]',
  },
  grads('glu gradient', [uniform([3, 4], 4, -3, 3)], (x) => F.glu(x, 1), 'F.glu(x0, 1)'),
  { name: 'glu over an odd dim is an error', inputs: [uniform([2, 3], 5)], js: (x) => F.glu(x), py: 'F.glu(x0)' },
];

torchTier('shrink, threshold, prelu and glu follow torch.nn.functional', functionCases, { compile: true });

const layerCases: TorchCase[] = [
  {
    name: 'Conv1d: padding, stride, dilation; forward and gradients',
    inputs: [uniform([4, 2, 3], 10), uniform([4], 11), uniform([2, 2, 9], 12, -2, 2)],
    js: (w, b, x) => trained(loaded(new nn.Conv1d(2, 4, 3, { padding: 2, stride: 2, dilation: 2 }), [w!, b!]), x!),
    py: pyTrained('torch.nn.Conv1d(2, 4, 3, padding=2, stride=2, dilation=2)', 'x0, x1', 'x2'),
  },
  {
    name: "Conv1d: groups, no bias, padding 'same', an unbatched input",
    inputs: [uniform([4, 1, 3], 13), uniform([2, 7], 14, -2, 2)],
    js: (w, x) => trained(loaded(new nn.Conv1d(2, 4, [3], { groups: 2, bias: false, padding: 'same' }), [w!]), x!),
    py: pyTrained("torch.nn.Conv1d(2, 4, (3,), groups=2, bias=False, padding='same')", 'x0', 'x1'),
  },
  {
    name: 'RMSNorm: default eps, one over two dims, eps by position, without affine',
    inputs: [uniform([3, 2, 4], 15, -3, 3), uniform([4], 16, 0.5, 2), uniform([2, 4], 17, 0.5, 2)],
    js: (x, w1, w2) => [...trained(loaded(new nn.RMSNorm(4), [w1!]), x!).slice(0, 1), loaded(new nn.RMSNorm([2, 4], 1e-2), [w2!]).forward(x!),
      new nn.RMSNorm(4, { eps: 0.5, elementwiseAffine: false }).forward(x!), new nn.RMSNorm(4, null, false).forward(x!.to('bfloat16'))],
    py: [`m = torch.nn.RMSNorm(4)`, pyLoad('x1'), 'm2 = torch.nn.RMSNorm((2, 4), 1e-2)', 'with torch.no_grad(): m2.weight.copy_(x2)',
      'result = [m(x0), m2(x0), torch.nn.RMSNorm(4, eps=0.5, elementwise_affine=False)(x0), torch.nn.RMSNorm(4, None, False)(x0.bfloat16())]'].join('\n'),
  },
  {
    name: 'RMSNorm gradients of input and weight',
    inputs: [uniform([4], 18, 0.5, 2), uniform([3, 4], 19, -3, 3)],
    js: (w, x) => { x!.requiresGrad_(); return [...trained(loaded(new nn.RMSNorm(4), [w!]), x!), x!.grad!]; },
    py: `x1.requires_grad_()\n${pyTrained('torch.nn.RMSNorm(4)', 'x0', 'x1')}\nresult.append(x1.grad)`,
  },
  {
    name: 'PReLU: default init, per channel with init by position and by name; gradients',
    inputs: [uniform([2, 3, 4], 20, -2, 2)],
    js: (x) => [new nn.PReLU().forward(x), new nn.PReLU(3, 0.1).forward(x), ...trained(new nn.PReLU({ numParameters: 3, init: -0.3 }), x)],
    py: `result = [torch.nn.PReLU()(x0), torch.nn.PReLU(3, 0.1)(x0)]\n${pyTrained('torch.nn.PReLU(num_parameters=3, init=-0.3)', '', 'x0').replace('result = [y]', 'result += [y]')}`,
  },
  {
    name: 'GLU, Hardshrink, Softshrink, Threshold layers: defaults, by position, by name',
    inputs: [f32([KINKS.slice(0, 12), KINKS.slice(2)])],
    js: (x) => [new nn.GLU(), new nn.GLU(0), new nn.GLU({ dim: 1 }), new nn.Hardshrink(), new nn.Hardshrink(1), new nn.Softshrink({ lambd: 0.25 }),
      new nn.Threshold(0.5, -1), new nn.Threshold({ threshold: -1, value: 0 })].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.GLU(), torch.nn.GLU(0), torch.nn.GLU(dim=1), torch.nn.Hardshrink(), torch.nn.Hardshrink(1.), torch.nn.Softshrink(lambd=0.25), torch.nn.Threshold(0.5, -1.), torch.nn.Threshold(threshold=-1., value=0.)]]',
    // PyTorch's softshrink: +0 inside the band from its vector loop, -0 for a negative x from its scalar tail
    signedZeros: false,
  },
  {
    name: 'Threshold(inplace) writes into its input and returns it',
    inputs: [X],
    js: (x) => { const y = x.clone(); const out = new nn.Threshold(0, 5, true).forward(y); return [out, y]; },
    py: 'y = x0.clone()\nout = torch.nn.Threshold(0., 5., True)(y)\nresult = [out, y]',
  },
  {
    name: 'Upsample: scale factor, size, linear and bilinear with alignCorners',
    inputs: [uniform([1, 2, 3, 4], 21, -2, 2), uniform([2, 2, 5], 22, -2, 2)],
    js: (img, seq) => [new nn.Upsample({ scaleFactor: 2 }).forward(img), new nn.Upsample([5, 6]).forward(img), new nn.Upsample(null, 1.5, 'bilinear').forward(img),
      new nn.Upsample({ size: [4, 7], mode: 'bilinear', alignCorners: true }).forward(img), new nn.Upsample({ scaleFactor: 3, mode: 'linear' }).forward(seq),
      new nn.Upsample(8, { mode: 'linear', alignCorners: true }).forward(seq)],
    py: "[torch.nn.Upsample(scale_factor=2)(x0), torch.nn.Upsample((5, 6))(x0), torch.nn.Upsample(None, 1.5, 'bilinear')(x0), torch.nn.Upsample(size=(4, 7), mode='bilinear', align_corners=True)(x0), torch.nn.Upsample(scale_factor=3, mode='linear')(x1), torch.nn.Upsample(8, mode='linear', align_corners=True)(x1)]",
  },
  grads('Upsample gradient (bilinear)', [uniform([1, 1, 3, 3], 23)], (x) => new nn.Upsample({ scaleFactor: 2, mode: 'bilinear' }).forward(x), "torch.nn.Upsample(scale_factor=2, mode='bilinear')(x0)"),
];

torchTier('Conv1d, RMSNorm, PReLU, GLU, Upsample and the shrink layers follow torch.nn', layerCases, { compile: true });

describe('the new layers and functions name bad arguments', () => {
  it('rejects bad values, naming the argument', () => {
    expect(() => F.hardshrink(tpu.ones([2]), '1' as never)).toThrow(/hardshrink: lambd must be a number; got string "1"/);
    expect(() => F.softshrink(tpu.ones([2]), -1)).toThrow(/softshrink: lambd must be ≥ 0, as in PyTorch; got -1/);
    expect(() => (F.threshold as (x: Tensor, t: number) => Tensor)(tpu.ones([2]), 1)).toThrow(/threshold: value is required/);
    expect(() => F.threshold(tpu.ones([2]), { threshhold: 1, value: 0 } as never)).toThrow(/threshold: unknown option 'threshhold'; threshold accepts 'threshold', 'value'/);
    expect(() => F.prelu(tpu.ones([2, 3]), tpu.ones([2]))).toThrow(/prelu: weight must have 1 element or one per channel \(dim 1 of input \[2, 3\]: 3\); got 2/);
    expect(() => F.prelu(tpu.ones([2, 3]), tpu.ones([3], { dtype: 'bfloat16' }))).toThrow(/prelu: weight must have the input's dtype float32; got bfloat16/);
    expect(() => F.prelu(tpu.ones([2, 3]), 0.25 as never)).toThrow(/prelu: weight must be a tensor/);
    expect(() => F.glu(tpu.ones([2, 3]))).toThrow(/glu: the halved dim 1 must have an even size; got 3/);
    expect(() => F.glu(tpu.ones([2, 4]), 2)).toThrow(/glu: dim must be an integer in \[-2, 1\]/);
    expect(() => new nn.Conv1d(2, 3, 0)).toThrow(/Conv1d: kernelSize\[0\] must be a positive integer; got 0/);
    expect(() => new nn.Conv1d(3, 4, 3, { groups: 2 })).toThrow(/Conv1d: inChannels 3 and outChannels 4 must both be divisible by groups 2/);
    expect(() => new nn.Conv1d(2, 3, [3, 3] as never)).toThrow(/Conv1d: kernelSize must be one integer or 1 of them; got \[3,3\]/);
    expect(() => new nn.Conv1d(2, 3, 3, { padding_mode: 'zeros' } as never)).toThrow(/nn\.Conv1d: unknown option 'padding_mode'/);
    // PyTorch refuses these too; the second value was silently dropped
    expect(() => F.conv1d(tpu.ones([1, 2, 5]), tpu.ones([3, 2, 3]), { padding: [1, 2] })).toThrow(/conv1d: padding must be an integer or a list of 1; got \[1,2\]/);
    expect(() => F.conv1d(tpu.ones([1, 2, 5]), tpu.ones([3, 2, 3]), { stride: [1, 2], dilation: [1] })).toThrow(/conv1d: stride must be an integer or a list of 1; got \[1,2\]/);
    expect(() => new nn.Conv1d(2, 3, 3, { dilation: [2, 2] }).forward(tpu.ones([1, 2, 9]))).toThrow(/conv1d: dilation must be an integer or a list of 1; got \[2,2\]/);
    expect(() => new nn.RMSNorm(4, { elementwise_affine: false } as never)).toThrow(/nn\.RMSNorm: unknown option 'elementwise_affine' \(did you mean 'elementwiseAffine'\?\)/);
    expect(() => new nn.RMSNorm(0)).toThrow(/nn\.RMSNorm: normalizedShape\[0\] must be a positive integer; got 0/);
    expect(() => new nn.RMSNorm(4, 'small' as never)).toThrow(/nn\.RMSNorm: eps must be a number; got string "small"/);
    expect(() => new nn.PReLU(0)).toThrow(/PReLU: numParameters must be a positive integer; got 0/);
    expect(() => new nn.PReLU(3).forward(tpu.ones([2, 4]))).toThrow(/prelu: weight must have 1 element or one per channel/);
    expect(() => new nn.GLU(0.5)).toThrow(/nn\.GLU: dim must be an integer; got 0.5/);
    expect(() => new nn.Threshold(0.5 as never)).toThrow(/nn\.Threshold: value is required/);
    expect(() => new nn.Upsample()).toThrow(/nn\.Upsample: give exactly one of size and scaleFactor/);
    expect(() => new nn.Upsample({ scaleFactor: 2, mode: 'area' as never })).toThrow(/nn\.Upsample: mode must be one of 'nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic'; got "area"/);
    expect(() => new nn.Upsample({ scaleFactor: 2, antialias: true } as never)).toThrow(/nn\.Upsample: unknown option 'antialias'/);
    expect(() => new nn.Upsample({ scaleFactor: 2, recomputeScaleFactor: 1 as never })).toThrow(/nn\.Upsample: recomputeScaleFactor must be a boolean; got 1/);
    expect(() => new nn.Hardshrink({ lambda: 1 } as never)).toThrow(/nn\.Hardshrink: unknown option 'lambda'/);
  });

  it("shows PyTorch's arguments in camelCase", () => {
    expect(String(new nn.Conv1d(2, 3, 5))).toBe('Conv1d(2, 3, kernelSize=[5])');
    expect(String(new nn.RMSNorm(4))).toBe('RMSNorm([4], eps=null, elementwiseAffine=true)');
    expect(String(new nn.RMSNorm([2, 4], 1e-6, false))).toBe('RMSNorm([2, 4], eps=0.000001, elementwiseAffine=false)');
    expect(String(new nn.PReLU())).toBe('PReLU(numParameters=1)');
    expect(String(new nn.GLU())).toBe('GLU(dim=-1)');
    expect(String(new nn.Upsample({ scaleFactor: 2 }))).toBe("Upsample(scaleFactor=2, mode='nearest')");
    expect(String(new nn.Upsample([4, 6], { mode: 'bilinear' }))).toBe("Upsample(size=[4, 6], mode='bilinear')");
    expect(String(new nn.Hardshrink())).toBe('Hardshrink(0.5)');
    expect(String(new nn.Softshrink(1))).toBe('Softshrink(1)');
    expect(String(new nn.Threshold(0.1, 20, true))).toBe('Threshold(threshold=0.1, value=20, inplace=true)');
  });

  it("names parameters as PyTorch's stateDict does", () => {
    expect(Object.keys(new nn.Conv1d(2, 3, 3).stateDict())).toEqual(['weight', 'bias']);
    expect(new nn.Conv1d(2, 4, 3, { groups: 2 }).weight.shape).toEqual([4, 1, 3]);
    expect(Object.keys(new nn.RMSNorm(4).stateDict())).toEqual(['weight']);
    expect(Object.keys(new nn.RMSNorm(4, { elementwiseAffine: false }).stateDict())).toEqual([]);
    expect(Object.keys(new nn.PReLU(3).stateDict())).toEqual(['weight']);
    expect(new nn.PReLU(3).weight.shape).toEqual([3]);
  });
});
