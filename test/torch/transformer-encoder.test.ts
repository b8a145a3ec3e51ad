// tpu.nn.TransformerEncoderLayer and TransformerEncoder against PyTorch 2.13's given the same
// weights, in eval() (dropout off): post-norm and pre-norm (normFirst), seq-first and batch-first,
// relu, gelu and a function as activation, bool and float masks, the isCausal hint, no bias;
// the 2-layer encoder's output and gradients w.r.t. the input and every parameter, in debug,
// strict and fused mode and under tpu.compile. Its layers are deep copies named as PyTorch's;
// bad arguments are named.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bool, torchTier, uniform, type TorchCase } from './torch-tier.js';
import { SAME_WEIGHTS_PY, torchKeys, withSameWeights } from './same-weights.js';

const { nn } = tpu;

// L 3, N 2, dModel 4, 2 heads, feed-forward 8
const SRC = uniform([3, 2, 4], 11, -2, 2);
const CAUSAL = bool([[false, true, true], [false, false, true], [false, false, false]]);
const PADDING = bool([[false, false, true], [false, false, false]]);
const ARANGE_LOSS_PY = '(y * (torch.arange(y.numel()) + 1).reshape(y.shape).float()).sum().backward()';

/** Σ (1, 2, 3, ...)·y backward, then the gradients of x and of every parameter of m. */
function gradients(m: InstanceType<typeof nn.Module>, x: Tensor, y: Tensor): Tensor[] {
  y.mul(tpu.arange(y.numel()).add(1).reshape([...y.shape]).to('float32')).sum().backward();
  return [x.grad!, ...m.parameters().map((p) => (p as Tensor).grad!)];
}

const cases: TorchCase[] = [
  {
    name: 'layer, post-norm, seq-first, relu: bool srcMask and srcKeyPaddingMask',
    inputs: [SRC, bool([[false, true, false], [false, false, true], [true, false, false]]), PADDING],
    js: (x, m, p) => withSameWeights(new nn.TransformerEncoderLayer(4, 2, 8)).eval().forward(x!, { srcMask: m, srcKeyPaddingMask: p }),
    py: ['m = torch.nn.TransformerEncoderLayer(4, 2, 8)', SAME_WEIGHTS_PY, 'm.eval()', 'result = m(x0, src_mask=x1, src_key_padding_mask=x2)'].join('\n'),
  },
  {
    name: 'layer, pre-norm, batch-first, gelu, eps: float srcMask [N·heads, L, S] by position',
    inputs: [SRC, uniform([4, 3, 3], 12, -2, 2)],
    js: (x, m) => withSameWeights(new nn.TransformerEncoderLayer(4, 2, 8, 0.1, 'gelu', 1e-3, true, true)).eval().forward(x!.transpose(0, 1), m),
    py: ["m = torch.nn.TransformerEncoderLayer(4, 2, 8, 0.1, 'gelu', 1e-3, True, True)", SAME_WEIGHTS_PY, 'm.eval()', 'result = m(x0.transpose(0, 1), x1)'].join('\n'),
  },
  {
    name: 'layer: a function as activation, no bias, isCausal with the causal mask',
    inputs: [SRC, CAUSAL],
    js: (x, c) => withSameWeights(new nn.TransformerEncoderLayer(4, 2, { dimFeedforward: 8, activation: (t: Tensor) => t.tanh(), bias: false })).eval().forward(x!, { srcMask: c, isCausal: true }),
    py: ['m = torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, activation=torch.tanh, bias=False)', SAME_WEIGHTS_PY, 'm.eval()', 'result = m(x0, src_mask=x1, is_causal=True)'].join('\n'),
  },
  {
    name: 'encoder of 2 post-norm layers and a final LayerNorm, causal mask: output and gradients',
    inputs: [SRC, CAUSAL],
    rtol: 1e-4,
    atol: 1e-5,
    js: (x, c) => {
      const m = withSameWeights(new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, 8), 2, { norm: new nn.LayerNorm(4) })).eval();
      x!.requiresGrad_();
      const y = m.forward(x!, { mask: c, isCausal: true });
      return [y, ...gradients(m, x!, y)];
    },
    py: ['m = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 8), 2, norm=torch.nn.LayerNorm(4), enable_nested_tensor=False)', SAME_WEIGHTS_PY, 'm.eval()',
      'x0.requires_grad_()', 'y = m(x0, mask=x1, is_causal=True)', 'out = y.detach().clone()', ARANGE_LOSS_PY, 'result = [out, x0.grad] + [p.grad for p in m.parameters()]'].join('\n'),
  },
  {
    name: 'encoder of 2 pre-norm batch-first layers, key padding: output and gradients',
    inputs: [SRC, PADDING],
    rtol: 1e-4,
    atol: 1e-5,
    js: (x, p) => {
      const m = withSameWeights(new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, 8, { normFirst: true, batchFirst: true }), 2)).eval();
      const xb = x!.transpose(0, 1).contiguous().requiresGrad_();
      const y = m.forward(xb, null, p);
      return [y, ...gradients(m, xb, y)];
    },
    py: ['m = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 8, norm_first=True, batch_first=True), 2, enable_nested_tensor=False)', SAME_WEIGHTS_PY, 'm.eval()',
      'xb = x0.transpose(0, 1).contiguous().requires_grad_()', 'y = m(xb, None, x1)', 'out = y.detach().clone()', ARANGE_LOSS_PY, 'result = [out, xb.grad] + [p.grad for p in m.parameters()]'].join('\n'),
  },
];

torchTier('tpu.nn.TransformerEncoderLayer and TransformerEncoder follow torch.nn', cases, { compile: true });

describe('tpu.nn.TransformerEncoder', () => {
  it("names its parameters as PyTorch's, in its order", () => {
    const [layerKeys, encoderKeys] = torchKeys('torch.nn.TransformerEncoderLayer(4, 2, 8)', 'torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 8, bias=False), 2, norm=torch.nn.LayerNorm(4), enable_nested_tensor=False)');
    expect(Object.keys(new nn.TransformerEncoderLayer(4, 2, 8).stateDict())).toEqual(layerKeys);
    expect(Object.keys(new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, 8, { bias: false }), 2, { norm: new nn.LayerNorm(4) }).stateDict())).toEqual(encoderKeys);
  }, 180_000);

  it('holds deep copies of the layer: equal values at first, tensors of their own', async () => {
    const layer = new nn.TransformerEncoderLayer(4, 2, 8);
    layer.linear1.weight.requiresGrad_(false);
    const enc = new nn.TransformerEncoder(layer.eval(), 2);
    const [a, b] = [enc.layers[0] as typeof layer, enc.layers[1] as typeof layer];
    expect(a).not.toBe(layer);
    expect(a.selfAttn.inProjWeight).not.toBe(layer.selfAttn.inProjWeight);
    expect(a.selfAttn.inProjWeight).not.toBe(b.selfAttn.inProjWeight);
    expect(Array.from(await a.selfAttn.inProjWeight!.data())).toEqual(Array.from(await layer.selfAttn.inProjWeight!.data()));
    expect(a).toBeInstanceOf(nn.TransformerEncoderLayer);
    expect(a.training).toBe(false);
    // a frozen parameter stays a parameter of the copies, still frozen
    expect(enc.parameters().length).toBe(24);
    expect(a.linear1.weight.requiresGrad).toBe(false);
    tpu.noGrad(() => a.linear2.bias!.fill_(3));
    expect(Array.from(await b.linear2.bias!.data())).toEqual(Array.from(await layer.linear2.bias!.data()));
    expect(enc.train().layers[1]!.training).toBe(true);
  });

  it('names bad arguments', () => {
    expect(() => new nn.TransformerEncoderLayer(4, 2, { activation: 'tanh' as never })).toThrow(/nn\.TransformerEncoderLayer: activation must be 'relu', 'gelu' or a function of a tensor; got/);
    expect(() => new nn.TransformerEncoderLayer(4, 3)).toThrow(/nn\.TransformerEncoderLayer: dModel must be divisible by nhead; got dModel 4, nhead 3/);
    expect(() => new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, 8), 0)).toThrow(/nn\.TransformerEncoder: numLayers must be a positive integer; got 0/);
    expect(() => new nn.TransformerEncoder({} as never, 2)).toThrow(/nn\.TransformerEncoder: encoderLayer must be a module/);
    const enc = new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, 8), 2);
    expect(() => enc.forward(tpu.zeros([3, 2, 4]), { isCausal: true })).toThrow(/isCausal is a hint that attnMask is the causal mask: give attnMask too/);
    expect(() => enc.forward(tpu.zeros([3, 2, 5]))).toThrow(/query must have embedDim = 4 features \(its last dim, layout \[L, N, E\]\); got \[3, 2, 5\]/);
  });
});
