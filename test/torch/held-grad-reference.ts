// PyTorch's side of the held-gradient tests (a tensor's and a DTensor's): two backward passes
// with zero_grad() between and after, the first .grad held throughout; `x0` is the input.
export const HELD_GRAD_PYTORCH = [
  'p = x0.clone().requires_grad_()',
  'opt = torch.optim.SGD([p], lr=0.1)',
  '(p ** 2).sum().backward()',
  'first = p.grad',
  'opt.zero_grad()',
  '(p * 3).sum().backward()',
  'second = p.grad',
  'opt.step()',
  'opt.zero_grad()',
  'result = (first, second, p.detach(), torch.tensor([1. if p.grad is None else 0.]))',
].join('\n');
