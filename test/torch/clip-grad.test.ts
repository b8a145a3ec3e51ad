// tpu.nn.utils.clipGradNorm_ and clipGradValue_ against torch.nn.utils.clip_grad_norm_ and
// clip_grad_value_ in every mode: the returned norm (value, dtype, shape) and every gradient after
// clipping, on a small MLP's gradients (norm types 2, 1, inf, 0, 3, below the threshold) and on
// gradients given directly (bfloat16, inf and NaN, a single tensor, no gradients); bad input.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, torchTier, type InputSpec, type TorchCase } from './torch-tier.js';
import { backward, mlpOf, MLP_INPUTS, PY_MLP } from '../support/clip-grad-mlp.js';

const { utils } = tpu.nn;
const INF = Infinity;

/** The MLP's norm and gradients after `clip` (the runtime's) and `pyClip` (PyTorch's, a call over m.parameters()). */
function mlpCase(name: string, clip: (ps: Tensor[]) => Tensor | void, pyClip: string): TorchCase {
  return {
    name,
    inputs: MLP_INPUTS,
    js: (...xs) => {
      const m = mlpOf(xs);
      backward(m, xs[6]!, xs[7]!);
      const ps = m.parameters() as Tensor[];
      const norm = clip(ps);
      return [...(norm ? [norm] : []), ...ps.map((p) => p.grad!)];
    },
    py: `${PY_MLP}\nn = ${pyClip}\nresult = ([n] if n is not None else []) + [p.grad for p in m.parameters()]`,
  };
}

/** Leaves whose gradients are the inputs (PyTorch: p.grad = x), clipped; the norm and the gradients. */
function givenGrads(name: string, grads: InputSpec[], clip: (ps: Tensor[]) => Tensor | void, pyClip: string): TorchCase {
  const names = grads.map((_, i) => `p${i}`);
  return {
    name,
    inputs: grads,
    js: (...gs) => {
      const ps = gs.map((g) => {
        const p = tpu.zeros([...g.shape], { dtype: g.dtype as 'float32' }).requiresGrad_();
        p.grad = g.clone(); // not a view of the input: an in-place write through a view turns -0 into 0 (a runtime bug of its own)
        return p;
      });
      const norm = clip(ps);
      return [...(norm ? [norm] : []), ...ps.map((p) => p.grad!)];
    },
    py: [
      ...names.map((p, i) => `${p} = torch.zeros_like(x${i}).requires_grad_(); ${p}.grad = x${i}.clone()`),
      `ps = [${names.join(', ')}]`,
      `n = ${pyClip}`,
      'result = ([n] if n is not None else []) + [p.grad for p in ps]',
    ].join('\n'),
  };
}

const G = [f32([[3, -4], [0.5, 2]]), f32([12, -1, 0.25])];
const cases: TorchCase[] = [
  mlpCase('MLP, 2-norm', (ps) => utils.clipGradNorm_(ps, 0.05), 'torch.nn.utils.clip_grad_norm_(m.parameters(), 0.05)'),
  mlpCase('MLP, 1-norm', (ps) => utils.clipGradNorm_(ps, 0.05, 1), 'torch.nn.utils.clip_grad_norm_(m.parameters(), 0.05, 1)'),
  mlpCase('MLP, inf-norm', (ps) => utils.clipGradNorm_(ps, 0.01, Infinity), "torch.nn.utils.clip_grad_norm_(m.parameters(), 0.01, float('inf'))"),
  mlpCase("MLP, 'inf' and the options form", (ps) => utils.clipGradNorm_(ps, { maxNorm: 0.01, normType: 'inf' }), "torch.nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.01, norm_type='inf')"),
  mlpCase('MLP, 3-norm, errorIfNonfinite on a finite norm', (ps) => utils.clipGradNorm_(ps, 0.05, 3, { errorIfNonfinite: true }), 'torch.nn.utils.clip_grad_norm_(m.parameters(), 0.05, 3, error_if_nonfinite=True)'),
  mlpCase('MLP below the threshold: gradients unchanged', (ps) => utils.clipGradNorm_(ps, 100), 'torch.nn.utils.clip_grad_norm_(m.parameters(), 100.0)'),
  mlpCase('MLP, clipGradValue_', (ps) => utils.clipGradValue_(ps, 0.02), 'torch.nn.utils.clip_grad_value_(m.parameters(), 0.02)'),
  givenGrads('bfloat16 gradients', [bf16([[3, -4], [0.5, 2]]), bf16([12, -1, 0.25])], (ps) => utils.clipGradNorm_(ps, 1), 'torch.nn.utils.clip_grad_norm_(ps, 1.0)'),
  givenGrads('bfloat16 gradients, 1-norm', [bf16([[3.3, -4.1], [0.7, 2.9]]), bf16([12.5, -1.3, 0.26])], (ps) => utils.clipGradNorm_(ps, 2.5, 1), 'torch.nn.utils.clip_grad_norm_(ps, 2.5, 1)'),
  givenGrads('0-norm (the count of non-zero gradients)', [f32([0, 0]), f32([1, 0, 2])], (ps) => utils.clipGradNorm_(ps, 0.5, 0), 'torch.nn.utils.clip_grad_norm_(ps, 0.5, 0)'),
  givenGrads('a negative maxNorm flips the gradients', G, (ps) => utils.clipGradNorm_(ps, -1), 'torch.nn.utils.clip_grad_norm_(ps, -1.0)'),
  givenGrads('a single tensor', [G[0]!], (ps) => utils.clipGradNorm_(ps[0]!, 1), 'torch.nn.utils.clip_grad_norm_(ps[0], 1.0)'),
  givenGrads('an inf gradient: an inf norm, gradients times 0', [f32([3, INF]), f32([1])], (ps) => utils.clipGradNorm_(ps, 1), 'torch.nn.utils.clip_grad_norm_(ps, 1.0)'),
  givenGrads('a NaN gradient', [f32([3, NaN]), f32([1])], (ps) => utils.clipGradNorm_(ps, 1), 'torch.nn.utils.clip_grad_norm_(ps, 1.0)'),
  givenGrads('errorIfNonfinite on an inf norm raises', [f32([3, INF])], (ps) => utils.clipGradNorm_(ps, 1, 2, { errorIfNonfinite: true }), 'torch.nn.utils.clip_grad_norm_(ps, 1.0, 2, error_if_nonfinite=True)'),
  givenGrads('clipGradValue_ keeps NaN, clamps inf', [f32([-3, 0.5, NaN, INF])], (ps) => utils.clipGradValue_(ps, 1), 'torch.nn.utils.clip_grad_value_(ps, 1.0)'),
  givenGrads('clipGradValue_ 0 gives signed zeros', [f32([-3, 0.5])], (ps) => utils.clipGradValue_(ps, { clipValue: 0 }), 'torch.nn.utils.clip_grad_value_(ps, clip_value=0.0)'),
  {
    name: 'no parameters: a float32 0',
    inputs: [],
    js: () => [utils.clipGradNorm_([], 1)],
    py: 'n = torch.nn.utils.clip_grad_norm_([], 1.0)\nresult = [n]',
  },
  {
    name: 'no gradients: a float32 0, nothing scaled',
    inputs: [f32([1, 2])],
    js: (x) => {
      const p = x.detach().requiresGrad_();
      return [utils.clipGradNorm_([p], 1), tpu.tensor(p.grad === null)];
    },
    py: 'p = x0.detach().requires_grad_()\nresult = [torch.nn.utils.clip_grad_norm_([p], 1.0), p.grad is None and torch.tensor(True)]',
  },
];

torchTier('clipGradNorm_ and clipGradValue_ vs torch.nn.utils', cases);

describe('clipGradNorm_ and clipGradValue_: bad input names the argument', () => {
  const p = () => {
    const t = tpu.ones([2]).requiresGrad_();
    t.sum().backward();
    return t;
  };
  it('maxNorm must be a number', () => {
    expect(() => utils.clipGradNorm_([p()], '1' as unknown as number)).toThrow(/clipGradNorm_: maxNorm must be a number; got string "1"/);
    expect(() => utils.clipGradNorm_([p()], { normType: 2 })).toThrow(/maxNorm must be a number; got undefined/);
  });
  it('an unknown option is an error that names it and the accepted keys', () => {
    expect(() => utils.clipGradNorm_([p()], 1, 2, { errorIfNonFinite: true } as never)).toThrow(/clipGradNorm_: unknown option 'errorIfNonFinite' \(did you mean 'errorIfNonfinite'\?\)/);
    expect(() => utils.clipGradNorm_([p()], { maxNorm: 1, norm_type: 1 } as never)).toThrow(/unknown option 'norm_type' \(did you mean 'normType'\?\)/);
    expect(() => utils.clipGradValue_([p()], { clip: 1 } as never)).toThrow(/clipGradValue_: unknown option 'clip'; clipGradValue_ accepts 'clipValue'/);
  });
  it('normType, errorIfNonfinite, clipValue and parameters are checked', () => {
    expect(() => utils.clipGradNorm_([p()], 1, 'two' as never)).toThrow(/normType must be a number, Infinity or 'inf'; got string "two"/);
    expect(() => utils.clipGradNorm_([p()], 1, 2, { errorIfNonfinite: 1 as never })).toThrow(/errorIfNonfinite must be a boolean; got number 1/);
    expect(() => utils.clipGradNorm_([p()], { maxNorm: 1 }, 2 as never)).not.toThrow(); // PyTorch's max_norm= with a positional norm_type after it is not a thing; options win
    expect(() => utils.clipGradValue_([p()], null as never)).toThrow(/clipValue must be a number; got null/);
    expect(() => utils.clipGradNorm_(5 as never, 1)).toThrow(/parameters must be a tensor or an iterable of tensors \(model.parameters\(\)\); got number 5/);
    expect(() => utils.clipGradNorm_([p(), 'w'] as never, 1)).toThrow(/parameters\[1\] must be a tensor or a DTensor; got string "w"/);
  });
});
