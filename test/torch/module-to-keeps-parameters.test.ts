// Module.to(dtype) converts the parameters in place, as PyTorch's (param.data swapped): an
// optimizer made before keeps training them, .grad goes with them, a stateDict() taken before
// keeps the old values, and an optimizer's state stays as it was (PyTorch's Adam then refuses to
// step, its SGD steps with a float32 momentum; loadStateDict casts the state). Against PyTorch
// 2.13 in every mode; flags travel as one-element bool tensors.
import { expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const flag = (b: boolean) => tpu.tensor([b]);
const W = f32([[0.5, -1, 2], [1.5, 0.25, -0.75]]);
const B = f32([0.1, -0.2]);
const X = f32([[1, -2, 0.5], [0, 1, 1]]);

/** A Linear(3, 2) holding w and b (copied in, outside autograd). */
function linear(w: Tensor, b: Tensor) {
  const lin = new tpu.nn.Linear(3, 2);
  tpu.noGrad(() => { lin.weight.copy_(w); lin.bias!.copy_(b); });
  return lin;
}
const LINEAR_PY = 'lin = torch.nn.Linear(3, 2)\nwith torch.no_grad():\n  lin.weight.copy_(x0)\n  lin.bias.copy_(x1)';

type Optim = { zeroGrad(): void; step(): void };
/** One step of the loss Σ(lin(x)²) (x cast to the weight's dtype). */
function step(lin: ReturnType<typeof linear>, opt: Optim, x: Tensor) {
  opt.zeroGrad();
  lin.forward(x.to(lin.weight.dtype)).square().sum().backward();
  opt.step();
}
const STEP_PY = 'def step(opt):\n  opt.zero_grad()\n  lin(x2.to(lin.weight.dtype)).square().sum().backward()\n  opt.step()';

/** Steps once in float32, casts the model to bfloat16, steps again: the same tensors trained. */
function stepCastStep(make: (ps: Tensor[]) => Optim, py: string, after = ''): Pick<TorchCase, 'inputs' | 'js' | 'py' | 'rtol' | 'atol'> {
  return {
    inputs: [W, B, X],
    js: (w, b, x) => {
      const lin = linear(w, b);
      const weight = lin.weight;
      const opt = make(lin.parameters() as Tensor[]);
      step(lin, opt, x);
      lin.to('bfloat16');
      step(lin, opt, x);
      return [lin.weight, lin.bias!, flag(lin.weight === weight)];
    },
    py: `${LINEAR_PY}\n${STEP_PY}\nweight = lin.weight\nopt = ${py}\nstep(opt)\nlin.to(torch.bfloat16)\n${after}step(opt)\nresult = [lin.weight, lin.bias, torch.tensor([lin.weight is weight])]`,
    rtol: 1e-2, atol: 1e-2,
  };
}

const cases: TorchCase[] = [
  { name: 'Module.to(bfloat16) keeps the parameter tensors; .grad is cast with them, the same tensor', inputs: [W, B, X], js: (w, b, x) => {
    const lin = linear(w, b);
    const [weight, bias] = [lin.weight, lin.bias!];
    lin.forward(x).sum().backward();
    const grad = weight.grad!;
    lin.to('bfloat16');
    return [weight, bias, flag(lin.weight === weight && lin.bias === bias), weight.grad!, flag(weight.grad === grad), flag(lin.parameters().length === 2)];
  }, py: `${LINEAR_PY}\nweight, bias = lin.weight, lin.bias\nlin(x2).sum().backward()\ngrad = weight.grad\nlin.to(torch.bfloat16)\nresult = [weight, bias, torch.tensor([lin.weight is weight and lin.bias is bias]), weight.grad, torch.tensor([weight.grad is grad]), torch.tensor([len(list(lin.parameters())) == 2])]` },
  { name: 'SGD made before Module.to(bfloat16) trains the cast parameters', ...stepCastStep((ps) => new tpu.optim.SGD(ps, { lr: 0.1 }), 'torch.optim.SGD(lin.parameters(), lr=0.1)') },
  { name: 'SGD with momentum made and stepped before Module.to(bfloat16): its float32 momentum steps the cast parameters', ...stepCastStep((ps) => new tpu.optim.SGD(ps, { lr: 0.1, momentum: 0.9 }), 'torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)') },
  { name: 'Adagrad stepped before Module.to(bfloat16) steps on with its float32 sum', ...stepCastStep((ps) => new tpu.optim.Adagrad(ps, { lr: 0.1 }), 'torch.optim.Adagrad(lin.parameters(), lr=0.1)') },
  { name: 'Adam stepped before Module.to(bfloat16) refuses to step: its float32 state', ...stepCastStep((ps) => new tpu.optim.Adam(ps, { lr: 0.1 }), 'torch.optim.Adam(lin.parameters(), lr=0.1)') },
  { name: 'RMSprop centered stepped before Module.to(bfloat16) refuses to step: its float32 state', ...stepCastStep((ps) => new tpu.optim.RMSprop(ps, { lr: 0.01, centered: true }), 'torch.optim.RMSprop(lin.parameters(), lr=0.01, centered=True)') },
  { name: 'Adam stepped before Module.to(bfloat16) steps after loading its own state: cast to bfloat16', ...stepCastStep((ps) => {
    const opt = new tpu.optim.Adam(ps, { lr: 0.1 });
    let stepped = 0;
    // the cast comes between the two steps: load the state there
    return { zeroGrad: () => opt.zeroGrad(), step: () => { if (stepped++ === 1) { opt.loadStateDict(opt.stateDict()); } opt.step(); } };
  }, 'torch.optim.Adam(lin.parameters(), lr=0.1)', 'opt.load_state_dict(opt.state_dict())\n') },
  { name: 'Adam made before Module.to(bfloat16), first stepped after it, trains the cast parameters', inputs: [W, B, X], js: (w, b, x) => {
    const lin = linear(w, b);
    const opt = new tpu.optim.Adam(lin.parameters(), { lr: 0.1 });
    lin.to('bfloat16');
    step(lin, opt, x);
    step(lin, opt, x);
    return [lin.weight, lin.bias!];
  }, py: `${LINEAR_PY}\n${STEP_PY}\nopt = torch.optim.Adam(lin.parameters(), lr=0.1)\nlin.to(torch.bfloat16)\nstep(opt)\nstep(opt)\nresult = [lin.weight, lin.bias]`, rtol: 1e-2, atol: 1e-2 },
  { name: 'a stateDict() and a view taken before Module.to(bfloat16) keep the float32 values', inputs: [W, B], js: (w, b) => {
    const lin = linear(w, b);
    const sd = lin.stateDict();
    const t = lin.weight.T;
    lin.to('bfloat16');
    tpu.noGrad(() => lin.weight.mul_(2));
    return [sd.weight!, sd.bias!, t, lin.weight, t.add(sd.weight!.T)];
  }, py: `${LINEAR_PY}\nsd = lin.state_dict()\nt = lin.weight.T\nlin.to(torch.bfloat16)\nwith torch.no_grad():\n  lin.weight.mul_(2)\nresult = [sd["weight"], sd["bias"], t, lin.weight, t + sd["weight"].T]` },
];

torchTier('Module.to keeps the parameters, as PyTorch', cases);

// PyTorch's views taken before share the old storage: a write through one shows in the others.
// Here each keeps its own values, so such a write is refused instead of leaving the others stale.
it('views taken before Module.to: one behind its base is an error on reading, any is an error on writing, each naming the fix', () => {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    tpu.mode(mode);
    try {
      const lin = new tpu.nn.Linear(2, 1);
      const t = lin.weight.T;
      const sd = lin.stateDict();
      expect(sd.weight!.array()).toEqual(lin.weight.array());
      tpu.noGrad(() => lin.weight.add_(1)); // t and sd.weight not read since
      lin.to('bfloat16');
      expect(() => t.array(), mode).toThrow(/the view \[2, 1\] float32 of a tensor converted in place by Module\.to \(to \[1, 2\] bfloat16 on tpu:0\) was not read since its base was last written.*take them again after it/);
      const fresh = lin.stateDict();
      const old = linBefore();
      expect(() => old.sd.weight!.mul_(2), mode).toThrow(/mul_: \[1, 2\] float32 is a view taken before Module\.to converted its base in place .*writing one is refused: write a clone\(\) of it, or take the view again after \.to\(\)/);
      expect(() => old.sd.bias!.at(0).fill_(2), mode).toThrow(/fill_: \[\] float32 is a view of a view taken before Module\.to/);
      expect(old.sd.bias!.clone().mul_(2).dtype).toBe('float32');
      // taken after the conversion: an ordinary view, the write reaches the parameter
      tpu.noGrad(() => fresh.weight!.mul_(0));
      expect([lin.weight.dtype, lin.weight.array()]).toEqual(['bfloat16', [[0, 0]]]);
    } finally {
      tpu.mode('strict');
    }
  }
});

/** A Linear's stateDict() read once, then the Linear cast to bfloat16. */
function linBefore() {
  const lin = new tpu.nn.Linear(2, 1);
  const sd = lin.stateDict();
  void sd.weight!.array();
  lin.to('bfloat16');
  return { lin, sd };
}
