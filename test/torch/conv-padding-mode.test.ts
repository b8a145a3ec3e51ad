// nn.Conv1d and nn.Conv2d with paddingMode 'reflect', 'replicate' and 'circular' (PyTorch's
// padding_mode), 'same' with an even kernel (it was an error) and F.pad's 'circular' mode,
// against PyTorch 2.13 given the same weights, in every mode and under tpu.compile: numeric,
// per-dim and 'same' padding (an even kernel's odd unit on the right), stride, dilation,
// groups, unbatched input, gradients; bad modes named.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { torchTier, uniform, type InputSpec, type TorchCase } from './torch-tier.js';

const { nn } = tpu;
type Conv = InstanceType<typeof nn.Conv1d> | InstanceType<typeof nn.Conv2d>;

/** The layer's output for x, and with `grads` the gradients of Σ w·out (w = 1, 2, ...) of x, weight and bias. */
function layer(name: string, make: () => Conv, torch: string, x: InputSpec, grads = false): TorchCase {
  const params = make().parameters().map((p, i) => uniform(p.shape, 50 + i));
  const k = params.length;
  return {
    name,
    inputs: [...params, x],
    rtol: 1e-5,
    atol: 1e-5,
    js: (...xs) => {
      const m = make();
      tpu.noGrad(() => m.parameters().forEach((p, i) => (p as Tensor).copy_(xs[i]!)));
      const input = xs[k]!;
      if (grads) input.requiresGrad_();
      const y = m.forward(input);
      if (!grads) return y;
      y.mul(tpu.arange(y.numel()).reshape([...y.shape]).add(1).to('float32')).sum().backward();
      return [y, input.grad!, ...m.parameters().map((p) => (p as Tensor).grad!)];
    },
    py: [
      `m = ${torch}`,
      `with torch.no_grad():\n    for p, v in zip(m.parameters(), [${params.map((_, i) => `x${i}`).join(', ')}]): p.copy_(v)`,
      `x = x${k}${grads ? '.requires_grad_()' : ''}`,
      'y = m(x)',
      grads ? '(y * (torch.arange(y.numel()) + 1).reshape(y.shape).float()).sum().backward()\nresult = [y, x.grad, *[p.grad for p in m.parameters()]]' : 'result = y',
    ].join('\n'),
  };
}

const SEQ = uniform([2, 2, 7], 1);
const IMAGE = uniform([1, 2, 5, 6], 2);

const cases: TorchCase[] = [
  layer("Conv1d reflect, padding 2, stride 2", () => new nn.Conv1d(2, 3, 3, { padding: 2, paddingMode: 'reflect', stride: 2 }), "torch.nn.Conv1d(2, 3, 3, padding=2, padding_mode='reflect', stride=2)", SEQ),
  layer("Conv1d circular, unbatched", () => new nn.Conv1d(2, 3, 3, { padding: 1, paddingMode: 'circular' }), "torch.nn.Conv1d(2, 3, 3, padding=1, padding_mode='circular')", uniform([2, 7], 3)),
  layer("Conv1d replicate 'same' with an even kernel, groups 2, no bias", () => new nn.Conv1d(2, 4, 4, { padding: 'same', paddingMode: 'replicate', groups: 2, bias: false }), "torch.nn.Conv1d(2, 4, 4, padding='same', padding_mode='replicate', groups=2, bias=False)", SEQ),
  layer("Conv1d reflect 'same', dilation 2", () => new nn.Conv1d(2, 3, 3, { padding: 'same', paddingMode: 'reflect', dilation: 2 }), "torch.nn.Conv1d(2, 3, 3, padding='same', padding_mode='reflect', dilation=2)", SEQ),
  layer("Conv1d paddingMode 'zeros' as without it", () => new nn.Conv1d(2, 3, 3, { padding: 1, paddingMode: 'zeros' }), "torch.nn.Conv1d(2, 3, 3, padding=1, padding_mode='zeros')", SEQ),
  layer('Conv1d circular gradients', () => new nn.Conv1d(2, 3, 3, { padding: 2, paddingMode: 'circular' }), "torch.nn.Conv1d(2, 3, 3, padding=2, padding_mode='circular')", SEQ, true),
  layer('Conv2d reflect, per-dim padding', () => new nn.Conv2d(2, 3, 3, { padding: [1, 2], paddingMode: 'reflect' }), "torch.nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode='reflect')", IMAGE),
  layer("Conv2d circular 'same' with a [2, 3] kernel", () => new nn.Conv2d(2, 2, [2, 3], { padding: 'same', paddingMode: 'circular' }), "torch.nn.Conv2d(2, 2, (2, 3), padding='same', padding_mode='circular')", IMAGE),
  layer('Conv2d replicate gradients, stride 2', () => new nn.Conv2d(2, 2, 3, { padding: 1, paddingMode: 'replicate', stride: 2 }), "torch.nn.Conv2d(2, 2, 3, padding=1, padding_mode='replicate', stride=2)", IMAGE, true),
  layer('Conv2d reflect, unbatched', () => new nn.Conv2d(2, 2, 3, { padding: 1, paddingMode: 'reflect' }), "torch.nn.Conv2d(2, 2, 3, padding=1, padding_mode='reflect')", uniform([2, 4, 4], 4)),
  layer("Conv1d zeros 'same' with an even kernel (the odd unit on the right)", () => new nn.Conv1d(2, 3, 4, { padding: 'same' }), "torch.nn.Conv1d(2, 3, 4, padding='same')", SEQ, true),
  layer("Conv2d zeros 'same' with a [2, 4] kernel, dilation [1, 1]", () => new nn.Conv2d(2, 2, [2, 4], { padding: 'same', dilation: [1, 1] }), "torch.nn.Conv2d(2, 2, (2, 4), padding='same', dilation=(1, 1))", IMAGE, true),
  {
    name: "F.conv1d and F.conv2d 'same' with even kernels, groups and a bias by position",
    inputs: [SEQ, uniform([4, 1, 2], 10), IMAGE, uniform([2, 2, 2, 3], 11), uniform([2], 12)],
    js: (x, w, img, w2, b) => [tpu.nn.functional.conv1d(x, w, { padding: 'same', groups: 2 }), tpu.nn.functional.conv2d(img, w2, b, { padding: 'same' }), tpu.nn.functional.conv2d(img, w2, { padding: 'same', dilation: [2, 1] })],
    py: "[F.conv1d(x0, x1, padding='same', groups=2), F.conv2d(x2, x3, x4, padding='same'), F.conv2d(x2, x3, padding='same', dilation=(2, 1))]",
    rtol: 1e-5,
    atol: 1e-5,
  },
  {
    name: "F.pad 'circular': one, two and three dims, an amount equal to the dim",
    inputs: [uniform([1, 2, 5], 5), uniform([1, 1, 3, 4], 6), uniform([1, 1, 2, 3, 2], 7)],
    js: (a, b, c) => [tpu.nn.functional.pad(a, [2, 5], { mode: 'circular' }), tpu.nn.functional.pad(b, [1, 2, 3, 0], { mode: 'circular' }), tpu.nn.functional.pad(c, [1, 1, 0, 2, 1, 0], { mode: 'circular' })],
    py: "[F.pad(x0, (2, 5), mode='circular'), F.pad(x1, (1, 2, 3, 0), mode='circular'), F.pad(x2, (1, 1, 0, 2, 1, 0), mode='circular')]",
  },
  {
    name: "F.pad 'circular' gradient",
    inputs: [uniform([1, 2, 4], 8)],
    js: (x) => { x.requiresGrad_(); const y = tpu.nn.functional.pad(x, [3, 2], { mode: 'circular' }); y.mul(tpu.arange(y.numel()).reshape([...y.shape]).add(1)).sum().backward(); return x.grad!; },
    py: "x0.requires_grad_()\ny = F.pad(x0, (3, 2), mode='circular')\n(y * (torch.arange(y.numel()) + 1).reshape(y.shape)).sum().backward()\nresult = x0.grad",
  },
  { name: "F.pad 'circular' wider than the dim is an error", inputs: [uniform([1, 1, 3], 9)], js: (x) => tpu.nn.functional.pad(x, [4, 0], { mode: 'circular' }), py: "F.pad(x0, (4, 0), mode='circular')" },
];

torchTier('conv paddingMode and circular padding follow PyTorch', cases, { compile: true });

describe('paddingMode is checked', () => {
  it('names a bad mode and a strided same', () => {
    expect(() => new nn.Conv1d(2, 3, 3, { paddingMode: 'mirror' as never })).toThrow(/nn.Conv1d: paddingMode must be one of 'zeros', 'reflect', 'replicate', 'circular'; got string "mirror"/);
    expect(() => new nn.Conv2d(2, 3, 3, { padding: 'same', stride: 2, paddingMode: 'reflect' })).toThrow(/nn.Conv2d: padding 'same' needs stride 1; got \[2, 2\]/);
    expect(() => new nn.Conv2d(2, 3, 3, { padding: [1, 2, 3], paddingMode: 'reflect' })).toThrow(/nn.Conv2d: padding must be an integer ≥ 0 or 2 of them; got \[1,2,3\]/);
    expect(() => new nn.Conv1d(2, 3, 3, { padding_mode: 'reflect' } as never)).toThrow(/unknown option 'padding_mode' \(did you mean 'paddingMode'\?\)/);
  });
});
