// The layers of tpu.nn over its functional ops (activations, softmax layers, Flatten, Unflatten,
// Identity, the pools, the loss modules) against PyTorch 2.13's torch.nn layers: PyTorch's
// defaults, options by position and by name; a Sequential MLP (Flatten, Linear, LeakyReLU,
// Dropout in eval, CrossEntropyLoss) and a small CNN (MaxPool2d, LogSoftmax, NLLLoss) given the
// same weights as PyTorch's, forward and backward, in every mode.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, ids, torchTier, uniform, type TorchCase } from './torch-tier.js';
import { loaded, pyLoad } from './module-weights.js';

const { nn } = tpu;

const X = f32([-25, -7, -4, -3, -2.5, -1, -0.5, -0, 0, 0.5, 1, 2.5, 3, 4, 7, 25]);
const ROWS = uniform([3, 4], 1, -3, 3);
const IMAGES = uniform([2, 2, 5, 5], 2, -2, 2);

const layerCases: TorchCase[] = [
  {
    name: 'option-free activations',
    inputs: [X],
    js: (x) => [new nn.ReLU(), new nn.Tanh(), new nn.GELU(), new nn.GELU({ approximate: 'tanh' }), new nn.Sigmoid(), new nn.SiLU(), new nn.SELU(), new nn.ReLU6(),
      new nn.Hardsigmoid(), new nn.Hardswish(), new nn.LogSigmoid(), new nn.Mish(), new nn.Softsign(), new nn.Tanhshrink()].map((m) => m.forward(x)),
    py: "[m(x0) for m in [torch.nn.ReLU(), torch.nn.Tanh(), torch.nn.GELU(), torch.nn.GELU(approximate='tanh'), torch.nn.Sigmoid(), torch.nn.SiLU(), torch.nn.SELU(), torch.nn.ReLU6(), torch.nn.Hardsigmoid(), torch.nn.Hardswish(), torch.nn.LogSigmoid(), torch.nn.Mish(), torch.nn.Softsign(), torch.nn.Tanhshrink()]]",
  },
  {
    name: "activations with options: PyTorch's defaults",
    inputs: [X],
    js: (x) => [new nn.LeakyReLU(), new nn.ELU(), new nn.CELU(), new nn.Hardtanh(), new nn.Softplus()].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.LeakyReLU(), torch.nn.ELU(), torch.nn.CELU(), torch.nn.Hardtanh(), torch.nn.Softplus()]]',
  },
  {
    name: 'activations with options by position',
    inputs: [X],
    js: (x) => [new nn.LeakyReLU(0.2), new nn.ELU(0.5), new nn.CELU(2), new nn.Hardtanh(-2, 3), new nn.Hardtanh(-2), new nn.Softplus(2, 5)].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.LeakyReLU(0.2), torch.nn.ELU(0.5), torch.nn.CELU(2.), torch.nn.Hardtanh(-2., 3.), torch.nn.Hardtanh(-2.), torch.nn.Softplus(2., 5.)]]',
  },
  {
    name: 'activations with options by name',
    inputs: [X],
    js: (x) => [new nn.LeakyReLU({ negativeSlope: -0.5 }), new nn.ELU({ alpha: 2 }), new nn.CELU({ alpha: 0.5 }), new nn.Hardtanh({ maxVal: 0.5 }), new nn.Hardtanh(-3, { maxVal: 2 }), new nn.Softplus({ threshold: 1 })].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.LeakyReLU(negative_slope=-0.5), torch.nn.ELU(alpha=2.), torch.nn.CELU(alpha=0.5), torch.nn.Hardtanh(max_val=0.5), torch.nn.Hardtanh(-3., max_val=2.), torch.nn.Softplus(threshold=1.)]]',
  },
  {
    name: 'Softmax, LogSoftmax and Softmin over their dim',
    inputs: [ROWS],
    js: (x) => [new nn.Softmax(1), new nn.Softmax({ dim: 0 }), new nn.LogSoftmax(-1), new nn.LogSoftmax(0), new nn.Softmin(1), new nn.Softmin({ dim: -2 })].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.Softmax(1), torch.nn.Softmax(dim=0), torch.nn.LogSoftmax(-1), torch.nn.LogSoftmax(0), torch.nn.Softmin(1), torch.nn.Softmin(dim=-2)]]',
  },
  {
    name: 'Flatten, Unflatten and Identity',
    inputs: [uniform([2, 3, 4], 3)],
    js: (x) => [new nn.Flatten(), new nn.Flatten(0, 1), new nn.Flatten({ endDim: 1 }), new nn.Unflatten(2, [2, -1]), new nn.Unflatten({ dim: 0, unflattenedSize: [1, 2] }), new nn.Identity(54, { unused: true })].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.Flatten(), torch.nn.Flatten(0, 1), torch.nn.Flatten(end_dim=1), torch.nn.Unflatten(2, (2, -1)), torch.nn.Unflatten(dim=0, unflattened_size=(1, 2)), torch.nn.Identity(54, unused=True)]]',
  },
  {
    name: 'MaxPool2d: kernel, stride, padding, dilation by position and by name',
    inputs: [IMAGES],
    js: (x) => [new nn.MaxPool2d(2), new nn.MaxPool2d(3, 1, 1), new nn.MaxPool2d(2, { stride: 1, dilation: 2 }), new nn.MaxPool2d({ kernelSize: [2, 3], stride: [1, 2] })].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.MaxPool2d(2), torch.nn.MaxPool2d(3, 1, 1), torch.nn.MaxPool2d(2, stride=1, dilation=2), torch.nn.MaxPool2d(kernel_size=(2, 3), stride=(1, 2))]]',
  },
  {
    name: 'AvgPool2d: kernel, stride, padding, countIncludePad',
    inputs: [IMAGES],
    js: (x) => [new nn.AvgPool2d(2), new nn.AvgPool2d(3, 2, 1), new nn.AvgPool2d(3, { stride: 2, padding: 1, countIncludePad: false }), new nn.AvgPool2d([2, 3], null)].map((m) => m.forward(x)),
    py: '[m(x0) for m in [torch.nn.AvgPool2d(2), torch.nn.AvgPool2d(3, 2, 1), torch.nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), torch.nn.AvgPool2d((2, 3), None)]]',
  },
];

const LOGITS = uniform([6, 4], 4, -3, 3);
const LABELS = ids([0, 3, 1, 1, 2, 3]);
const CLASS_WEIGHT = f32([0.5, 2, 1, 1.5]);
const A = uniform([6, 4], 5, -2, 2);
const B = uniform([6, 4], 6, -2, 2);
const PROBS = uniform([6, 4], 7, 0.05, 0.95);
const TARGETS = uniform([6, 4], 8, 0, 1);
const PAIR_LABELS = f32([1, -1, 1, -1, -1, 1]);

const lossCases: TorchCase[] = [
  {
    name: 'CrossEntropyLoss and NLLLoss: defaults, a weight by position and by name, options',
    inputs: [LOGITS, LABELS, CLASS_WEIGHT],
    js: (x, y, w) => [
      new nn.CrossEntropyLoss().forward(x, y), new nn.CrossEntropyLoss(w, { labelSmoothing: 0.1 }).forward(x, y),
      new nn.CrossEntropyLoss({ weight: w, reduction: 'none', ignoreIndex: 1 }).forward(x, y),
      new nn.NLLLoss().forward(x.logSoftmax(1), y), new nn.NLLLoss(w).forward(x.logSoftmax(1), y), new nn.NLLLoss({ reduction: 'sum', ignoreIndex: 3 }).forward(x.logSoftmax(1), y),
    ],
    py: [
      'lp = x0.log_softmax(1)',
      'result = [torch.nn.CrossEntropyLoss()(x0, x1), torch.nn.CrossEntropyLoss(x2, label_smoothing=0.1)(x0, x1),',
      "          torch.nn.CrossEntropyLoss(weight=x2, reduction='none', ignore_index=1)(x0, x1),",
      "          torch.nn.NLLLoss()(lp, x1), torch.nn.NLLLoss(x2)(lp, x1), torch.nn.NLLLoss(reduction='sum', ignore_index=3)(lp, x1)]",
    ].join('\n'),
  },
  {
    name: 'MSELoss, L1Loss, SmoothL1Loss and HuberLoss',
    inputs: [A, B],
    js: (a, b) => [new nn.MSELoss(), new nn.MSELoss({ reduction: 'sum' }), new nn.L1Loss({ reduction: 'none' }), new nn.SmoothL1Loss(), new nn.SmoothL1Loss({ beta: 0.5 }),
      new nn.HuberLoss(), new nn.HuberLoss({ delta: 0.7, reduction: 'sum' })].map((m) => m.forward(a, b)),
    py: "[m(x0, x1) for m in [torch.nn.MSELoss(), torch.nn.MSELoss(reduction='sum'), torch.nn.L1Loss(reduction='none'), torch.nn.SmoothL1Loss(), torch.nn.SmoothL1Loss(beta=0.5), torch.nn.HuberLoss(), torch.nn.HuberLoss(delta=0.7, reduction='sum')]]",
  },
  {
    name: 'BCELoss, BCEWithLogitsLoss and KLDivLoss',
    inputs: [PROBS, TARGETS, A],
    js: (p, t, a) => [new nn.BCELoss().forward(p, t), new nn.BCELoss({ reduction: 'none' }).forward(p, t), new nn.BCEWithLogitsLoss().forward(a, t),
      new nn.BCEWithLogitsLoss({ reduction: 'sum' }).forward(a, t), new nn.KLDivLoss().forward(a.logSoftmax(1), p),
      new nn.KLDivLoss({ reduction: 'batchmean', logTarget: true }).forward(a.logSoftmax(1), p.log())],
    py: [
      "result = [torch.nn.BCELoss()(x0, x1), torch.nn.BCELoss(reduction='none')(x0, x1), torch.nn.BCEWithLogitsLoss()(x2, x1),",
      "          torch.nn.BCEWithLogitsLoss(reduction='sum')(x2, x1), torch.nn.KLDivLoss()(x2.log_softmax(1), x0),",
      "          torch.nn.KLDivLoss(reduction='batchmean', log_target=True)(x2.log_softmax(1), x0.log())]",
    ].join('\n'),
  },
  {
    name: 'CosineEmbeddingLoss',
    inputs: [A, B, PAIR_LABELS],
    js: (a, b, y) => [new nn.CosineEmbeddingLoss().forward(a, b, y), new nn.CosineEmbeddingLoss({ margin: 0.2, reduction: 'none' }).forward(a, b, y)],
    py: "[torch.nn.CosineEmbeddingLoss()(x0, x1, x2), torch.nn.CosineEmbeddingLoss(margin=0.2, reduction='none')(x0, x1, x2)]",
  },
];

torchTier('tpu.nn layers follow torch.nn', layerCases, { compile: true });
torchTier('tpu.nn loss modules follow torch.nn', lossCases, { compile: true });


const MLP_PY = 'torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(6, 5), torch.nn.LeakyReLU(0.1), torch.nn.Dropout(0.5), torch.nn.Linear(5, 3))';
const CNN_PY = 'torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(), torch.nn.Linear(18, 3), torch.nn.LogSoftmax(1))';

const modelCases: TorchCase[] = [
  {
    name: 'MLP in eval(): Flatten, Linear, LeakyReLU, Dropout, Linear, CrossEntropyLoss; loss, logits and gradients',
    inputs: [uniform([5, 6], 10), uniform([5], 11), uniform([3, 5], 12), uniform([3], 13), uniform([4, 2, 3], 14, -2, 2), ids([0, 2, 1, 2])],
    js: (w1, b1, w2, b2, x, y) => {
      const m = loaded(new nn.Sequential(new nn.Flatten(), new nn.Linear(6, 5), new nn.LeakyReLU(0.1), new nn.Dropout(0.5), new nn.Linear(5, 3)), [w1!, b1!, w2!, b2!]).eval();
      const logits = m.forward(x!);
      const loss = new nn.CrossEntropyLoss({ labelSmoothing: 0.05 }).forward(logits, y!);
      loss.backward();
      return [loss, logits, ...m.parameters().map((p) => (p as Tensor).grad!)];
    },
    py: [`m = ${MLP_PY}`, 'm.eval()', pyLoad('x0, x1, x2, x3'), 'logits = m(x4)', 'loss = torch.nn.CrossEntropyLoss(label_smoothing=0.05)(logits, x5)', 'loss.backward()',
      'result = [loss, logits] + [p.grad for p in m.parameters()]'].join('\n'),
  },
  {
    name: 'CNN: Conv2d, ReLU, MaxPool2d, Flatten, Linear, LogSoftmax, NLLLoss; loss and gradients',
    inputs: [uniform([2, 1, 3, 3], 20), uniform([2], 21), uniform([3, 18], 22), uniform([3], 23), uniform([3, 1, 6, 6], 24, -2, 2), ids([2, 0, 1])],
    js: (w1, b1, w2, b2, x, y) => {
      const m = loaded(new nn.Sequential(new nn.Conv2d(1, 2, 3, { padding: 1 }), new nn.ReLU(), new nn.MaxPool2d(2), new nn.Flatten(), new nn.Linear(18, 3), new nn.LogSoftmax(1)), [w1!, b1!, w2!, b2!]);
      const loss = new nn.NLLLoss().forward(m.forward(x!), y!);
      loss.backward();
      return [loss, ...m.parameters().map((p) => (p as Tensor).grad!)];
    },
    py: [`m = ${CNN_PY}`, pyLoad('x0, x1, x2, x3'), 'loss = torch.nn.NLLLoss()(m(x4), x5)', 'loss.backward()', 'result = [loss] + [p.grad for p in m.parameters()]'].join('\n'),
  },
];

torchTier('models of tpu.nn layers follow the same torch.nn models', modelCases);

describe('tpu.nn layer arguments', () => {
  it('names a mistyped option and suggests the right one', () => {
    expect(() => new nn.LeakyReLU({ negative_slope: 0.1 } as never)).toThrow(/nn\.LeakyReLU: unknown option 'negative_slope' \(did you mean 'negativeSlope'\?\); nn\.LeakyReLU accepts 'negativeSlope'/);
    expect(() => new nn.Hardtanh({ min_val: -2 } as never)).toThrow(/nn\.Hardtanh: unknown option 'min_val' \(did you mean 'minVal'\?\)/);
    expect(() => new nn.Flatten({ start_dim: 0 } as never)).toThrow(/nn\.Flatten: unknown option 'start_dim' \(did you mean 'startDim'\?\)/);
    expect(() => new nn.MaxPool2d(2, { strides: 1 } as never)).toThrow(/nn\.MaxPool2d: unknown option 'strides'; nn\.MaxPool2d accepts 'kernelSize', 'stride', 'padding', 'dilation'/);
    expect(() => new nn.AvgPool2d(2, { count_include_pad: false } as never)).toThrow(/did you mean 'countIncludePad'/);
    expect(() => new nn.CrossEntropyLoss({ label_smoothing: 0.1 } as never)).toThrow(/nn\.CrossEntropyLoss: unknown option 'label_smoothing' \(did you mean 'labelSmoothing'\?\)/);
    expect(() => new nn.KLDivLoss({ log_target: true } as never)).toThrow(/nn\.KLDivLoss: unknown option 'log_target' \(did you mean 'logTarget'\?\)/);
    expect(() => new nn.HuberLoss({ Delta: 2 } as never)).toThrow(/nn\.HuberLoss: unknown option 'Delta' \(did you mean 'delta'\?\)/);
    expect(() => new nn.GELU({ approximation: 'tanh' } as never)).toThrow(/nn\.GELU: unknown option 'approximation'; nn\.GELU accepts 'approximate'/);
  });

  it('rejects what PyTorch would take but the layer does not do, naming it', () => {
    expect(() => new (nn.Tanh as new (...a: unknown[]) => unknown)({ inplace: true })).toThrow(/nn\.Tanh: takes no arguments, as in PyTorch; got \{"inplace":true\}/);
    expect(() => new nn.ReLU('yes' as never)).toThrow(/nn\.ReLU: inplace must be a boolean; got "yes"/);
    expect(() => new nn.MaxPool2d(2, { ceilMode: true } as never)).toThrow("nn.MaxPool2d: ceilMode: true is not supported, only PyTorch's default false");
    // PyTorch's fourth argument of AvgPool2d is ceil_mode: a boolean there must not become countIncludePad
    expect(new nn.AvgPool2d(2, 2, 0, false).countIncludePad).toBe(true);
    expect(() => new (nn.AvgPool2d as new (...a: unknown[]) => unknown)(2, 2, 0, true)).toThrow("nn.AvgPool2d: ceilMode: true is not supported, only PyTorch's default false");
  });

  it('rejects bad values when the layer is made, naming the argument', () => {
    expect(() => new nn.LeakyReLU('0.1' as never)).toThrow(/nn\.LeakyReLU: negativeSlope must be a number; got string "0.1"/);
    expect(() => new nn.Hardtanh(-1, { minVal: -2 } as never)).toThrow(/nn\.Hardtanh: minVal is given twice: positionally \(-1\) and in the options \(-2\)/);
    expect(() => new (nn.Softmax as new (...a: unknown[]) => unknown)()).toThrow(/nn\.Softmax: dim is required/);
    expect(() => new nn.LogSoftmax(0.5)).toThrow(/nn\.LogSoftmax: dim must be an integer; got 0.5/);
    expect(() => new nn.Flatten(1.5)).toThrow(/nn\.Flatten: startDim must be an integer; got 1.5/);
    expect(() => new nn.Unflatten(1, 6 as never)).toThrow(/nn\.Unflatten: unflattenedSize must be an array of integers/);
    expect(() => new (nn.MaxPool2d as new (...a: unknown[]) => unknown)()).toThrow(/nn\.MaxPool2d: kernelSize is required/);
    expect(() => new nn.MaxPool2d(0)).toThrow(/nn\.MaxPool2d: kernelSize must be an integer ≥ 1 or a pair of them; got 0/);
    expect(() => new nn.AvgPool2d(2, { padding: -1 })).toThrow(/nn\.AvgPool2d: padding must be an integer ≥ 0/);
    expect(() => new nn.AvgPool2d(2, { countIncludePad: 'no' as never })).toThrow(/nn\.AvgPool2d: countIncludePad must be a boolean; got "no"/);
  });

  it("shows PyTorch's arguments and defaults, in camelCase", () => {
    expect(String(new nn.LeakyReLU())).toBe('LeakyReLU(negativeSlope=0.01)');
    expect(String(new nn.Hardtanh(-2))).toBe('Hardtanh(minVal=-2, maxVal=1)');
    expect(String(new nn.Softplus())).toBe('Softplus(beta=1, threshold=20)');
    expect(String(new nn.ELU(0.5))).toBe('ELU(alpha=0.5)');
    expect(String(new nn.Softmax(-1))).toBe('Softmax(dim=-1)');
    expect(String(new nn.Flatten())).toBe('Flatten(startDim=1, endDim=-1)');
    expect(String(new nn.Unflatten(1, [2, 3]))).toBe('Unflatten(dim=1, unflattenedSize=[2, 3])');
    expect(String(new nn.MaxPool2d(2))).toBe('MaxPool2d(kernelSize=2, stride=2, padding=0, dilation=1)');
    expect(String(new nn.AvgPool2d([2, 3], 1))).toBe('AvgPool2d(kernelSize=[2, 3], stride=1, padding=0)');
    expect(String(new nn.GELU({ approximate: 'tanh' }))).toBe("GELU(approximate='tanh')");
    expect(String(new nn.SiLU())).toBe('SiLU()');
    expect(String(new nn.MSELoss())).toBe('MSELoss()');
  });

  it('keeps a class weight as a buffer, as PyTorch registers it', () => {
    const w = tpu.tensor([1, 2, 3]);
    expect(Object.keys(new nn.CrossEntropyLoss(w).stateDict())).toEqual(['weight']);
    expect(Object.keys(new nn.NLLLoss().stateDict())).toEqual([]);
  });
});
