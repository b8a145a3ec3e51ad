// tpu.nn.MultiheadAttention against PyTorch 2.13's torch.nn.MultiheadAttention given the same
// weights: outputs and attention weights seq-first and batch-first, self- and cross-attention,
// bool and float attnMask (2-D and 3-D) and keyPaddingMask, the isCausal hint, unbatched inputs,
// kdim/vdim, no bias, addBiasKv and addZeroAttn, dropout off in eval(), gradients w.r.t. the input and every parameter, in
// debug, strict and fused mode and under tpu.compile; its stateDict keys are PyTorch's; bad
// shapes are named.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bool, f32, torchTier, uniform, type TorchCase } from './torch-tier.js';
import { SAME_WEIGHTS_PY, torchKeys, withSameWeights } from './same-weights.js';

const { nn } = tpu;

// E 4 features, 2 heads, L 3 queries, S 4 keys, N 2 in the batch
const Q = uniform([3, 2, 4], 1);
const K = uniform([4, 2, 4], 2);
const V = uniform([4, 2, 4], 3);
const CAUSAL = bool([[false, true, true], [false, false, true], [false, false, false]]);
const BOOL_MASK = bool([[false, true, false, false], [true, false, false, true], [false, false, true, false]]);
const PADDING = bool([[false, false, true, false], [false, false, false, true]]);
const FLOAT_PADDING = f32([[0, -1, -Infinity, 0.5], [0.25, 0, 0, -Infinity]]);
const MASK_3D = uniform([4, 3, 4], 4, -2, 2);

const mha = (...args: ConstructorParameters<typeof nn.MultiheadAttention>) => withSameWeights(new nn.MultiheadAttention(...args)).eval();
const pyMha = (args: string, call: string) => [`m = torch.nn.MultiheadAttention(${args})`, SAME_WEIGHTS_PY, 'm.eval()', `result = list(m(${call}))`].join('\n');
const pair = ([out, weights]: [Tensor, Tensor | null]) => (weights ? [out, weights] : [out]);
const pyPair = 'result = [t for t in result if t is not None]';

const cases: TorchCase[] = [
  {
    name: 'self-attention, seq-first: output and head-averaged weights',
    inputs: [Q],
    js: (q) => pair(mha(4, 2).forward(q!, q!, q!)),
    py: pyMha('4, 2', 'x0, x0, x0'),
  },
  {
    name: 'cross-attention, batch-first, weights per head, dropout 0.5 off in eval()',
    inputs: [Q, K, V],
    js: (q, k, v) => pair(mha(4, 2, 0.5, { batchFirst: true }).forward(q!.transpose(0, 1), k!.transpose(0, 1), v!.transpose(0, 1), { averageAttnWeights: false })),
    py: pyMha('4, 2, 0.5, batch_first=True', 'x0.transpose(0, 1), x1.transpose(0, 1), x2.transpose(0, 1), average_attn_weights=False'),
  },
  {
    name: 'bool attnMask [L, S] and bool keyPaddingMask',
    inputs: [Q, K, V, BOOL_MASK, PADDING],
    js: (q, k, v, m, p) => pair(mha(4, 2).forward(q!, k!, v!, { attnMask: m, keyPaddingMask: p })),
    py: pyMha('4, 2', 'x0, x1, x2, attn_mask=x3, key_padding_mask=x4'),
  },
  {
    name: 'float attnMask [N·heads, L, S] and float keyPaddingMask (with -inf), by position',
    inputs: [Q, K, V, MASK_3D, FLOAT_PADDING],
    js: (q, k, v, m, p) => pair(mha(4, 2).forward(q!, k!, v!, p, true, m)),
    py: pyMha('4, 2', 'x0, x1, x2, x4, True, x3'),
  },
  {
    name: 'float keyPaddingMask with a bool attnMask, no weights',
    inputs: [Q, K, V, BOOL_MASK, FLOAT_PADDING],
    js: (q, k, v, m, p) => pair(mha(4, 2).forward(q!, k!, v!, { attnMask: m, keyPaddingMask: p, needWeights: false })),
    py: pyMha('4, 2', 'x0, x1, x2, attn_mask=x3, key_padding_mask=x4, need_weights=False') + '\n' + pyPair,
  },
  {
    name: 'isCausal with the causal mask: with and without weights, with padding',
    inputs: [Q, CAUSAL, bool([[false, false, true], [false, false, false]])],
    js: (q, c, p) => {
      const m = mha(4, 2);
      return [...pair(m.forward(q!, q!, q!, { attnMask: c, isCausal: true })), ...pair(m.forward(q!, q!, q!, { attnMask: c, isCausal: true, needWeights: false })),
        ...pair(m.forward(q!, q!, q!, { attnMask: c, isCausal: true, keyPaddingMask: p, needWeights: false }))];
    },
    py: [`m = torch.nn.MultiheadAttention(4, 2)`, SAME_WEIGHTS_PY, 'm.eval()',
      'result = [*m(x0, x0, x0, attn_mask=x1, is_causal=True), m(x0, x0, x0, attn_mask=x1, is_causal=True, need_weights=False)[0], m(x0, x0, x0, attn_mask=x1, is_causal=True, key_padding_mask=x2, need_weights=False)[0]]'].join('\n'),
  },
  {
    name: 'a query row that may attend to nothing: NaN with weights, zeros without',
    inputs: [Q, K, V, bool([[true, true, true, true], [false, true, false, false], [false, false, false, false]])],
    js: (q, k, v, m) => {
      const a = mha(4, 2);
      return [...pair(a.forward(q!, k!, v!, { attnMask: m })), ...pair(a.forward(q!, k!, v!, { attnMask: m, needWeights: false }))];
    },
    py: [`m = torch.nn.MultiheadAttention(4, 2)`, SAME_WEIGHTS_PY, 'm.eval()', 'result = [*m(x0, x1, x2, attn_mask=x3), m(x0, x1, x2, attn_mask=x3, need_weights=False)[0]]'].join('\n'),
  },
  {
    name: 'unbatched [L, E] with keyPaddingMask [S] and attnMask [heads, L, S]',
    inputs: [uniform([3, 4], 5), uniform([4, 4], 6), bool([false, true, false, false]), uniform([2, 3, 4], 7)],
    js: (q, kv, p, m) => pair(mha(4, 2, { batchFirst: true }).forward(q!, kv!, kv!, { keyPaddingMask: p, attnMask: m, averageAttnWeights: false })),
    py: pyMha('4, 2, batch_first=True', 'x0, x1, x1, key_padding_mask=x2, attn_mask=x3, average_attn_weights=False'),
  },
  {
    name: 'kdim and vdim of their own: separate projection weights',
    inputs: [Q, uniform([4, 2, 3], 8), uniform([4, 2, 5], 9)],
    js: (q, k, v) => pair(mha(4, 2, { kdim: 3, vdim: 5 }).forward(q!, k!, v!)),
    py: pyMha('4, 2, kdim=3, vdim=5', 'x0, x1, x2'),
  },
  {
    name: 'no bias',
    inputs: [Q, K],
    js: (q, k) => pair(mha(4, 2, 0, false).forward(q!, k!, k!)),
    py: pyMha('4, 2, 0.0, False', 'x0, x1, x1'),
  },
  {
    name: 'gradients of a loss w.r.t. the query and every parameter, with a mask',
    inputs: [Q, K, V, PADDING],
    rtol: 1e-4,
    atol: 1e-5,
    js: (q, k, v, p) => {
      const m = mha(4, 2, { kdim: 4 });
      q!.requiresGrad_();
      const [out, w] = m.forward(q!, k!, v!, { keyPaddingMask: p });
      out.mul(tpu.arange(24).reshape([3, 2, 4]).to('float32')).sum().add(w!.mul(tpu.arange(24).reshape([2, 3, 4]).to('float32')).sum()).backward();
      return [q!.grad!, ...m.parameters().map((t) => (t as Tensor).grad!)];
    },
    py: ['m = torch.nn.MultiheadAttention(4, 2)', SAME_WEIGHTS_PY, 'm.eval()', 'x0.requires_grad_()', 'out, w = m(x0, x1, x2, key_padding_mask=x3)',
      '((out * torch.arange(24).reshape(3, 2, 4).float()).sum() + (w * torch.arange(24).reshape(2, 3, 4).float()).sum()).backward()',
      'result = [x0.grad] + [p.grad for p in m.parameters()]'].join('\n'),
  },
  {
    name: 'addBiasKv and addZeroAttn by position: self-attention with weights',
    inputs: [Q],
    js: (q) => pair(mha(4, 2, 0, true, true, true).forward(q!, q!, q!)),
    py: pyMha('4, 2, 0.0, True, True, True', 'x0, x0, x0'),
  },
  {
    name: 'addBiasKv, batch-first cross-attention with a bool attnMask and keyPaddingMask, weights per head',
    inputs: [Q, K, V, BOOL_MASK, PADDING],
    js: (q, k, v, a, p) => pair(mha(4, 2, { addBiasKv: true, batchFirst: true }).forward(q!.transpose(0, 1), k!.transpose(0, 1), v!.transpose(0, 1), { attnMask: a, keyPaddingMask: p, averageAttnWeights: false })),
    py: pyMha('4, 2, add_bias_kv=True, batch_first=True', 'x0.transpose(0, 1), x1.transpose(0, 1), x2.transpose(0, 1), attn_mask=x3, key_padding_mask=x4, average_attn_weights=False'),
  },
  {
    name: 'addZeroAttn with a 3-D float attnMask and a float keyPaddingMask, kdim and vdim',
    inputs: [Q, uniform([4, 2, 3], 5), uniform([4, 2, 5], 6), MASK_3D, FLOAT_PADDING],
    js: (q, k, v, a, p) => pair(mha(4, 2, { addZeroAttn: true, kdim: 3, vdim: 5 }).forward(q!, k!, v!, { attnMask: a, keyPaddingMask: p })),
    py: pyMha('4, 2, add_zero_attn=True, kdim=3, vdim=5', 'x0, x1, x2, attn_mask=x3, key_padding_mask=x4'),
  },
  {
    name: 'addBiasKv and addZeroAttn: unbatched, and the isCausal hint without weights',
    inputs: [Q, CAUSAL],
    js: (q, c) => {
      const m = mha(4, 2, { addBiasKv: true, addZeroAttn: true });
      const x = q!.select(1, 0);
      return [...pair(m.forward(x, x, x)), m.forward(q!, q!, q!, { attnMask: c, isCausal: true, needWeights: false })[0]];
    },
    py: ['m = torch.nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)', SAME_WEIGHTS_PY, 'm.eval()',
      'x = x0[:, 0]', 'result = list(m(x, x, x)) + [m(x0, x0, x0, attn_mask=x1, is_causal=True, need_weights=False)[0]]'].join('\n'),
  },
  {
    name: 'addBiasKv and addZeroAttn: gradients w.r.t. the query and every parameter, biasK and biasV too',
    inputs: [Q, K, V, PADDING],
    rtol: 1e-4,
    atol: 1e-5,
    js: (q, k, v, p) => {
      const m = mha(4, 2, { addBiasKv: true, addZeroAttn: true });
      q!.requiresGrad_();
      const [out, w] = m.forward(q!, k!, v!, { keyPaddingMask: p });
      out.mul(tpu.arange(24).reshape([3, 2, 4]).to('float32')).sum().add(w!.mul(tpu.arange(36).reshape([2, 3, 6]).to('float32')).sum()).backward();
      return [q!.grad!, ...m.parameters().map((t) => (t as Tensor).grad!)];
    },
    py: ['m = torch.nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)', SAME_WEIGHTS_PY, 'm.eval()', 'x0.requires_grad_()', 'out, w = m(x0, x1, x2, key_padding_mask=x3)',
      '((out * torch.arange(24).reshape(3, 2, 4).float()).sum() + (w * torch.arange(36).reshape(2, 3, 6).float()).sum()).backward()',
      'result = [x0.grad] + [p.grad for p in m.parameters()]'].join('\n'),
  },
];

torchTier('tpu.nn.MultiheadAttention follows torch.nn.MultiheadAttention', cases, { compile: true });

describe('tpu.nn.MultiheadAttention', () => {
  it("names its parameters as PyTorch's, in its order", () => {
    const [packed, separate, biasKv] = torchKeys('torch.nn.MultiheadAttention(4, 2)', 'torch.nn.MultiheadAttention(4, 2, kdim=3, vdim=5, bias=False)', 'torch.nn.MultiheadAttention(4, 2, add_bias_kv=True, kdim=3)');
    expect(Object.keys(new nn.MultiheadAttention(4, 2).stateDict())).toEqual(packed);
    expect(Object.keys(new nn.MultiheadAttention(4, 2, { kdim: 3, vdim: 5, bias: false }).stateDict())).toEqual(separate);
    expect(Object.keys(new nn.MultiheadAttention(4, 2, { addBiasKv: true, kdim: 3 }).stateDict())).toEqual(biasKv);
  }, 180_000);

  it("initializes as PyTorch's: xavier-uniform input projection, zero biases", async () => {
    const m = new nn.MultiheadAttention(8, 2);
    const w = Array.from(await m.inProjWeight!.data());
    const bound = Math.sqrt(6 / (8 + 24));
    expect(w.every((x) => Math.abs(x) <= bound)).toBe(true);
    expect(Math.max(...w.map(Math.abs))).toBeGreaterThan(0.8 * bound);
    expect(Array.from(await m.inProjBias!.data())).toEqual(new Array(24).fill(0));
    expect(Array.from(await m.outProj.bias!.data())).toEqual(new Array(8).fill(0));
    // addBiasKv's biasK, biasV [1, 1, E]: xavier_normal_, std √(2 / (E + E)) = 1/8 for E = 64
    const kv = new nn.MultiheadAttention(64, 4, { addBiasKv: true });
    for (const t of [kv.biasK!, kv.biasV!]) {
      expect(t.shape).toEqual([1, 1, 64]);
      const values = Array.from(await t.data());
      const std = Math.sqrt(values.reduce((a, x) => a + x * x, 0) / values.length);
      expect(std).toBeGreaterThan(0.125 * 0.7);
      expect(std).toBeLessThan(0.125 * 1.3);
    }
  });

  it('drops attention weights out in training mode only', async () => {
    tpu.manualSeed(0);
    const m = new nn.MultiheadAttention(4, 1, { dropout: 0.5 });
    const x = tpu.randn([6, 1, 4]);
    const [, trained] = m.forward(x, x, x);
    const zeros = Array.from(await trained!.data()).filter((v) => v === 0).length;
    expect(zeros).toBeGreaterThan(5);
    const [, evaluated] = m.eval().forward(x, x, x);
    expect(Array.from(await evaluated!.data()).filter((v) => v === 0).length).toBe(0);
  });

  it('names bad arguments and shapes', () => {
    const m = new nn.MultiheadAttention(4, 2);
    const x = tpu.zeros([3, 2, 4]);
    expect(() => new nn.MultiheadAttention(6, 4)).toThrow(/nn\.MultiheadAttention: embedDim must be divisible by numHeads; got embedDim 6, numHeads 4/);
    expect(() => new nn.MultiheadAttention(4, 2, { addZeroAttn: 1 as never })).toThrow(/nn\.MultiheadAttention: addZeroAttn must be a boolean; got number 1/);
    expect(() => new nn.MultiheadAttention(4, 2, { batch_first: true } as never)).toThrow(/unknown option 'batch_first' \(did you mean 'batchFirst'\?\)/);
    expect(() => m.forward(tpu.zeros([3, 2, 5]), x, x)).toThrow(/query must have embedDim = 4 features \(its last dim, layout \[L, N, E\]\); got \[3, 2, 5\]/);
    expect(() => m.forward(x, tpu.zeros([3, 4]), x)).toThrow(/key must be 3-D as query \[3, 2, 4\] is; got \[3, 4\]/);
    expect(() => m.forward(x, tpu.zeros([5, 2, 4]), x)).toThrow(/must share the batch size N, key and value the length S/);
    expect(() => m.forward(x, x, x, { attnMask: tpu.zeros([3, 4]) })).toThrow(/attnMask must be \[L, S\] = \[3, 3\] or \[N·numHeads, L, S\] = \[4, 3, 3\]; got \[3, 4\]/);
    expect(() => m.forward(x, x, x, { keyPaddingMask: tpu.zeros([3, 2], { dtype: 'bool' }) })).toThrow(/keyPaddingMask must be \[N, S\] = \[2, 3\]; got \[3, 2\]/);
    expect(() => m.forward(x, x, x, { attnMask: tpu.zeros([3, 3], { dtype: 'int32' }) })).toThrow(/attnMask must be a bool tensor \(true = may not attend\) or a floating one \(added to the scores\); got int32/);
    expect(() => m.forward(x, x, x, { isCausal: true })).toThrow(/isCausal is a hint that attnMask is the causal mask: give attnMask too/);
  });
});
