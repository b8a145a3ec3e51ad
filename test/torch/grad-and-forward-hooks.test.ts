// tensor.registerHook (leaves and computed tensors, replacing or recording the gradient, its
// order against retainGrad, removal, tpu.autograd.grad) and Module.registerForwardPreHook /
// registerForwardHook (replacing inputs and outputs, prepend, removal, gradients through them),
// against PyTorch 2.13 in every mode and under tpu.compile.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, uniform, type TorchCase } from './torch-tier.js';
import { loaded } from './module-weights.js';

const W = f32([1, -2, 0.5]);
const count = (n: number) => tpu.tensor([n], { dtype: 'int64' });

const tensorHooks: TorchCase[] = [
  {
    name: 'hooks on a leaf replace its gradient, in the order registered',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); w.registerHook((g) => g.mul(2)); w.registerHook((g) => g.add(1)); w.square().sum().backward(); return w.grad!; },
    py: 'w = x0.requires_grad_()\nw.register_hook(lambda g: g * 2)\nw.register_hook(lambda g: g + 1)\n(w ** 2).sum().backward()\nresult = w.grad',
  },
  {
    name: 'a hook on a computed tensor changes what flows on, and its retained grad',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); const y = w.mul(3); y.retainGrad(); y.registerHook((g) => g.mul(tpu.tensor([1, 0, -1]))); y.exp().sum().backward(); return [w.grad!, y.grad!]; },
    py: 'w = x0.requires_grad_()\ny = w * 3\ny.retain_grad()\ny.register_hook(lambda g: g * torch.tensor([1., 0, -1]))\ny.exp().sum().backward()\nresult = [w.grad, y.grad]',
  },
  {
    name: 'a hook that returns nothing sees the whole gradient of a tensor used twice, once',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); const seen: Tensor[] = []; const y = w.sin(); y.registerHook((g) => { seen.push(g); }); y.mul(y).add(y.mul(2)).sum().backward(); return [seen[0]!, count(seen.length), w.grad!]; },
    py: 'w = x0.requires_grad_()\nseen = []\ny = w.sin()\ny.register_hook(lambda g: seen.append(g))\n(y * y + y * 2).sum().backward()\nresult = [seen[0], torch.tensor([len(seen)]), w.grad]',
  },
  {
    name: 'a hook on the output scales the seed',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); const loss = w.square().sum(); loss.registerHook((g) => g.mul(-3)); loss.backward(); return w.grad!; },
    py: 'w = x0.requires_grad_()\nloss = (w ** 2).sum()\nloss.register_hook(lambda g: g * -3)\nloss.backward()\nresult = w.grad',
  },
  {
    name: 'a removed hook does not run, the others do',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); const a = w.registerHook((g) => g.mul(100)); w.registerHook((g) => g.add(1)); a.remove(); a.remove(); w.mul(2).sum().backward(); return w.grad!; },
    py: 'w = x0.requires_grad_()\na = w.register_hook(lambda g: g * 100)\nw.register_hook(lambda g: g + 1)\na.remove()\na.remove()\n(w * 2).sum().backward()\nresult = w.grad',
  },
  {
    name: 'hooks run in each backward, accumulating into a leaf grad',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); w.registerHook((g) => g.mul(2)); w.square().sum().backward(); w.mul(w).sum().backward(); return w.grad!; },
    py: 'w = x0.requires_grad_()\nw.register_hook(lambda g: g * 2)\n(w ** 2).sum().backward()\n(w * w).sum().backward()\nresult = w.grad',
  },
  {
    name: 'hooks on the output of a composed op (layerNorm) and on its input',
    inputs: [uniform([2, 4], 7)],
    js: (x) => { x.requiresGrad_(); const y = x.mul(2); y.registerHook((g) => g.mul(0.5)); const z = tpu.nn.functional.layerNorm(y, [4]); z.registerHook((g) => g.mul(tpu.tensor([1, 2, 3, 4]))); z.sum().backward(); return x.grad!; },
    py: 'x = x0.requires_grad_()\ny = x * 2\ny.register_hook(lambda g: g * 0.5)\nz = F.layer_norm(y, [4])\nz.register_hook(lambda g: g * torch.tensor([1., 2, 3, 4]))\nz.sum().backward()\nresult = x.grad',
    atol: 1e-5,
  },
  {
    name: 'tpu.autograd.grad takes the hooked gradients of a leaf and of a computed tensor',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); w.registerHook((g) => g.mul(10)); const y = w.mul(3); y.registerHook((g) => g.add(1)); const [gw] = tpu.autograd.grad(y.square().sum(), [w], { retainGraph: true }); const [gy] = tpu.autograd.grad(y.square().sum(), [y]); return [gw!, gy!]; },
    py: 'w = x0.requires_grad_()\nw.register_hook(lambda g: g * 10)\ny = w * 3\ny.register_hook(lambda g: g + 1)\ngw, = torch.autograd.grad((y ** 2).sum(), [w], retain_graph=True)\ngy, = torch.autograd.grad((y ** 2).sum(), [y])\nresult = [gw, gy]',
  },
  {
    name: 'a hook belongs to the value it was registered on: an in-place write after it leaves it the old value\'s gradient',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); const y = w.mul(3); const seen: Tensor[] = []; y.registerHook((g) => { seen.push(g); }); y.mul_(5); y.registerHook((g) => { seen.push(g); }); y.square().sum().backward(); return [seen[0]!, seen[1]!, count(seen.length), w.grad!]; },
    py: 'w = x0.requires_grad_()\ny = w * 3\nseen = []\ny.register_hook(lambda g: seen.append(g))\ny.mul_(5)\ny.register_hook(lambda g: seen.append(g))\n(y ** 2).sum().backward()\nresult = [seen[0], seen[1], torch.tensor([len(seen)]), w.grad]',
  },
  { name: 'a hook on a tensor that does not require grad is an error', inputs: [W], js: (w) => { w.registerHook((g) => g); return w; }, py: 'x0.register_hook(lambda g: g)\nresult = x0' },
  {
    name: 'a hook that changes the gradient\'s shape is an error',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); w.registerHook((g) => g.sum()); w.mul(2).sum().backward(); return w.grad!; },
    py: 'w = x0.requires_grad_()\nw.register_hook(lambda g: g.sum())\n(w * 2).sum().backward()\nresult = w.grad',
  },
];

const LIN = uniform([3, 2], 8);
const BIAS = uniform([3], 9);
const X = uniform([4, 2], 10);
/** A Linear(2, 3) with the case's weights, on both sides. */
const PY_LIN = 'lin = torch.nn.Linear(2, 3)\nwith torch.no_grad():\n    lin.weight.copy_(x0)\n    lin.bias.copy_(x1)\n';
const linear = (w: Tensor, b: Tensor) => loaded(new tpu.nn.Linear(2, 3), [w, b]);

const moduleHooks: TorchCase[] = [
  {
    name: 'a forward pre-hook replaces the input, a forward hook the output',
    inputs: [LIN, BIAS, X],
    js: (w, b, x) => { const lin = linear(w, b); lin.registerForwardPreHook((_m, [v]) => (v as Tensor).mul(2)); lin.registerForwardHook((_m, _in, out) => (out as Tensor).relu()); return [lin(x), lin.forward(x.neg())]; },
    py: `${PY_LIN}lin.register_forward_pre_hook(lambda m, args: args[0] * 2)\nlin.register_forward_hook(lambda m, args, out: out.relu())\nresult = [lin(x2), lin(-x2)]`,
  },
  {
    name: 'hooks inside a Sequential, prepend, and removal',
    inputs: [LIN, BIAS, X],
    js: (w, b, x) => {
      const net = new tpu.nn.Sequential(linear(w, b), new tpu.nn.Tanh());
      const seen: Tensor[] = [];
      net[0]!.registerForwardHook((_m, _in, out) => (out as Tensor).add(1));
      net[0]!.registerForwardHook((_m, _in, out) => (out as Tensor).mul(3), { prepend: true });
      const rec = net[1]!.registerForwardHook((_m, inputs) => { seen.push(inputs[0] as Tensor); });
      const first = net(x);
      rec.remove();
      return [first, seen[0]!, net(x.mul(0.5)), count(seen.length)];
    },
    py: `${PY_LIN}net = torch.nn.Sequential(lin, torch.nn.Tanh())\nseen = []\nnet[0].register_forward_hook(lambda m, a, o: o + 1)\nnet[0].register_forward_hook(lambda m, a, o: o * 3, prepend=True)\nrec = net[1].register_forward_hook(lambda m, a, o: seen.append(a[0]))\nfirst = net(x2)\nrec.remove()\nresult = [first, seen[0], net(x2 * 0.5), torch.tensor([len(seen)])]`,
  },
  {
    name: 'gradients flow through what the hooks return',
    inputs: [LIN, BIAS, X],
    js: (w, b, x) => { const lin = linear(w, b); lin.registerForwardPreHook((_m, [v]) => (v as Tensor).square()); lin.registerForwardHook((_m, _in, out) => (out as Tensor).sigmoid()); lin(x).sum().backward(); return [lin.weight.grad!, lin.bias!.grad!]; },
    py: `${PY_LIN}lin.register_forward_pre_hook(lambda m, a: a[0] ** 2)\nlin.register_forward_hook(lambda m, a, o: o.sigmoid())\nlin(x2).sum().backward()\nresult = [lin.weight.grad, lin.bias.grad]`,
  },
];

torchTier('tensor.registerHook vs PyTorch', tensorHooks, { compile: true });
torchTier('Module forward hooks vs PyTorch', moduleHooks, { compile: true });

describe('hook arguments', () => {
  it('are checked, each error naming what was wrong', () => {
    const w = tpu.zeros([2], { requiresGrad: true });
    expect(() => w.registerHook(3 as never)).toThrow('registerHook: the hook must be a function of the gradient; got number');
    expect(() => { w.registerHook(() => 3 as never); w.sum().backward(); }).toThrow('registerHook: a hook must return nothing or a tensor to replace the gradient; got number');
    const lin = new tpu.nn.Linear(2, 2);
    expect(() => lin.registerForwardHook(() => {}, { withKwargs: true } as never)).toThrow(/registerForwardHook: unknown option 'withKwargs'/);
    expect(() => lin.registerForwardPreHook('f' as never)).toThrow('registerForwardPreHook: the hook must be a function; got string');
  });
});
