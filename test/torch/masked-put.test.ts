// x[mask] = v with a value that needs no count of the picked positions (a number, a 0-d tensor,
// one row broadcast to every picked row), and indexPut's accumulate with such a value, against
// PyTorch 2.13 in every mode and under tpu.compile, which refuses any read of device values: the
// write takes no sync (runtime/ops/masked-put.ts). Gradients of x and of the value too.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bool, f32, i32, torchTier, type TorchCase } from './torch-tier.js';

const X = f32([[-1, 2, -3], [4, -5, 6], [0.5, 0, -0.25]]);
const NEG = bool([[true, false, true], [false, true, false], [false, false, true]]);
const ROWS = bool([true, false, true]);

const cases: TorchCase[] = [
  {
    name: 'x[mask] = 0 over every dim',
    inputs: [X, NEG],
    js: (x, m) => { const y = x.clone(); y.setItem([m], 0); return y; },
    py: 'y = x0.clone()\ny[x1] = 0\nresult = y',
  },
  {
    name: 'x[rows] = a row, broadcast to each picked row',
    inputs: [X, ROWS, f32([7, 8, 9])],
    js: (x, m, v) => { const y = x.clone(); y.setItem([m], v); return y; },
    py: 'y = x0.clone()\ny[x1] = x2\nresult = y',
  },
  {
    name: 'x[rows] = a [1, C] row and a 0-d value',
    inputs: [X, ROWS, f32([[7, 8, 9]]), f32(-2)],
    js: (x, m, v, s) => { const y = x.clone(); y.setItem([m], v); const z = x.clone(); z.indexPut_([m], s); return [y, z]; },
    py: 'y = x0.clone()\ny[x1] = x2\nz = x0.clone()\nz.index_put_((x1,), x3)\nresult = (y, z)',
  },
  {
    name: 'indexPut with accumulate adds a number and a row at the mask',
    inputs: [X, ROWS, NEG, f32([1, 10, 100])],
    js: (x, r, m, v) => [x.indexPut([m], 0.5, true), x.indexPut([r], v, { accumulate: true })],
    py: '(x0.index_put((x2,), torch.tensor(0.5), accumulate=True), x0.index_put((x1,), x3, accumulate=True))',
  },
  {
    name: 'masks of none and of all',
    inputs: [X, bool([[false, false, false], [false, false, false], [false, false, false]]), bool([true, true, true])],
    js: (x, none, all) => { const y = x.clone(); y.setItem([none], 3); const z = x.clone(); z.setItem([all], 4); return [y, z]; },
    py: 'y = x0.clone()\ny[x1] = 3\nz = x0.clone()\nz[x2] = 4\nresult = (y, z)',
  },
  {
    name: 'int and bool tensors take a number',
    inputs: [i32([[1, -2], [3, -4]]), bool([[true, false], [false, true]])],
    js: (x, m) => { const y = x.clone(); y.setItem([y.lt(0)], 7); const b = m.clone(); b.setItem([m], false); return [y, b]; },
    py: 'y = x0.clone()\ny[y < 0] = 7\nb = x1.clone()\nb[x1] = False\nresult = (y, b)',
  },
  {
    name: 'gradients of x and of the written row',
    inputs: [X, ROWS, f32([7, 8, 9])],
    js: (x, m, v) => {
      x!.requiresGrad_();
      v!.requiresGrad_();
      const y = x!.mul(2);
      y.setItem([m!], v!.mul(3));
      y.mul(tpu.arange(1, 10).to('float32').reshape([3, 3])).sum().backward();
      return [x!.grad!, v!.grad!];
    },
    py: 'x0.requires_grad_()\nx2.requires_grad_()\ny = x0 * 2\ny[x1] = x2 * 3\n(y * torch.arange(1, 10).float().reshape(3, 3)).sum().backward()\nresult = (x0.grad, x2.grad)',
    signedZeros: false,
  },
];

torchTier('x[mask] = v without a sync', cases, { compile: true });

describe('x[mask] = v: the values that need the count', () => {
  it('still writes one value per picked position in eager modes (a sync for the count), as PyTorch', () => {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.mode(mode);
      try {
        const y = tpu.tensor([[1, 2], [3, 4], [5, 6]]);
        y.setItem([tpu.tensor([true, false, true])], tpu.tensor([[10, 20], [50, 60]]));
        expect(y.tolist(), mode).toEqual([[10, 20], [3, 4], [50, 60]]);
      } finally {
        tpu.mode('strict');
      }
    }
  });
});
