// tpu.addcmul, addcdiv (+ methods and in-place forms, { value } as PyTorch's value=) and
// baddbmm ({ beta, alpha }) against PyTorch 2.13: broadcasting, dtypes, gradients, errors, in
// every mode and under tpu.compile.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, grads, i32, torchTier, uniform, type TorchCase } from './torch-tier.js';

const A = uniform([2, 3], 30, -2, 2);
const B = uniform([2, 3], 31, -2, 2);
const ROW = uniform([3], 32, 0.5, 2);
const COL = uniform([2, 1], 33, -1, 1);

const cases: TorchCase[] = [
  {
    name: 'addcmul and addcdiv: default value, value by name, broadcasting all three',
    inputs: [A, B, ROW, COL],
    js: (a, b, r, c) => [tpu.addcmul(a, b, r), tpu.addcmul(c, a, r, { value: -0.5 }), a.addcmul(c, r, { value: 3 }),
      tpu.addcdiv(a, b, r), tpu.addcdiv(c, a, r, { value: 0.25 }), r.addcdiv(a, c.add(2), { value: -2 })],
    py: '[torch.addcmul(x0, x1, x2), torch.addcmul(x3, x0, x2, value=-0.5), x0.addcmul(x3, x2, value=3), torch.addcdiv(x0, x1, x2), torch.addcdiv(x3, x0, x2, value=0.25), x2.addcdiv(x0, x3 + 2, value=-2)]',
  },
  {
    name: 'addcmul and addcdiv in bfloat16 and int32',
    inputs: [A, B, ROW, i32([[1, -2, 3], [4, 5, -6]])],
    js: (a, b, r, n) => [tpu.addcmul(a.to('bfloat16'), b.to('bfloat16'), r.to('bfloat16'), { value: 0.3 }), tpu.addcdiv(a.to('bfloat16'), b.to('bfloat16'), r.to('bfloat16')),
      tpu.addcmul(n, n, n, { value: 2 }), tpu.addcmul(n, a, n), tpu.addcdiv(n, a, r)],
    py: '[torch.addcmul(x0.bfloat16(), x1.bfloat16(), x2.bfloat16(), value=0.3), torch.addcdiv(x0.bfloat16(), x1.bfloat16(), x2.bfloat16()), torch.addcmul(x3, x3, x3, value=2), torch.addcmul(x3, x0, x3), torch.addcdiv(x3, x0, x2)]',
  },
  {
    name: "addcmul_ and addcdiv_: Adam's second moment and step, written in place",
    inputs: [A, B, ROW],
    js: (p, g, v) => { const sq = v.clone().mul_(0.999).addcmul_(g, g, { value: 0.001 }); const q = p.clone(); q.addcdiv_(g, sq.sqrt().add(1e-8), { value: -0.01 }); return [sq, q]; },
    py: 'sq = x2.clone().mul_(0.999).addcmul_(x1, x1, value=0.001)\nq = x0.clone()\nq.addcdiv_(x1, sq.sqrt() + 1e-8, value=-0.01)\nresult = [sq, q]',
  },
  { name: 'addcmul_ that would grow its target is an error', inputs: [ROW, A, B], js: (r, a, b) => r.clone().addcmul_(a, b), py: 'x0.clone().addcmul_(x1, x2)' },
  { name: 'addcdiv of two integer tensors is an error', inputs: [i32([1, 2]), i32([3, 4])], js: (a, b) => tpu.addcdiv(a.to('float32'), a, b), py: 'torch.addcdiv(x0.float(), x0, x1)' },
  grads('addcmul gradients of all three (broadcast)', [A, ROW, COL], (a, r, c) => tpu.addcmul(a, r, c, { value: -1.5 }), 'torch.addcmul(x0, x1, x2, value=-1.5)'),
  grads('addcdiv gradients of all three (broadcast)', [A, COL, ROW], (a, c, r) => tpu.addcdiv(a, c, r, { value: 2 }), 'torch.addcdiv(x0, x1, x2, value=2)', { rtol: 1e-5, atol: 1e-5 }),
  {
    name: 'baddbmm: defaults, beta and alpha, a broadcast input, beta 0 ignoring NaN',
    inputs: [uniform([2, 3, 4], 34), uniform([2, 4, 2], 35), uniform([2, 3, 2], 36), uniform([3, 1], 37), f32([[NaN, 1]])],
    js: (b1, b2, full, col, nan) => [tpu.baddbmm(full, b1, b2), tpu.baddbmm(full, b1, b2, { beta: 0.5, alpha: -2 }), col.baddbmm(b1, b2, { alpha: 0.1 }),
      tpu.baddbmm(nan, b1, b2, { beta: 0 }), tpu.baddbmm(full.to('bfloat16'), b1.to('bfloat16'), b2.to('bfloat16'), { beta: 2 })],
    py: '[torch.baddbmm(x2, x0, x1), torch.baddbmm(x2, x0, x1, beta=0.5, alpha=-2), x3.baddbmm(x0, x1, alpha=0.1), torch.baddbmm(x4, x0, x1, beta=0), torch.baddbmm(x2.bfloat16(), x0.bfloat16(), x1.bfloat16(), beta=2)]',
    rtol: 1e-5,
    atol: 1e-5,
  },
  grads('baddbmm gradients of input and both batches', [uniform([1, 3, 2], 38), uniform([2, 3, 4], 39), uniform([2, 4, 2], 40)], (i, b1, b2) => tpu.baddbmm(i, b1, b2, { beta: 0.5, alpha: 3 }), 'torch.baddbmm(x0, x1, x2, beta=0.5, alpha=3)', { rtol: 1e-5, atol: 1e-5 }),
  { name: 'baddbmm of mismatched batches is an error', inputs: [uniform([2, 3, 2], 41), uniform([2, 3, 4], 42), uniform([3, 4, 2], 43)], js: (i, b1, b2) => tpu.baddbmm(i, b1, b2), py: 'torch.baddbmm(x0, x1, x2)' },
];

torchTier('addcmul, addcdiv and baddbmm follow PyTorch', cases, { compile: true });

describe('addcmul, addcdiv and baddbmm name bad arguments', () => {
  it('names the argument and what came', () => {
    const x = tpu.ones([2]);
    expect(() => tpu.addcmul(x, x, 2 as never)).toThrow(/addcmul: tensor2 must be a tensor; got number 2/);
    expect(() => x.addcdiv(x, x, { alpha: 2 } as never)).toThrow(/addcdiv: unknown option 'alpha'; addcdiv accepts 'value'/);
    expect(() => tpu.addcmul(x, x, x, { value: '2' as never })).toThrow(/addcmul: value must be a number; got "2"/);
    expect(() => tpu.addcmul(tpu.ones([2], { dtype: 'int32' }), tpu.ones([2], { dtype: 'int32' }), tpu.ones([2], { dtype: 'int32' }), { value: 0.5 })).toThrow(/addcmul: value must be an integer for int32 tensors/);
    expect(() => tpu.addcdiv(x, tpu.ones([2], { dtype: 'int32' }), tpu.ones([2], { dtype: 'int32' }))).toThrow(/addcdiv: tensor1 and tensor2 must not both be integer \(int32 and int32\)/);
    expect(() => tpu.baddbmm(tpu.ones([2, 2]), tpu.ones([2, 2]), tpu.ones([2, 2, 2]))).toThrow(/baddbmm: batch1 and batch2 must be 3-D; got batch1 \[2, 2\] and batch2 \[2, 2, 2\]/);
    expect(() => tpu.baddbmm(tpu.ones([2, 1, 1]), tpu.ones([2, 1, 3]), tpu.ones([2, 2, 1]))).toThrow(/baddbmm: batch1 \[2, 1, 3\] and batch2 \[2, 2, 1\] cannot be multiplied/);
    expect(() => tpu.baddbmm(tpu.ones([2, 1, 1]), tpu.ones([2, 1, 3]), tpu.ones([2, 3, 1]), { gamma: 1 } as never)).toThrow(/baddbmm: unknown option 'gamma'; baddbmm accepts 'beta', 'alpha'/);
    expect(() => tpu.baddbmm(tpu.ones([2, 5, 1]), tpu.ones([2, 1, 3]), tpu.ones([2, 3, 1]))).toThrow(/baddbmm: /);
  });
});
