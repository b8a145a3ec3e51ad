// A module used twice and a tied weight (`b.weight = a.weight`) are one parameter each, as
// PyTorch's parameters() lists them: an optimizer given model.parameters() steps them once
// per step (Adam's moments and step count once). Checked against PyTorch 2.13 in every mode.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from '../torch/torch-tier.js';

const { nn, optim } = tpu;
const X = f32([[1, 2], [3, -1], [0.5, 0.25]]);
const Y = f32([[0.5, 0], [0, 0.5], [1, -1]]);
const W = f32([[0.5, -0.3], [0.2, 0.8]]);
const B = f32([0.1, -0.1]);

function set(l: InstanceType<typeof nn.Linear>, w: Tensor, b: Tensor): void {
  tpu.noGrad(() => { l.weight.copy_(w); l.bias.copy_(b); });
}

class Tied extends nn.Module {
  a = new nn.Linear(2, 2);
  b = new nn.Linear(2, 2);
  constructor() { super(); this.b.weight = this.a.weight; }
  forward(x: Tensor) { return this.b.forward(this.a.forward(x).tanh()); }
}

/** Three steps of mean squared error on (x0, x1), the losses stacked, in PyTorch (`m`, `opt` defined before). */
const PY_THREE_STEPS = `losses = []
for _ in range(3):
    opt.zero_grad()
    loss = F.mse_loss(m(x0), x1)
    loss.backward()
    opt.step()
    losses.append(loss.detach())
losses = torch.stack(losses)`;

/** The same three steps here, the losses stacked. */
function threeSteps(m: { forward(x: Tensor): Tensor }, opt: { zeroGrad(): void; step(): void }, x: Tensor, y: Tensor): Tensor {
  const losses: Tensor[] = [];
  for (let i = 0; i < 3; i++) {
    opt.zeroGrad();
    const loss = nn.mseLoss(m.forward(x), y);
    loss.backward();
    opt.step();
    losses.push(loss.detach());
  }
  return tpu.stack(losses);
}

const PY_TIED = `
class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(2, 2)
        self.b = torch.nn.Linear(2, 2)
        self.b.weight = self.a.weight
    def forward(self, x):
        return self.b(self.a(x).tanh())
m = Tied()
with torch.no_grad():
    m.a.weight.copy_(x2); m.a.bias.copy_(x3); m.b.bias.copy_(-x3)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
${PY_THREE_STEPS}
result = (losses, m.a.weight.detach(), m.b.bias.detach(), torch.tensor([len(list(m.parameters()))]))`;

const PY_SHARED = `
l = torch.nn.Linear(2, 2)
with torch.no_grad():
    l.weight.copy_(x2); l.bias.copy_(x3)
m = torch.nn.Sequential(l, torch.nn.Tanh(), l)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
${PY_THREE_STEPS}
result = (losses, l.weight.detach(), l.bias.detach(), torch.tensor([len(list(m.parameters()))]))`;

const cases: TorchCase[] = [
  {
    name: 'Adam over a model with a tied weight',
    inputs: [X, Y, W, B],
    js: (x, y, w, b) => {
      const m = new Tied();
      set(m.a, w, b);
      tpu.noGrad(() => m.b.bias.copy_(b.neg()));
      const opt = new optim.Adam(m.parameters(), { lr: 0.1 });
      const losses = threeSteps(m, opt, x, y);
      return [losses, m.a.weight.detach(), m.b.bias.detach(), tpu.tensor([m.parameters().length], { dtype: 'int64' })];
    },
    py: PY_TIED,
    rtol: 1e-4,
  },
  {
    name: 'SGD with momentum over a Sequential holding one Linear twice',
    inputs: [X, Y, W, B],
    js: (x, y, w, b) => {
      const l = new nn.Linear(2, 2);
      set(l, w, b);
      const m = new nn.Sequential(l, new nn.Tanh(), l);
      const opt = new optim.SGD(m.parameters(), { lr: 0.1, momentum: 0.9 });
      const losses = threeSteps(m, opt, x, y);
      return [losses, l.weight.detach(), l.bias.detach(), tpu.tensor([m.parameters().length], { dtype: 'int64' })];
    },
    py: PY_SHARED,
    rtol: 1e-4,
  },
  {
    name: 'an optimizer given one parameter twice is an error',
    inputs: [W],
    js: (w) => { w.requiresGrad_(); new optim.SGD([w, w], { lr: 0.1 }); return w; },
    // PyTorch only warns ("in future, this will cause an error"): this case asks for its future error
    py: 'raise ValueError("optimizer got a duplicate parameter")',
  },
];

torchTier('shared and tied parameters vs PyTorch', cases);
