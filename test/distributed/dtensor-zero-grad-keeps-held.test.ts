// zeroGrad() on DTensor parameters as PyTorch's zero_grad() (set_to_none=True): a DTensor .grad
// the user holds keeps its values through zeroGrad, the next backward and step (it was disposed:
// reading it threw), in every mode, on 4 emulated chips, Shard and Replicate, optimizer and
// module. PyTorch's values come from the same steps on a plain tensor (a DTensor's gradient is
// the global tensor's).
import { tpu, type DTensor, type Placement, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from '../torch/torch-tier.js';
import { HELD_GRAD_PYTORCH } from '../torch/held-grad-reference.js';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
const mesh2 = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });
const P = f32([[1.5, -2, 0.25, 3], [1, 2.5, -3, 4]]);

/** A module whose one parameter is the DTensor w. */
class Holder extends tpu.nn.Module {
  constructor(readonly w: DTensor) {
    super();
  }
  forward(): DTensor {
    return this.w;
  }
}

type ZeroGrad = (w: DTensor, opt: InstanceType<typeof tpu.optim.SGD>) => void;

/** Two backward passes with zeroGrad between and after: the first .grad held throughout. */
function held(name: string, m: typeof mesh, placements: Placement[], zeroGrad: ZeroGrad): TorchCase {
  return {
    name,
    inputs: [P],
    js: (p0) => {
      const w = tpu.distributeTensor(p0.detach().requiresGrad_(), m, placements);
      const opt = new tpu.optim.SGD([w], { lr: 0.1 });
      w.mul(w).sum().backward();
      const first = w.grad!;
      zeroGrad(w, opt);
      w.mul(3).sum().backward();
      const second = w.grad!;
      opt.step();
      zeroGrad(w, opt);
      return [first.fullTensor(), second.fullTensor(), w.fullTensor().detach(), tpu.tensor([w.grad === null ? 1 : 0])] as Tensor[];
    },
    py: HELD_GRAD_PYTORCH,
  };
}

const byOptimizer: ZeroGrad = (_, opt) => opt.zeroGrad();
const byModule: ZeroGrad = (w) => new Holder(w).zeroGrad();

const cases: TorchCase[] = [
  held('optimizer zeroGrad keeps a held Shard(0) DTensor gradient', mesh, [tpu.Shard(0)], byOptimizer),
  held('optimizer zeroGrad keeps a held Replicate DTensor gradient', mesh, [tpu.Replicate()], byOptimizer),
  held('optimizer zeroGrad keeps a held [Shard(1), Replicate] DTensor gradient', mesh2, [tpu.Shard(1), tpu.Replicate()], byOptimizer),
  held('module zeroGrad keeps a held Shard(0) DTensor gradient', mesh, [tpu.Shard(0)], byModule),
  held('module zeroGrad keeps a held Replicate DTensor gradient', mesh, [tpu.Replicate()], byModule),
];

torchTier('zeroGrad and a held DTensor gradient vs PyTorch', cases);
