// linalg.solve and solveEx with { left: false } (XA = B, PyTorch's left=False; once ignored, so
// AX = B was solved instead) against PyTorch 2.13, in every mode and under tpu.compile: batches,
// broadcasting, info of a singular A, gradients, and the vector B PyTorch refuses.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, grads, torchTier, uniform, type TorchCase } from './torch-tier.js';

const A = f32([[4, 1, 0], [1, 3, 1], [0, 1, 2]]);
const B = uniform([2, 3], 11);

const cases: TorchCase[] = [
  {
    name: 'solve with left false solves XA = B, and left true as before',
    inputs: [A, B, uniform([3, 3], 12)],
    js: (a, b, sq) => [tpu.linalg.solve(a, b, { left: false }), tpu.linalg.solve(a, sq, { left: false }), tpu.linalg.solve(a, sq, { left: true }), tpu.linalg.solve(a, sq)],
    py: '[torch.linalg.solve(x0, x1, left=False), torch.linalg.solve(x0, x2, left=False), torch.linalg.solve(x0, x2, left=True), torch.linalg.solve(x0, x2)]',
    rtol: 1e-5,
    atol: 1e-5,
  },
  {
    name: 'solve with left false over a batch of A and a broadcast B',
    inputs: [uniform([2, 3, 3], 13, 1, 2), uniform([4, 3], 14)],
    js: (a, b) => tpu.linalg.solve(a.add(tpu.eye(3).mul(3)), b, { left: false }),
    py: 'torch.linalg.solve(x0 + torch.eye(3) * 3, x1, left=False)',
    rtol: 1e-5,
    atol: 1e-5,
  },
  {
    name: 'solveEx with left false: result and info',
    inputs: [A, B],
    js: (a, b) => { const ok = tpu.linalg.solveEx(a, b, { left: false }); return [ok.result, ok.info]; },
    py: 'ok = torch.linalg.solve_ex(x0, x1, left=False)\nresult = [ok.result, ok.info]',
    rtol: 1e-5,
    atol: 1e-5,
  },
  grads('solve with left false: gradients of A and B', [A, B], (a, b) => tpu.linalg.solve(a, b, { left: false }), 'torch.linalg.solve(x0, x1, left=False)', { rtol: 1e-4, atol: 1e-4 }),
  { name: 'solve with left false of a vector B is an error', inputs: [A, f32([1, 2, 3])], js: (a, b) => tpu.linalg.solve(a, b, { left: false }), py: 'torch.linalg.solve(x0, x1, left=False)' },
  { name: 'solve with left false of B with the wrong column count is an error', inputs: [A, uniform([3, 2], 15)], js: (a, b) => tpu.linalg.solve(a, b, { left: false }), py: 'torch.linalg.solve(x0, x1, left=False)' },
];

torchTier('linalg.solve and solveEx take left', cases, { compile: true });

// debug mode checks the NaN of a singular A's result, as for solveEx's other forms (linalg-singular.test.ts)
it('solveEx with left false gives the info of a singular A (strict): 2, its zero pivot', async () => {
  tpu.mode('strict');
  const { info } = tpu.linalg.solveEx(tpu.tensor([[1, 2], [2, 4]]), tpu.tensor([[1, 1], [0, 1]]), { left: false });
  expect(await info.array()).toBe(2); // PyTorch 2.13: torch.linalg.solve_ex(A, B, left=False).info == 2
});

describe('solve names bad left options', () => {
  it('says which option and what it takes', () => {
    const a = tpu.eye(2);
    expect(() => tpu.linalg.solve(a, tpu.ones([2, 2]), { right: true } as never)).toThrow(/linalg.solve: unknown option 'right'.*'left'/);
    expect(() => tpu.linalg.solve(a, tpu.ones([2, 2]), { left: 0 } as never)).toThrow(/linalg.solve: left must be a boolean; got number 0/);
    expect(() => tpu.linalg.solveEx(a, tpu.ones([2]), { left: false })).toThrow(/linalg.solveEx: with left false \(XA = B\) B must be matrices with 2 columns .* got B \[2\], a vector/);
    expect(() => tpu.linalg.solveEx(a, tpu.ones([2, 2]), { checkErrors: true, left: 'no' } as never)).toThrow(/linalg.solveEx: left must be a boolean/);
  });
});
