// Gradient mode and functional gradients against PyTorch 2.13: tpu.isGradEnabled,
// setGradEnabled, enableGrad (torch.is_grad_enabled, set_grad_enabled, enable_grad),
// tpu.autograd.grad (torch.autograd.grad: several outputs and inputs, gradOutputs, intermediate
// inputs, allowUnused, materializeGrads, retainGraph, .grad left alone), x.detach_() and
// tpu.isTensor. Flags travel as one-element bool tensors; a null gradient as [true] for "is None".
import { expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, i64, torchTier, type TorchCase } from './torch-tier.js';

const flag = (b: boolean) => tpu.tensor([b]);
const W = f32([1, -2, 3]);
const V = f32([0.5, 4]);

const cases: TorchCase[] = [
  // grad mode
  { name: 'isGradEnabled inside noGrad, enableGrad and setGradEnabled', inputs: [], js: () => {
    const flags = [tpu.isGradEnabled(), tpu.noGrad(() => tpu.isGradEnabled()), tpu.noGrad(() => tpu.enableGrad(() => tpu.isGradEnabled())), tpu.setGradEnabled(false, () => tpu.isGradEnabled()), tpu.noGrad(() => tpu.setGradEnabled(true, () => tpu.isGradEnabled()))];
    tpu.setGradEnabled(false);
    flags.push(tpu.isGradEnabled(), tpu.enableGrad(() => tpu.isGradEnabled()));
    tpu.setGradEnabled(true);
    flags.push(tpu.isGradEnabled());
    return flags.map(flag);
  }, py: 'result = [torch.tensor([b]) for b in [torch.is_grad_enabled()]]\nwith torch.no_grad():\n  result.append(torch.tensor([torch.is_grad_enabled()]))\n  with torch.enable_grad():\n    c = torch.is_grad_enabled()\nresult.append(torch.tensor([c]))\nwith torch.set_grad_enabled(False):\n  result.append(torch.tensor([torch.is_grad_enabled()]))\nwith torch.no_grad():\n  with torch.set_grad_enabled(True):\n    result.append(torch.tensor([torch.is_grad_enabled()]))\ntorch.set_grad_enabled(False)\nresult.append(torch.tensor([torch.is_grad_enabled()]))\nwith torch.enable_grad():\n  result.append(torch.tensor([torch.is_grad_enabled()]))\ntorch.set_grad_enabled(True)\nresult.append(torch.tensor([torch.is_grad_enabled()]))' },
  { name: 'ops record for backward under enableGrad inside noGrad, not after setGradEnabled(false)', inputs: [W], js: (w) => {
    w.requiresGrad_();
    const a = tpu.noGrad(() => tpu.enableGrad(() => w.mul(2)));
    tpu.setGradEnabled(false);
    const b = w.mul(2);
    tpu.setGradEnabled(true);
    const c = tpu.setGradEnabled(false, () => w.mul(2));
    a.sum().backward();
    return [flag(a.requiresGrad), flag(b.requiresGrad), flag(c.requiresGrad), w.grad!];
  }, py: 'w = x0.requires_grad_()\nwith torch.no_grad():\n  with torch.enable_grad():\n    a = w * 2\ntorch.set_grad_enabled(False)\nb = w * 2\ntorch.set_grad_enabled(True)\nwith torch.set_grad_enabled(False):\n  c = w * 2\na.sum().backward()\nresult = [torch.tensor([a.requires_grad]), torch.tensor([b.requires_grad]), torch.tensor([c.requires_grad]), w.grad]' },
  // autograd.grad
  { name: 'autograd.grad of a loss with respect to two leaves leaves .grad alone', inputs: [W, V], js: (w, v) => {
    w.requiresGrad_(); v.requiresGrad_();
    const loss = w.square().sum().mul(v.sum()).add(v.exp().sum());
    const [gw, gv] = tpu.autograd.grad(loss, [w, v]);
    return [gw!, gv!, flag(w.grad === null), flag(v.grad === null)];
  }, py: 'w = x0.requires_grad_()\nv = x1.requires_grad_()\nloss = (w ** 2).sum() * v.sum() + v.exp().sum()\ngw, gv = torch.autograd.grad(loss, [w, v])\nresult = [gw, gv, torch.tensor([w.grad is None]), torch.tensor([v.grad is None])]' },
  { name: 'autograd.grad with a tensor for inputs, and with respect to an intermediate value', inputs: [W], js: (w) => {
    w.requiresGrad_();
    const h = w.mul(3);
    const loss = h.square().sum();
    const [gh, gw] = tpu.autograd.grad(loss, [h, w]);
    const [again] = tpu.autograd.grad(w.sin().sum(), w);
    return [gh!, gw!, again!];
  }, py: 'w = x0.requires_grad_()\nh = w * 3\nloss = (h ** 2).sum()\ngh, gw = torch.autograd.grad(loss, [h, w])\n(again,) = torch.autograd.grad(w.sin().sum(), w)\nresult = [gh, gw, again]' },
  { name: 'autograd.grad of several outputs sums their gradients; gradOutputs for outputs of several elements', inputs: [W, V], js: (w, v) => {
    w.requiresGrad_();
    const y = w.mul(w);
    const [a] = tpu.autograd.grad(y, w, { gradOutputs: tpu.tensor([1, 10, 100]) });
    const [b] = tpu.autograd.grad([w.sum(), w.square()], [w], { gradOutputs: [null, tpu.tensor([1, 2, 3])] });
    const [c] = tpu.autograd.grad([w.mul(2), w.sum().mul(v.sum())], [w], { gradOutputs: [tpu.tensor([1, 0, -1]), null] });
    return [a!, b!, c!];
  }, py: 'w = x0.requires_grad_()\ny = w * w\n(a,) = torch.autograd.grad(y, w, grad_outputs=torch.tensor([1., 10., 100.]))\n(b,) = torch.autograd.grad([w.sum(), w.square()], [w], grad_outputs=[None, torch.tensor([1., 2., 3.])])\n(c,) = torch.autograd.grad([w * 2, w.sum() * x1.sum()], [w], grad_outputs=[torch.tensor([1., 0., -1.]), None])\nresult = [a, b, c]' },
  { name: 'autograd.grad with allowUnused gives null, with materializeGrads zeros', inputs: [W, V], js: (w, v) => {
    w.requiresGrad_(); v.requiresGrad_();
    const [gw, gv] = tpu.autograd.grad(w.sum(), [w, v], { allowUnused: true });
    const [, zeros] = tpu.autograd.grad(w.sum(), [w, v], { materializeGrads: true });
    return [gw!, flag(gv === null), zeros!];
  }, py: 'w = x0.requires_grad_()\nv = x1.requires_grad_()\ngw, gv = torch.autograd.grad(w.sum(), [w, v], allow_unused=True)\n_, zeros = torch.autograd.grad(w.sum(), [w, v], materialize_grads=True)\nresult = [gw, torch.tensor([gv is None]), zeros]' },
  { name: 'autograd.grad with retainGraph: the graph serves a second call', inputs: [W], js: (w) => {
    w.requiresGrad_();
    const loss = w.exp().sum();
    const [a] = tpu.autograd.grad(loss, [w], { retainGraph: true });
    const [b] = tpu.autograd.grad(loss, [w]);
    return [a!, b!];
  }, py: 'w = x0.requires_grad_()\nloss = w.exp().sum()\n(a,) = torch.autograd.grad(loss, [w], retain_graph=True)\n(b,) = torch.autograd.grad(loss, [w])\nresult = [a, b]' },
  { name: 'autograd.grad twice through a freed graph is an error', inputs: [W], js: (w) => { w.requiresGrad_(); const loss = w.exp().sum(); tpu.autograd.grad(loss, [w]); return tpu.autograd.grad(loss, [w])[0]!; }, py: 'w = x0.requires_grad_()\nloss = w.exp().sum()\ntorch.autograd.grad(loss, [w])\nresult = torch.autograd.grad(loss, [w])[0]' },
  { name: 'autograd.grad of an input the outputs do not use is an error', inputs: [W, V], js: (w, v) => { w.requiresGrad_(); v.requiresGrad_(); return tpu.autograd.grad(w.sum(), [w, v]) as Tensor[]; }, py: 'w = x0.requires_grad_()\nv = x1.requires_grad_()\nresult = torch.autograd.grad(w.sum(), [w, v])' },
  { name: 'autograd.grad of an input that does not require grad is an error', inputs: [W, V], js: (w, v) => { w.requiresGrad_(); return tpu.autograd.grad(w.mul(v.sum()).sum(), [w, v]) as Tensor[]; }, py: 'w = x0.requires_grad_()\nresult = torch.autograd.grad((w * x1.sum()).sum(), [w, x1])' },
  { name: 'autograd.grad of an output of several elements without gradOutputs is an error', inputs: [W], js: (w) => { w.requiresGrad_(); return tpu.autograd.grad(w.mul(2), [w]) as Tensor[]; }, py: 'w = x0.requires_grad_()\nresult = torch.autograd.grad(w * 2, [w])' },
  { name: 'autograd.grad of an output that does not require grad is an error', inputs: [W, V], js: (w, v) => { w.requiresGrad_(); return tpu.autograd.grad(v.sum(), [w]) as Tensor[]; }, py: 'w = x0.requires_grad_()\nresult = torch.autograd.grad(x1.sum(), [w])' },
  { name: 'autograd.grad with a misspelt option is an error', inputs: [W], js: (w) => { w.requiresGrad_(); return tpu.autograd.grad(w.sum(), [w], { allowUnsed: true } as never) as Tensor[]; }, py: 'w = x0.requires_grad_()\nresult = torch.autograd.grad(w.sum(), [w], allow_unsed=True)' },
  // detach_
  { name: 'detach_ cuts a non-leaf in place; a graph recorded before still reaches the leaf', inputs: [W], js: (w) => {
    w.requiresGrad_();
    const y = w.exp();
    const z = y.mul(3).sum();
    const same = y.detach_() === y;
    z.backward();
    return [flag(same), flag(y.requiresGrad), flag(y.isLeaf), w.grad!, y.mul(2)];
  }, py: 'w = x0.requires_grad_()\ny = w.exp()\nz = (y * 3).sum()\nsame = y.detach_() is y\nz.backward()\nresult = [torch.tensor([same]), torch.tensor([y.requires_grad]), torch.tensor([y.is_leaf]), w.grad, y * 2]' },
  { name: 'detach_ of a leaf: no gradient reaches it', inputs: [W, V], js: (input, v) => {
    const w = input.clone().requiresGrad_(); // the tier's inputs are reshaped views
    v.requiresGrad_();
    const loss = w.sum().mul(v.sum());
    w.detach_();
    loss.backward();
    return [flag(w.requiresGrad), flag(w.grad === null), v.grad!];
  }, py: 'w = x0.requires_grad_()\nv = x1.requires_grad_()\nloss = w.sum() * v.sum()\nw.detach_()\nloss.backward()\nresult = [torch.tensor([w.requires_grad]), torch.tensor([w.grad is None]), v.grad]' },
  { name: 'ops after detach_ see a constant', inputs: [W, V], js: (w, v) => {
    w.requiresGrad_(); v.requiresGrad_();
    const h = w.mul(2);
    h.detach_();
    h.mul(v.sum()).sum().backward();
    return [flag(w.grad === null), v.grad!];
  }, py: 'w = x0.requires_grad_()\nv = x1.requires_grad_()\nh = w * 2\nh.detach_()\n(h * v.sum()).sum().backward()\nresult = [torch.tensor([w.grad is None]), v.grad]' },
  { name: 'detach_ of a view is an error', inputs: [W], js: (w) => w.narrow(0, 1, 2).detach_(), py: 'x0[1:].detach_()' },
  { name: 'detach_ of detach() is allowed', inputs: [W], js: (w) => { w.requiresGrad_(); return w.detach().detach_(); }, py: 'w = x0.requires_grad_()\nresult = w.detach().detach_()' },
  // isTensor
  { name: 'isTensor', inputs: [W, i64([3])], js: (w, l) => [tpu.isTensor(w), tpu.isTensor(l), tpu.isTensor(3), tpu.isTensor([1, 2]), tpu.isTensor(null)].map(flag), py: '[torch.tensor([b]) for b in (torch.is_tensor(x0), torch.is_tensor(x1), torch.is_tensor(3), torch.is_tensor([1, 2]), torch.is_tensor(None))]' },
];

torchTier('grad mode, autograd.grad and detach_ follow PyTorch', cases);

it('createGraph (second derivatives) is a clear error in autograd.grad and backward; false is accepted', () => {
  const w = tpu.tensor([1, 2], { requiresGrad: true });
  expect(() => tpu.autograd.grad(w.square().sum(), [w], { createGraph: true })).toThrow(/tpu\.autograd\.grad: createGraph: true \(second derivatives.*not supported/);
  expect(() => w.square().sum().backward({ createGraph: true })).toThrow(/backward: createGraph: true \(second derivatives.*not supported/);
  expect(() => w.square().sum().backward(undefined, { createGraph: 1 as never })).toThrow(/backward: createGraph must be a boolean; got 1/);
  expect(tpu.autograd.grad(w.square().sum(), [w], { createGraph: false })[0]!.tolist()).toEqual([2, 4]);
  w.square().sum().backward({ createGraph: false });
  expect(w.grad!.tolist()).toEqual([2, 4]);
  expect(() => w.sum().backward(undefined, { retainGraf: true } as never)).toThrow(/backward: unknown option 'retainGraf'/);
});

it('a saved value detached in place is read as it is (PyTorch refuses it), and refused once written since', () => {
  // d/dw Σ (2w)² = 8w, hand-computed
  const w = tpu.tensor([1, 2], { requiresGrad: true });
  const y = w.mul(2);
  const z = y.mul(y).sum();
  y.detach_();
  z.backward();
  expect(w.grad!.tolist()).toEqual([8, 16]);
  const w2 = tpu.tensor([1, 2], { requiresGrad: true });
  const y2 = w2.mul(2);
  const z2 = y2.mul(y2).sum();
  y2.detach_();
  y2.add_(1);
  expect(() => z2.backward()).toThrow(/modified by an inplace operation/);
});

it('noGrad, enableGrad and setGradEnabled name a missing fn; an async fn keeps the mode until it settles', async () => {
  expect(() => tpu.enableGrad(3 as never)).toThrow('tpu.enableGrad: fn must be a function; got number');
  expect(() => tpu.setGradEnabled('no' as never)).toThrow('tpu.setGradEnabled: mode must be a boolean; got "no"');
  const seen: boolean[] = [];
  const done = tpu.noGrad(async () => {
    await tpu.enableGrad(async () => { await Promise.resolve(); seen.push(tpu.isGradEnabled()); });
    seen.push(tpu.isGradEnabled());
  });
  await done;
  seen.push(tpu.isGradEnabled());
  expect(seen).toEqual([true, false, true]);
});
