// The gradient of a DTensor's bfloat16 mean of a float32 input is the gathered tensor's, bit for
// bit: PyTorch's mean(dtype=torch.bfloat16) divides it by the count in bfloat16, then casts it to
// float32. Reduced dims sharded unevenly and evenly, an unsharded one, a Partial, a 2-d mesh, in
// every mode, against PyTorch 2.13 on the plain tensor (its own DTensor gives the plain tensor's
// gradient for these; the forward values are dtensor-options.test.ts').
import { tpu, type DTensor, type Placement } from 'tpu-kernel/runtime';
import { seq, torchTier, weightedGradPy, type TorchCase } from '../torch/torch-tier.js';
import { mesh, mesh2d, R, S0, S1 } from '../support/meshes.js';

const P = tpu.Partial('sum');
// not bfloat16 values, and no reduced count below (10, 12, 6, 60) a power of two: bfloat16(w) / n
// rounds to bfloat16 otherwise than to float32
const W6 = [0.3, -1.7, 2.9, 1.1, 0.7, -5.3];
const W10 = [0.7, -5.3, 1.1, 2.3, -0.9, 3.7, 0.1, -2.6, 4.1, 1.9];

/** The gradient of Σ w·f(d) with respect to the DTensor leaf d laid out as `placements`, w a Replicate(). */
function meanGrad(name: string, rows: number, placements: Placement[], js: (d: DTensor) => DTensor, py: string, weights: number[] | number[][]): TorchCase {
  const m = placements.length === 2 ? mesh2d : mesh;
  return {
    name,
    inputs: [seq('float32', [rows, 6], 0.37, -11)],
    js: (x) => {
      const d = tpu.distributeTensor(x.requiresGrad_(), m, placements);
      js(d).mul(tpu.distributeTensor(tpu.tensor(weights), m, placements.map(() => R))).sum().backward();
      return d.grad!.fullTensor();
    },
    py: weightedGradPy(py, weights),
    rtol: 0,
    atol: 0,
  };
}

const cases: TorchCase[] = [
  meanGrad('over the unevenly sharded dim', 10, [S0], (d) => d.mean(0, { dtype: 'bfloat16' }), 'x.mean(0, dtype=torch.bfloat16)', W6),
  meanGrad('over the evenly sharded dim', 12, [S0], (d) => d.mean(0, { dtype: 'bfloat16' }), 'x.mean(0, dtype=torch.bfloat16)', W6),
  meanGrad('over an unsharded dim, keepdim', 10, [S0], (d) => d.mean(1, { keepdim: true, dtype: 'bfloat16' }), 'x.mean(1, keepdim=True, dtype=torch.bfloat16)', W10.map((w) => [w])),
  meanGrad('of a Partial', 10, [P], (d) => d.mean(1, { dtype: 'bfloat16' }), 'x.mean(1, dtype=torch.bfloat16)', W10),
  meanGrad('of everything on a 2-d mesh', 10, [S0, S1], (d) => d.mean({ dtype: 'bfloat16' }), 'x.mean(dtype=torch.bfloat16)', [0.3]),
];

torchTier('DTensor mean gradient with bfloat16 dtype vs PyTorch', cases);
