// In-place ops inside an autograd graph against PyTorch 2.13: gradients flow through them
// (a non-leaf's new value is the op applied to its old one), and backward raises PyTorch's
// "modified by an inplace operation" only where a value saved for it was changed.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, ids, torchTier, type TorchCase } from './torch-tier.js';

const X = f32([0.5, 2, -1]);
const W = f32([1, 2, 3]);
/** x.requiresGrad_(), f(x) gives the loss; the case's outputs are x.grad and extras. */
const gradOf = (f: (x: Tensor) => Tensor) => (x: Tensor) => {
  x.requiresGrad_();
  f(x).sum().backward();
  return x.grad!;
};
const pyGrad = (body: string) => `x = x0.requires_grad_()\n${body}\nloss.sum().backward()\nresult = x.grad`;

const cases: TorchCase[] = [
  { name: 'add_ on a non-leaf', inputs: [X], js: gradOf((x) => x.mul(2).add_(1)), py: pyGrad('y = x.mul(2)\ny.add_(1)\nloss = y') },
  { name: 'a chain of in-place ops on a non-leaf', inputs: [X], js: gradOf((x) => { const y = x.mul(x); y.mul_(3); y.sub_(x); return y.div_(2); }), py: pyGrad('y = x.mul(x)\ny.mul_(3)\ny.sub_(x)\ny.div_(2)\nloss = y') },
  { name: 'clamp_ of a non-leaf uses its old value', inputs: [X], js: gradOf((x) => x.mul(1).clamp_(0, 1)), py: pyGrad('y = x.mul(1)\ny.clamp_(0, 1)\nloss = y') },
  { name: 'pow_ of a non-leaf reads its old value', inputs: [X], js: gradOf((x) => x.mul(2).pow_(3)), py: pyGrad('y = x.mul(2)\ny.pow_(3)\nloss = y') },
  { name: 'remainder_ of a non-leaf by a number', inputs: [X], js: gradOf((x) => x.mul(3).remainder_(2).mul(x)), py: pyGrad('y = x.mul(3)\ny.remainder_(2)\nloss = y * x') },
  { name: 'div_ by the leaf itself', inputs: [X], js: gradOf((x) => x.add(1).div_(x)), py: pyGrad('y = x.add(1)\ny.div_(x)\nloss = y') },
  {
    name: 'mul_ and div_ by another leaf',
    inputs: [X, W],
    js: (x, w) => { x.requiresGrad_(); w.requiresGrad_(); const y = x.mul(2); y.mul_(w); y.div_(w.add(1)); y.sum().backward(); return [x.grad!, w.grad!]; },
    py: 'x = x0.requires_grad_()\nw = x1.requires_grad_()\ny = x.mul(2)\ny.mul_(w)\ny.div_(w.add(1))\ny.sum().backward()\nresult = (x.grad, w.grad)',
  },
  { name: 'a value saved by exp then changed is an error', inputs: [X], js: gradOf((x) => x.exp().add_(1)), py: pyGrad('y = x.exp()\ny.add_(1)\nloss = y') },
  { name: 'a value saved by mul then changed is an error', inputs: [X], js: gradOf((x) => { const y = x.mul(2); const z = y.mul(y); y.add_(1); return z; }), py: pyGrad('y = x.mul(2)\nz = y.mul(y)\ny.add_(1)\nloss = z') },
  { name: 'a value add did not save may change', inputs: [X], js: gradOf((x) => { const y = x.mul(2); const z = y.add(3); y.mul_(5); return z.mul(y); }), py: pyGrad('y = x.mul(2)\nz = y.add(3)\ny.mul_(5)\nloss = z * y') },
  { name: 'matmul by a constant saved no value to change', inputs: [X], js: gradOf((x) => { const h = x.mul(2).reshape([1, 3]); const out = h.matmul(tpu.tensor([[1, 2], [3, 4], [5, 6]])); h.add_(1); return out; }), py: pyGrad('h = x.mul(2).reshape(1, 3)\nout = h @ torch.tensor([[1., 2.], [3., 4.], [5., 6.]])\nh.add_(1)\nloss = out') },
  { name: 'mul_ through a view of a non-leaf', inputs: [X], js: gradOf((x) => { const y = x.mul(2); y.at(0).mul_(3); return y; }), py: pyGrad('y = x.mul(2)\ny[0].mul_(3)\nloss = y') },
  { name: 'a view read after its base was written', inputs: [X], js: gradOf((x) => { const y = x.mul(2); const v = y.at('1:'); y.add_(1); return v.mul(v); }), py: pyGrad('y = x.mul(2)\nv = y[1:]\ny.add_(1)\nloss = v * v') },
  { name: 'a view saved then its base written is an error', inputs: [X], js: gradOf((x) => { const y = x.mul(2); const v = y.at('1:'); const w = v.mul(v); y.add_(1); return w; }), py: pyGrad('y = x.mul(2)\nv = y[1:]\nw = v * v\ny.add_(1)\nloss = w') },
  {
    name: 'fill_ of a non-leaf cuts the gradient to its old value',
    inputs: [X],
    js: (x) => { x.requiresGrad_(); const y = x.mul(2); y.fill_(3); y.mul(x).sum().backward(); return [x.grad!, tpu.tensor([y.requiresGrad, !y.isLeaf])]; },
    py: 'x = x0.requires_grad_()\ny = x.mul(2)\ny.fill_(3)\n(y * x).sum().backward()\nresult = (x.grad, torch.tensor([y.requires_grad, y.grad_fn is not None]))',
  },
  // a write that does not read the old value: what the old value came from gets zeros, not none
  { name: 'copy_ of a constant over a non-leaf gives its leaf zeros', inputs: [W], js: gradOf((w) => { const y = w.mul(1); y.copy_(tpu.tensor([5, 6, 7])); return y; }), py: pyGrad('y = x.mul(1)\ny.copy_(torch.tensor([5., 6, 7]))\nloss = y') },
  {
    name: 'copy_ of a value that requires grad: the old value gets zeros, the source the gradient',
    inputs: [X, W],
    js: (x, s) => { x.requiresGrad_(); s.requiresGrad_(); const y = x.mul(2); y.copy_(s.mul(3)); y.mul(tpu.tensor([1, 2, 3])).sum().backward(); return [x.grad!, s.grad!]; },
    py: 'x = x0.requires_grad_()\ns = x1.requires_grad_()\ny = x.mul(2)\ny.copy_(s * 3)\n(y * torch.tensor([1., 2, 3])).sum().backward()\nresult = (x.grad, s.grad)',
  },
  { name: 'copy_ of a broadcast int source casts it', inputs: [X], js: gradOf((x) => { const y = x.mul(2); y.copy_(tpu.tensor(4, { dtype: 'int32' })); return y.mul(x); }), py: pyGrad('y = x.mul(2)\ny.copy_(torch.tensor(4, dtype=torch.int32))\nloss = y * x') },
  { name: 'copy_ of a value computed from the old one', inputs: [X], js: gradOf((x) => { const y = x.mul(2); y.copy_(y.mul(3)); return y.mul(tpu.tensor([1, 2, 3])); }), py: pyGrad('y = x.mul(2)\ny.copy_(y * 3)\nloss = y * torch.tensor([1., 2, 3])') },
  { name: 'fill_ and zero_ of a whole non-leaf give its leaf zeros', inputs: [X, W],
    js: (x, w) => { x.requiresGrad_(); w.requiresGrad_(); const y = x.mul(2); y.fill_(3); const z = w.mul(3); z.zero_(); y.add(z).sum().backward(); return [x.grad!, w.grad!]; },
    py: 'x = x0.requires_grad_()\nw = x1.requires_grad_()\ny = x.mul(2)\ny.fill_(3)\nz = w.mul(3)\nz.zero_()\n(y + z).sum().backward()\nresult = (x.grad, w.grad)' },
  { name: 'zero_ of a value exp saved: backward reaches the old value, PyTorch\'s error', inputs: [W],
    js: (w) => { w.requiresGrad_(); const z = w.exp(); z.zero_(); z.sum().backward(); return z; }, py: 'w = x0.requires_grad_()\nz = w.exp()\nz.zero_()\nz.sum().backward()\nresult = z' },
  {
    name: 'fill_ with a 0-d value that requires grad',
    inputs: [X, f32(3)],
    js: (x, v) => { x.requiresGrad_(); v.requiresGrad_(); const y = x.mul(2); y.fill_(v); y.mul(tpu.tensor([1, 2, 3])).sum().backward(); return [x.grad!, v.grad!]; },
    py: 'x = x0.requires_grad_()\nv = x1.requires_grad_()\ny = x.mul(2)\ny.fill_(v)\n(y * torch.tensor([1., 2, 3])).sum().backward()\nresult = (x.grad, v.grad)',
  },
  { name: 'copy_ through a transposed view of the whole non-leaf', inputs: [f32([[1, 2], [3, 4]])], js: gradOf((x) => { const y = x.mul(2); y.T.copy_(tpu.tensor([[9, 9], [1, 1]])); return y; }), py: pyGrad('y = x.mul(2)\ny.T.copy_(torch.tensor([[9., 9], [1, 1]]))\nloss = y') },
  { name: 'maskedFill_ and zero_ of views of a non-leaf', inputs: [X], js: gradOf((x) => { const y = x.mul(x); y.maskedFill_(tpu.tensor([true, false, false]), 0); y.at('2:').zero_(); return y; }), py: pyGrad('y = x.mul(x)\ny.masked_fill_(torch.tensor([True, False, False]), 0)\ny[2:].zero_()\nloss = y') },
  {
    name: 'copy_ into a view of a tensor without grad',
    inputs: [X],
    js: (x) => { x.requiresGrad_(); const b = tpu.zeros([4]); b.at('1:').copy_(x.mul(2)); b.mul(b).sum().backward(); return [x.grad!, tpu.tensor([b.requiresGrad])]; },
    py: 'x = x0.requires_grad_()\nb = torch.zeros(4)\nb[1:].copy_(x.mul(2))\n(b * b).sum().backward()\nresult = (x.grad, torch.tensor([b.requires_grad]))',
  },
  {
    name: 'set on an index of a non-leaf',
    inputs: [X, W],
    js: (x, w) => { x.requiresGrad_(); w.requiresGrad_(); const y = x.mul(1); y.at(1).set(w.at(2).mul(4)); y.mul(y).sum().backward(); return [x.grad!, w.grad!]; },
    py: 'x = x0.requires_grad_()\nw = x1.requires_grad_()\ny = x.mul(1)\ny[1] = w[2] * 4\n(y * y).sum().backward()\nresult = (x.grad, w.grad)',
  },
  {
    name: 'a detached view stays without grad when its base is written',
    inputs: [X],
    js: (x) => { x.requiresGrad_(); const y = x.mul(2); const d = y.detach(); y.add_(1); return [d, tpu.tensor([d.requiresGrad])]; },
    py: 'x = x0.requires_grad_()\ny = x.mul(2)\nd = y.detach()\ny.add_(1)\nresult = (d, torch.tensor([d.requires_grad]))',
  },
  // Leaves written under noGrad (an optimizer step) between forward and backward: PyTorch's
  // saved leaves carry version counters too; only a rule that reads the changed value raises.
  {
    name: 'a linear weight written before backward is an error when the input needs its gradient',
    inputs: [f32([[0.5, 2]]), f32([[1, 2], [3, 4]])],
    js: (x, w) => { x.requiresGrad_(); w.requiresGrad_(); const y = tpu.nn.functional.linear(x, w); tpu.noGrad(() => w.sub_(1)); y.sum().backward(); return x.grad!; },
    py: 'x = x0.requires_grad_()\nw = x1.requires_grad_()\ny = F.linear(x, w)\nwith torch.no_grad(): w.sub_(1)\ny.sum().backward()\nresult = x.grad',
  },
  {
    name: 'a linear weight written before backward passes when only the weight needs a gradient',
    inputs: [f32([[0.5, 2], [1, -1]]), f32([[1, 2], [3, 4]]), f32([1, -1])],
    js: (x, w, b) => { w.requiresGrad_(); b.requiresGrad_(); const y = tpu.nn.functional.linear(x, w, b); tpu.noGrad(() => { w.sub_(1); b.mul_(2); }); y.mul(y.detach()).sum().backward(); return [w.grad!, b.grad!]; },
    py: 'w = x1.requires_grad_()\nb = x2.requires_grad_()\ny = F.linear(x0, w, b)\nwith torch.no_grad():\n  w.sub_(1)\n  b.mul_(2)\n(y * y.detach()).sum().backward()\nresult = (w.grad, b.grad)',
  },
  {
    name: 'an SGD step between forward and backward of a linear layer is an error',
    inputs: [f32([[0.5, 2]]), f32([[1, 2], [3, 4]])],
    js: (x, w) => {
      x.requiresGrad_(); w.requiresGrad_();
      const opt = new tpu.optim.SGD([w], { lr: 0.1 });
      tpu.nn.functional.linear(x, w).sum().backward();
      const y = tpu.nn.functional.linear(x.mul(2), w);
      opt.step();
      y.sum().backward();
      return x.grad!;
    },
    py: 'x = x0.requires_grad_()\nw = x1.requires_grad_()\nopt = torch.optim.SGD([w], lr=0.1)\nF.linear(x, w).sum().backward()\ny = F.linear(x * 2, w)\nopt.step()\ny.sum().backward()\nresult = x.grad',
  },
  {
    name: 'backward, step, zeroGrad, forward: the usual loop reads each step\'s weight',
    inputs: [f32([[0.5, 2], [1, -1]]), f32([[1, 2], [3, 4]])],
    js: (x, w) => {
      x.requiresGrad_(); w.requiresGrad_();
      const opt = new tpu.optim.SGD([w], { lr: 0.1, momentum: 0.9 });
      for (let i = 0; i < 3; i++) {
        opt.zeroGrad();
        tpu.nn.functional.linear(x, w).tanh().sum().backward();
        opt.step();
      }
      return [w, x.grad!];
    },
    py: 'x = x0.requires_grad_()\nw = x1.requires_grad_()\nopt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\nfor i in range(3):\n  opt.zero_grad()\n  F.linear(x, w).tanh().sum().backward()\n  opt.step()\nresult = (w, x.grad)',
  },
  {
    name: 'a conv2d weight written before a backward through layerNorm is an error',
    inputs: [f32([[[[1, 2], [3, -1]]]]), f32([[[[0.5, -1], [2, 1]]]]), f32([2, -1])],
    js: (x, w, g) => {
      x.requiresGrad_(); w.requiresGrad_(); g.requiresGrad_();
      const y = tpu.nn.functional.layerNorm(tpu.nn.functional.conv2d(x, w, { padding: 1 }).reshape([9, 1]).mul(tpu.ones([1, 2])), [2], { weight: g });
      tpu.noGrad(() => w.mul_(2));
      y.sum().backward();
      return x.grad!;
    },
    py: 'x = x0.requires_grad_()\nw = x1.requires_grad_()\ng = x2.requires_grad_()\ny = F.layer_norm(F.conv2d(x, w, padding=1).reshape(9, 1) * torch.ones(1, 2), [2], weight=g)\nwith torch.no_grad(): w.mul_(2)\ny.sum().backward()\nresult = x.grad',
  },
  {
    name: 'an embedding table written before backward: its rule reads only the indices',
    inputs: [ids([1, 0, 1]), f32([[1, 2], [3, 4]])],
    js: (i, w) => { w.requiresGrad_(); const y = tpu.nn.functional.embedding(i, w); tpu.noGrad(() => w.add_(1)); y.mul(y.detach()).sum().backward(); return w.grad!; },
    py: 'w = x1.requires_grad_()\ny = F.embedding(x0, w)\nwith torch.no_grad(): w.add_(1)\n(y * y.detach()).sum().backward()\nresult = w.grad',
  },
  { name: 'sin of a leaf written before backward is an error', inputs: [X], js: gradOf((x) => { const y = x.sin(); tpu.noGrad(() => x.add_(1)); return y; }), py: pyGrad('y = x.sin()\nwith torch.no_grad(): x.add_(1)\nloss = y') },
  { name: 'exp of a leaf written before backward saved its result, not the leaf', inputs: [X], js: gradOf((x) => { const y = x.exp(); tpu.noGrad(() => x.add_(1)); return y; }), py: pyGrad('y = x.exp()\nwith torch.no_grad(): x.add_(1)\nloss = y') },
  { name: 'a leaf times a constant, the leaf written before backward', inputs: [X, W], js: (x, w) => gradOf((v) => { const y = v.mul(w); tpu.noGrad(() => v.add_(1)); return y; })(x), py: 'x = x0.requires_grad_()\ny = x.mul(x1)\nwith torch.no_grad(): x.add_(1)\ny.sum().backward()\nresult = x.grad' },
  { name: 'a transposed view of a leaf written before backward is an error', inputs: [f32([[1, 2], [3, 4]])], js: gradOf((x) => { const y = x.T.matmul(x.detach().mul(1)); tpu.noGrad(() => x.mul_(2)); return y.mul(y); }), py: pyGrad('y = x.T @ (x.detach() * 1)\nwith torch.no_grad(): x.mul_(2)\nloss = y * y') },
  {
    name: 'a view of a weight made once before the loop: backward through it at every step',
    inputs: [f32([[0.5, 2], [1, -1]]), f32([[1, 2], [3, 4]])],
    js: (x, w) => {
      w.requiresGrad_();
      const wt = w.T;
      const losses: Tensor[] = [];
      for (let i = 0; i < 3; i++) {
        const loss = x.matmul(wt).tanh().matmul(w).sum();
        loss.backward();
        tpu.noGrad(() => w.sub_(w.grad!.mul(0.1)));
        w.grad = null;
        losses.push(loss.detach());
      }
      return [w, tpu.stack(losses)];
    },
    py: 'w = x1.requires_grad_()\nwt = w.T\nlosses = []\nfor i in range(3):\n  loss = (x0 @ wt).tanh().matmul(w).sum()\n  loss.backward()\n  with torch.no_grad(): w.sub_(w.grad * 0.1)\n  w.grad = None\n  losses.append(loss.detach())\nresult = (w, torch.stack(losses))',
  },
  { name: 'in-place on a leaf that requires grad is an error', inputs: [X], js: (x) => x.requiresGrad_().add_(1), py: 'x0.requires_grad_().add_(1)' },
  { name: 'in-place on a view of a leaf that requires grad is an error', inputs: [X], js: (x) => x.requiresGrad_().at(0).mul_(2), py: 'x0.requires_grad_()[0].mul_(2)' },
];

torchTier('in-place ops in an autograd graph follow PyTorch', cases);

/**
 * A norm's weight written (without grad) between forward and backward: its bfloat16 weight is
 * computed on as a float32 copy, which must still see the write, as the weight itself does.
 */
function normWeightCase(name: string, dtype: typeof f32, norm: 'layerNorm' | 'rmsNorm', write: boolean): TorchCase {
  const py = norm === 'layerNorm' ? 'F.layer_norm' : 'F.rms_norm';
  return {
    name,
    inputs: [dtype([[1, 2, 4], [3, -1, 0.5]]), dtype([1, 2, 3])],
    js: (x, w) => {
      x.requiresGrad_(); w.requiresGrad_();
      const y = tpu.nn.functional[norm](x, [3], { weight: w });
      if (write) tpu.noGrad(() => w.sub_(1));
      y.mul(tpu.tensor([[1, -2, 3], [0.5, 1, -1]])).sum().backward();
      return [x.grad!, w.grad!];
    },
    py: `x = x0.requires_grad_()\nw = x1.requires_grad_()\ny = ${py}(x, [3], w)\n${write ? 'with torch.no_grad(): w.sub_(1)\n' : ''}(y * torch.tensor([[1., -2, 3], [0.5, 1, -1]])).sum().backward()\nresult = (x.grad, w.grad)`,
    rtol: dtype === bf16 ? 2e-2 : undefined,
    atol: dtype === bf16 ? 2e-2 : undefined,
  };
}

torchTier('norm weights written before backward follow PyTorch, also under tpu.compile', [
  normWeightCase('a bf16 layerNorm weight written before backward is an error', bf16, 'layerNorm', true),
  normWeightCase('a float32 layerNorm weight written before backward is an error', f32, 'layerNorm', true),
  normWeightCase('a bf16 rmsNorm weight written before backward is an error', bf16, 'rmsNorm', true),
  normWeightCase('bf16 layerNorm gradients with an unchanged weight', bf16, 'layerNorm', false),
], { compile: true });
