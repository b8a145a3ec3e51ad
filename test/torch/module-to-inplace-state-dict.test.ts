// Module.to(dtype), the inplace option of activation and dropout layers, and stateDict()'s
// detached entries sharing storage, against PyTorch 2.13 in every mode. Layers are built on
// both sides with the same weights; flags travel as one-element bool tensors.
import { expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, grads, torchTier, type TorchCase } from './torch-tier.js';

const flag = (b: boolean) => tpu.tensor([b]);
const X = f32([[-2, -0.5, 0, 0.25, 3], [1.5, -1, 4, -3, 0.5]]);
const W = f32([[0.5, -1, 2], [1.5, 0.25, -0.75]]);
const B = f32([0.1, -0.2]);

/** A Linear(3, 2) holding w and b (copied in, outside autograd). */
function linear(w: Tensor, b: Tensor) {
  const lin = new tpu.nn.Linear(3, 2);
  tpu.noGrad(() => { lin.weight.copy_(w); lin.bias!.copy_(b); });
  return lin;
}
const LINEAR_PY = 'lin = torch.nn.Linear(3, 2)\nwith torch.no_grad():\n  lin.weight.copy_(x0)\n  lin.bias.copy_(x1)';

/** [layer in place, layer not in place] of each kind, on both sides. */
const INPLACE_LAYERS: [string, () => [{ forward(x: Tensor): Tensor }, { forward(x: Tensor): Tensor }], string][] = [
  ['ReLU', () => [new tpu.nn.ReLU({ inplace: true }), new tpu.nn.ReLU()], 'torch.nn.ReLU(inplace=True), torch.nn.ReLU()'],
  ['ReLU6', () => [new tpu.nn.ReLU6(true), new tpu.nn.ReLU6()], 'torch.nn.ReLU6(True), torch.nn.ReLU6()'],
  ['LeakyReLU', () => [new tpu.nn.LeakyReLU(0.1, true), new tpu.nn.LeakyReLU({ negativeSlope: 0.1 })], 'torch.nn.LeakyReLU(0.1, True), torch.nn.LeakyReLU(negative_slope=0.1)'],
  ['ELU', () => [new tpu.nn.ELU({ alpha: 0.5, inplace: true }), new tpu.nn.ELU(0.5)], 'torch.nn.ELU(alpha=0.5, inplace=True), torch.nn.ELU(0.5)'],
  ['CELU', () => [new tpu.nn.CELU(2, { inplace: true }), new tpu.nn.CELU(2)], 'torch.nn.CELU(2.0, inplace=True), torch.nn.CELU(2.0)'],
  ['Hardtanh', () => [new tpu.nn.Hardtanh(-0.5, 1, true), new tpu.nn.Hardtanh(-0.5, 1)], 'torch.nn.Hardtanh(-0.5, 1.0, True), torch.nn.Hardtanh(-0.5, 1.0)'],
  ['SiLU', () => [new tpu.nn.SiLU(true), new tpu.nn.SiLU()], 'torch.nn.SiLU(True), torch.nn.SiLU()'],
  ['SELU', () => [new tpu.nn.SELU({ inplace: true }), new tpu.nn.SELU()], 'torch.nn.SELU(inplace=True), torch.nn.SELU()'],
  ['Hardsigmoid', () => [new tpu.nn.Hardsigmoid(true), new tpu.nn.Hardsigmoid()], 'torch.nn.Hardsigmoid(True), torch.nn.Hardsigmoid()'],
  ['Hardswish', () => [new tpu.nn.Hardswish(true), new tpu.nn.Hardswish()], 'torch.nn.Hardswish(True), torch.nn.Hardswish()'],
  ['Mish', () => [new tpu.nn.Mish(true), new tpu.nn.Mish()], 'torch.nn.Mish(True), torch.nn.Mish()'],
];

const cases: TorchCase[] = [
  // inplace activations: the result is the input, written; the same values as out of place
  ...INPLACE_LAYERS.map(([name, make, py]): TorchCase => ({
    name: `${name} with inplace writes its input and returns it`,
    inputs: [X],
    js: (x) => { const [inplace, plain] = make(); const expected = plain.forward(x); const y = x.clone(); const out = inplace.forward(y); return [out, y, flag(out === y), expected]; },
    py: `inplace, plain = ${py}\nexpected = plain(x0)\ny = x0.clone()\nout = inplace(y)\nresult = [out, y, torch.tensor([out is y]), expected]`,
  })),
  // gradients through an in-place activation of a non-leaf
  ...INPLACE_LAYERS.map(([name, make, py]) => grads(`${name} with inplace: the gradient through it`, [X], (x) => make()[0].forward(x.mul(1)), `(${py})[0](x0 * 1)`, { rtol: 1e-4, atol: 1e-6 })),
  { name: 'an in-place activation of a leaf that requires grad is an error', inputs: [X], js: (x) => new tpu.nn.ReLU(true).forward(x.clone().requiresGrad_()), py: 'torch.nn.ReLU(True)(x0.clone().requires_grad_())' },
  { name: 'Dropout with inplace: the identity in eval(), zeros written with p = 1', inputs: [X], js: (x) => {
    const y = x.clone();
    const same = new tpu.nn.Dropout(0.5, true).eval().forward(y);
    const z = x.clone();
    const zeroed = new tpu.nn.Dropout({ p: 1, inplace: true }).forward(z);
    return [flag(same === y), y, flag(zeroed === z), z];
  }, py: 'y = x0.clone()\nsame = torch.nn.Dropout(0.5, True).eval()(y)\nz = x0.clone()\nzeroed = torch.nn.Dropout(p=1.0, inplace=True)(z)\nresult = [torch.tensor([same is y]), y, torch.tensor([zeroed is z]), z]' },
  { name: 'Dropout with inplace keeps or zeroes each element, scaling the kept', inputs: [f32([[1, 2, 3, 4], [5, 6, 7, 8]])], js: (x) => {
    const y = x.clone();
    new tpu.nn.Dropout(0.5, true).forward(y);
    // each element is 0 or twice its input
    return [y.eq(0).logicalOr(y.eq(x.mul(2))).all(), y.mul(0)];
  }, py: 'y = x0.clone()\ntorch.nn.Dropout(0.5, True)(y)\nresult = [((y == 0) | (y == x0 * 2)).all(), y * 0]' },
  // stateDict
  { name: 'stateDict entries are detached and share storage: an in-place write changes the parameter', inputs: [W, B], js: (w, b) => {
    const lin = linear(w, b);
    const sd = lin.stateDict();
    sd.weight!.mul_(2);
    sd.bias!.add_(1);
    return [lin.weight, lin.bias!, flag(sd.weight!.requiresGrad), flag(sd.weight!.isLeaf), flag(lin.weight.requiresGrad)];
  }, py: `${LINEAR_PY}\nsd = lin.state_dict()\nsd["weight"].mul_(2)\nsd["bias"].add_(1)\nresult = [lin.weight, lin.bias, torch.tensor([sd["weight"].requires_grad]), torch.tensor([sd["weight"].is_leaf]), torch.tensor([lin.weight.requires_grad])]` },
  { name: 'a module loads its own stateDict', inputs: [W, B], js: (w, b) => { const lin = linear(w, b); lin.loadStateDict(lin.stateDict()); return [lin.weight, lin.bias!]; }, py: `${LINEAR_PY}\nlin.load_state_dict(lin.state_dict())\nresult = [lin.weight, lin.bias]` },
  // Module.to
  { name: 'Module.to(bfloat16) casts parameters and floating buffers, returns the module; forward in bfloat16', inputs: [W, B, f32([[1, -2, 0.5]])], js: (w, b, x) => {
    const lin = linear(w, b);
    const same = lin.to('bfloat16') === lin;
    const bn = new tpu.nn.BatchNorm1d(2).to({ dtype: 'bfloat16' });
    const y = lin.forward(x.to('bfloat16'));
    return [flag(same), lin.weight, lin.bias!, flag(lin.weight.requiresGrad), y, bn.weight!, bn.runningMean!, bn.numBatchesTracked!, flag(lin.parameters().length === 2)];
  }, py: `${LINEAR_PY}\nsame = lin.to(torch.bfloat16) is lin\nbn = torch.nn.BatchNorm1d(2).to(dtype=torch.bfloat16)\ny = lin(x2.to(torch.bfloat16))\nresult = [torch.tensor([same]), lin.weight, lin.bias, torch.tensor([lin.weight.requires_grad]), y, bn.weight, bn.running_mean, bn.num_batches_tracked, torch.tensor([len(list(lin.parameters())) == 2])]`, rtol: 1e-2, atol: 1e-2 },
  { name: 'a model trains after Module.to with an optimizer made after it', inputs: [W, B, f32([[1, -2, 0.5], [0, 1, 1]])], js: (w, b, x) => {
    const lin = linear(w, b).to('bfloat16').to('float32');
    const opt = new tpu.optim.SGD(lin.parameters(), { lr: 0.5 });
    lin.forward(x).square().sum().backward();
    opt.step();
    return [lin.weight, lin.bias!];
  }, py: `${LINEAR_PY}\nlin = lin.to(torch.bfloat16).to(torch.float32)\nopt = torch.optim.SGD(lin.parameters(), lr=0.5)\nlin(x2).square().sum().backward()\nopt.step()\nresult = [lin.weight, lin.bias]`, rtol: 1e-3, atol: 1e-3 },
  { name: 'Module.to an integer dtype is an error', inputs: [W, B], js: (w, b) => linear(w, b).to('int32').weight, py: `${LINEAR_PY}\nresult = lin.to(torch.int32).weight` },
];

torchTier('Module.to, inplace layers and stateDict follow PyTorch', cases);

it('Module.to: the same dtype keeps the tensors; a frozen parameter stays a parameter; a tied weight is cast once', () => {
  const a = new tpu.nn.Linear(2, 2);
  const w = a.weight;
  a.to('float32');
  expect(a.weight).toBe(w);
  const [first, second] = [new tpu.nn.Linear(2, 2), new tpu.nn.Linear(2, 2)];
  const model = new tpu.nn.Sequential(first, second);
  second.weight = first.weight;
  first.bias!.requiresGrad_(false);
  model.to('bfloat16');
  expect(second.weight).toBe(first.weight);
  expect(first.weight.dtype).toBe('bfloat16');
  expect(first.bias!.dtype).toBe('bfloat16');
  expect(first.bias!.requiresGrad).toBe(false);
  expect(model.parameters().length).toBe(3);
  expect(() => a.to('float64' as never)).toThrow(`Module.to: its argument (a dtype, or a device such as 'tpu:0') must be one of float32, bfloat16, int32, int64, bool; got "float64"`);
});
