// lgamma, digamma, polygamma(1, ·) and erfinv against PyTorch 2.13 across their domains: a
// dense grid, poles, negative non-integers, tiny and huge arguments, ±inf, NaN and -0; integer,
// bool and bfloat16 inputs; and gradients (d lgamma = digamma, d digamma = polygamma(1)).
import { expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
/** -20 to 20 in steps of 0.1, off the integers; values by the roots of lgamma and digamma. */
const GRID = f32([...Array.from({ length: 401 }, (_, i) => -20 + i * 0.1 + 0.0137), 1.4616321, 1.003, 2.003, 0.999, -2.4570248, -2.7476826, -0.5, 0.5, 3.999, 4, 5.999, 6]);
/** Tiny to huge magnitudes, and negative half-integers up to a million. */
const SCALES = f32([...Array.from({ length: 21 }, (_, i) => 10 ** (i * 3 - 30)), ...Array.from({ length: 7 }, (_, i) => -(10 ** i) - 0.5), 1e38, 3e38]);
const POLES = f32([0, -0, -1, -2, -7, -1e10, 1, 2, INF, -INF, N]);
/** erfinv: the open interval, its ends approached by powers of 2, and beyond. */
const UNIT = f32([...Array.from({ length: 201 }, (_, i) => i / 100 - 1), ...Array.from({ length: 23 }, (_, k) => 1 - 2 ** -(k + 1)), ...Array.from({ length: 23 }, (_, k) => -1 + 2 ** -(k + 1)), 1e-20, -1e-30, 0, -0, 1.5, -2, INF, -INF, N]);

const cases: TorchCase[] = [
  { name: 'lgamma across the domain', inputs: [GRID, SCALES], js: (g, s) => [g.lgamma(), tpu.lgamma(s)], py: '(x0.lgamma(), torch.lgamma(x1))' },
  { name: 'lgamma at the poles, ±inf and NaN', inputs: [POLES], js: (x) => x.lgamma(), py: 'x0.lgamma()' },
  { name: 'digamma across the domain', inputs: [GRID, SCALES], js: (g, s) => [g.digamma(), tpu.digamma(s), tpu.polygamma(0, g)], py: '(x0.digamma(), torch.digamma(x1), torch.polygamma(0, x0))' },
  { name: 'digamma at the poles, ±0, ±inf and NaN', inputs: [POLES], js: (x) => x.digamma(), py: 'x0.digamma()' },
  // against float64: PyTorch's float32 polygamma(1) takes sin(πx) of the rounded product πx, 1e-4 off near the poles
  { name: 'polygamma(1) across the domain', inputs: [GRID, f32([1e-30, 1e-3, 10, 1e6, 1e30, -1000000.5, -0.999, 0, -0, INF, N])], js: (g, s) => [g.polygamma(1), tpu.polygamma(1, s)], py: '(x0.double().polygamma(1).float(), torch.polygamma(1, x1.double()).float())' },
  { name: 'erfinv across (-1, 1), at ±1 and beyond', inputs: [UNIT], js: (x) => [x.erfinv(), tpu.erfinv(x)], py: '(x0.erfinv(), torch.erfinv(x0))' },
  { name: 'special functions of ints, int64 and bools give float32', inputs: [i32([1, 2, 5, 0, -3]), i64([3, 10, 100]), bool([true, false])], js: (i, l, b) => [i.lgamma(), l.digamma(), b.erfinv(), i.lgamma().dtype === 'float32' ? l.polygamma(1) : l], py: '(x0.lgamma(), x1.digamma(), x2.erfinv(), torch.polygamma(1, x1))' },
  { name: 'special functions of bf16 are computed in float32 and rounded once', inputs: [bf16([0.3, 2.5, -1.5, 7, 100, 0.01]), bf16([0.3, -0.9, 0.99, 0])], js: (h, u) => [h.lgamma(), h.digamma(), h.polygamma(1), u.erfinv()], py: '(x0.lgamma(), x0.digamma(), torch.polygamma(1, x0), x1.erfinv())' },
  { name: 'polygamma of a negative order is an error', inputs: [f32([1, 2])], js: (x) => x.polygamma(-1), py: 'x0.polygamma(-1)' },
  weightedGrad('lgamma gradient is digamma', f32([[0.5, 3, -2.5, 20], [1e-3, 1.4616, -0.3, 7]]), (x) => x.lgamma(), 'x.lgamma()', [[1, -2, 3, 0.5], [2, 1, -1, 4]]),
  weightedGrad('digamma gradient is polygamma(1)', f32([[0.5, 3, -2.5, 20], [1e-3, 1.4616, -0.3, 7]]), (x) => x.digamma(), 'x.digamma()', [[1, -2, 3, 0.5], [2, 1, -1, 4]], { atol: 1e-4 }),
  weightedGrad('erfinv gradient', f32([[0, 0.5, -0.9, 0.999], [-0.2, 0.7, 1e-8, -0.99]]), (x) => x.erfinv(), 'x.erfinv()', [[1, -2, 3, 0.5], [2, 1, -1, 4]], { rtol: 2e-5 }),
];

torchTier('lgamma, digamma, polygamma and erfinv follow PyTorch', cases, { compile: true });

it("polygamma of order 2 and polygamma(1)'s gradient (digamma's second derivative) are clear errors, not wrong values", () => {
  const x = tpu.tensor([0.5, 2], { requiresGrad: true });
  expect(() => x.polygamma(2)).toThrow('polygamma: n must be 0 or 1 (higher orders are not implemented); got 2');
  expect(() => x.polygamma(1).sum().backward()).toThrow(/polygamma: the gradient of polygamma\(1, x\).*needs polygamma\(2, x\), which is not implemented/);
});
