// zeroGrad({ setToNone: false }) (and zeroGrad(false)) as PyTorch's zero_grad(set_to_none=False):
// the gradients stay tensors of zeros, so a step before the next backward still moves the
// parameters through momentum and weight decay; the default still drops them. Module's and
// optimizer's, against PyTorch 2.13 in every mode.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expect, it } from 'vitest';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const W = f32([[0.5, -1.5], [2, 0.25]]);
const X = f32([[1, -2], [0.5, 3]]);

/** Two steps of SGD with momentum and weight decay, zeroGrad(arg) between them, no backward in between. */
function stepAfterZero(name: string, zero: (m: InstanceType<typeof tpu.nn.Linear>, opt: InstanceType<typeof tpu.optim.SGD>) => void, pyZero: string): TorchCase {
  return {
    name,
    inputs: [W, X],
    js: (w, x) => {
      const m = new tpu.nn.Linear(2, 2, { bias: false });
      tpu.noGrad(() => m.weight.copy_(w));
      const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.1, momentum: 0.9, weightDecay: 0.01 });
      m(x).square().sum().backward();
      opt.step();
      zero(m, opt);
      const g = m.weight.grad;
      opt.step();
      return [m.weight.detach(), g === null ? tpu.tensor([-1]) : g];
    },
    py: [
      'm = torch.nn.Linear(2, 2, bias=False)',
      'with torch.no_grad(): m.weight.copy_(x0)',
      'opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)',
      'm(x1).square().sum().backward()',
      'opt.step()',
      pyZero,
      'g = m.weight.grad',
      'opt.step()',
      'result = (m.weight.detach(), torch.tensor([-1.]) if g is None else g)',
    ].join('\n'),
  };
}

const cases: TorchCase[] = [
  stepAfterZero('optimizer zeroGrad({ setToNone: false }) keeps zeros and momentum steps', (_, opt) => opt.zeroGrad({ setToNone: false }), 'opt.zero_grad(set_to_none=False)'),
  stepAfterZero('optimizer zeroGrad(false)', (_, opt) => opt.zeroGrad(false), 'opt.zero_grad(False)'),
  stepAfterZero('module zeroGrad({ setToNone: false })', (m) => m.zeroGrad({ setToNone: false }), 'm.zero_grad(set_to_none=False)'),
  stepAfterZero('module zeroGrad() drops the gradient and the step skips it', (m) => m.zeroGrad(), 'm.zero_grad()'),
  stepAfterZero('optimizer zeroGrad({ setToNone: true })', (_, opt) => opt.zeroGrad({ setToNone: true }), 'opt.zero_grad(set_to_none=True)'),
];

torchTier('zeroGrad setToNone vs PyTorch', cases);

it('zeroGrad names an unknown option and a non-boolean setToNone', () => {
  const m = new tpu.nn.Linear(2, 1);
  const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.1 });
  expect(() => m.zeroGrad({ set_to_none: false } as never)).toThrow(/zeroGrad: unknown option 'set_to_none' \(did you mean 'setToNone'\?\)/);
  expect(() => opt.zeroGrad({ setToNone: 0 } as never)).toThrow(/zeroGrad: setToNone must be a boolean; got 0/);
  const held: Tensor[] = [];
  m(tpu.ones([1, 2])).sum().backward();
  held.push(m.weight.grad!);
  m.zeroGrad({ setToNone: false });
  expect(m.weight.grad).toBe(held[0]); // the same tensor, zeroed in place, as PyTorch's
  expect(held[0]!.array()).toEqual([[0, 0]]);
});
