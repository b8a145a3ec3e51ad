// A module given the same weights on both sides of a torch tier case: the runtime's parameters
// copied from the case's inputs in module order, and PyTorch's `copy_` of the same inputs.
import { tpu, type Tensor } from 'tpu-kernel/runtime';

/** The parameters' values copied in module order. */
export function loaded<M extends InstanceType<typeof tpu.nn.Module>>(m: M, params: readonly Tensor[]): M {
  tpu.noGrad(() => m.parameters().forEach((p, i) => (p as Tensor).copy_(params[i]!)));
  return m;
}

/** PyTorch's side of `loaded`: the parameters of the module `m` copied from the inputs named. */
export const pyLoad = (names: string) => `with torch.no_grad():\n    for p, v in zip(m.parameters(), [${names}]): p.copy_(v)`;
