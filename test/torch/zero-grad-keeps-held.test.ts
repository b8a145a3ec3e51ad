// zeroGrad() sets .grad to null as PyTorch's zero_grad() (set_to_none=True): a gradient the
// user holds keeps its values through zeroGrad, the next backward and step, in every mode.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';
import { HELD_GRAD_PYTORCH } from './held-grad-reference.js';

const P = f32([1.5, -2, 0.25, 3]);

/** A module whose one parameter is p. */
class Holder extends tpu.nn.Module {
  constructor(readonly w: Tensor) {
    super();
  }
  forward(): Tensor {
    return this.w;
  }
}

/** Two backward passes with zeroGrad between and after: the first gradient held throughout. */
function held(name: string, zeroGrad: (p: Tensor, opt: InstanceType<typeof tpu.optim.SGD>) => void): TorchCase {
  return {
    name,
    inputs: [P],
    js: (p0) => {
      const p = p0.detach().requiresGrad_();
      const opt = new tpu.optim.SGD([p], { lr: 0.1 });
      p.square().sum().backward();
      const first = p.grad!;
      zeroGrad(p, opt);
      p.mul(3).sum().backward();
      const second = p.grad!;
      opt.step();
      zeroGrad(p, opt);
      return [first, second, p.detach(), tpu.tensor([p.grad === null ? 1 : 0])];
    },
    py: HELD_GRAD_PYTORCH,
  };
}

const cases: TorchCase[] = [
  held('optimizer zeroGrad keeps a held gradient', (_, opt) => opt.zeroGrad()),
  held('module zeroGrad keeps a held gradient', (p) => new Holder(p).zeroGrad()),
];

torchTier('zeroGrad and a held gradient vs PyTorch', cases);
