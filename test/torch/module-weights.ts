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

/** A module given weights, its output on x and every parameter's gradient of Σ (1, 2, 3, ...)·out. */
export function trained(m: InstanceType<typeof tpu.nn.Module>, x: Tensor): Tensor[] {
  const y = m.forward(x) as Tensor;
  y.mul(tpu.arange(y.numel()).reshape([...y.shape]).add(1).to('float32')).sum().backward();
  return [y, ...m.parameters().map((p) => (p as Tensor).grad!)];
}

/** PyTorch's side of `trained`: `module` built, loaded from the inputs named, run on x. */
export const pyTrained = (module: string, params: string, x: string) => [`m = ${module}`, pyLoad(params), `y = m(${x})`,
  '(y * (torch.arange(y.numel()) + 1).reshape(y.shape).float()).sum().backward()', 'result = [y] + [p.grad for p in m.parameters()]'].join('\n');
