// Elementwise ops over operands of mixed layouts against PyTorch 2.13 (seeded random cases):
// each operand is a permuted, maybe strided view of its own storage, broadcast in some dims
// (size-1 dims, lower rank, 0-d, JS scalars); the result's strides, contiguity and values must
// be PyTorch's. Then hand-picked cases: size-1 dims, 0-d operands, and views of such results
// written in place.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, seq, torchTier, type InputSpec, type TorchCase } from './torch-tier.js';
import { mulberry32 } from '../support/seeded-random.js';

interface Operand {
  readonly input: InputSpec;
  readonly js: (x: Tensor) => Tensor;
  readonly py: (x: string) => string;
}

/** An operand of logical shape `shape`: storage dims in a random order, some read with step 2. */
function operand(shape: number[], r: () => number, k: number): Operand {
  const order = shape.map((_, i) => i).sort(() => r() - 0.5); // storage dim i holds logical dim order[i]
  const stepped = shape.map(() => r() < 0.25);
  const storage = order.map((d) => shape[d]! * (stepped[d] ? 2 : 1));
  const items = order.map((d) => (stepped[d] ? '::2' : ':'));
  const perm = shape.map((_, d) => order.indexOf(d));
  const input = seq('float32', storage, 0.5, -3 * k - 4);
  if (shape.length === 0) return { input, js: (x) => x, py: (x) => x };
  return {
    input,
    js: (x) => x.at(...items).permute(...perm),
    py: (x) => `${x}[${items.join(', ')}].permute(${perm.join(', ')}${perm.length === 1 ? ',' : ''})`,
  };
}

/** The shape an operand broadcasts from: some dims 1, maybe fewer leading dims. */
function broadcastFrom(shape: number[], r: () => number): number[] {
  const lead = r() < 0.25 ? Math.floor(r() * (shape.length + 1)) : 0;
  return shape.slice(lead).map((n) => (r() < 0.3 ? 1 : n));
}

const OPS = [
  { arity: 1, js: (a: Tensor) => a.exp(), py: (a: string) => `${a}.exp()` },
  { arity: 1, js: (a: Tensor) => a.mul(2), py: (a: string) => `${a} * 2` },
  { arity: 1, js: (a: Tensor) => a.to('int32'), py: (a: string) => `${a}.to(torch.int32)` },
  { arity: 1, js: (a: Tensor) => a.clone(), py: (a: string) => `${a}.clone()` },
  { arity: 2, js: (a: Tensor, b: Tensor) => a.add(b), py: (a: string, b: string) => `${a} + ${b}` },
  { arity: 2, js: (a: Tensor, b: Tensor) => a.maximum(b), py: (a: string, b: string) => `torch.maximum(${a}, ${b})` },
  { arity: 3, js: (a: Tensor, b: Tensor, c: Tensor) => tpu.where(a.gt(0), b, c), py: (a: string, b: string, c: string) => `torch.where(${a} > 0, ${b}, ${c})` },
] as const;

function mixedCase(seed: number): TorchCase {
  const r = mulberry32(seed);
  const shape = Array.from({ length: 1 + Math.floor(r() * 4) }, () => 1 + Math.floor(r() * 3));
  const op = OPS[Math.floor(r() * OPS.length)]!;
  // the first operand has the result's shape half the time; others broadcast
  const operands = Array.from({ length: op.arity }, (_, k) => operand(k === 0 && r() < 0.5 ? shape : broadcastFrom(shape, r), r, k));
  const names = operands.map((_, k) => `o${k}`);
  return {
    name: `mixed ${seed}: ${(op.py as (...a: string[]) => string)(...operands.map((o, k) => o.py(`x${k}`)))}`,
    inputs: operands.map((o) => o.input),
    js: (...xs) => {
      const out = (op.js as (...a: Tensor[]) => Tensor)(...operands.map((o, k) => o.js(xs[k]!)));
      return [tpu.tensor(out.stride(), { dtype: 'int32' }), tpu.tensor([out.isContiguous()]), out];
    },
    py: [
      ...operands.map((o, k) => `${names[k]} = ${o.py(`x${k}`)}`),
      `r = ${(op.py as (...a: string[]) => string)(...names)}`,
      'result = (torch.tensor(r.stride(), dtype=torch.int32), torch.tensor([r.is_contiguous()]), r)',
    ].join('\n'),
  };
}

const strides = (t: Tensor) => tpu.tensor(t.stride(), { dtype: 'int32' });
const pyStrides = (t: string) => `torch.tensor(${t}.stride(), dtype=torch.int32)`;
const B = seq('float32', [2, 3]);
const S314 = seq('float32', [3, 1, 4]);

const picked: TorchCase[] = [
  // [4, 1, 3] with strides [1, 4, 4]: a scalar operand sorts dims (ties by size), a same-layout one copies them
  { name: 'size-1 dim: by a scalar and by itself', inputs: [S314], js: (x) => { const t = x.permute(2, 1, 0); return [strides(t.mul(2)), strides(t.mul(t)), strides(t.exp()), strides(t.clone())]; }, py: `t = x0.permute(2, 1, 0)\nresult = (${pyStrides('(t * 2)')}, ${pyStrides('(t * t)')}, ${pyStrides('t.exp()')}, ${pyStrides('t.clone()')})` },
  // contiguous but for the stride of a size-1 dim: a unary op is row-major, a cast keeps the strides
  { name: 'size-1 dim: contiguous with a moved size-1 dim', inputs: [seq('float32', [2, 1, 4, 5])], js: (x) => { const t = x.permute(0, 2, 3, 1); return [strides(t), strides(t.exp()), strides(t.mul(2)), strides(t.to('int32'))]; }, py: `t = x0.permute(0, 2, 3, 1)\nresult = (${pyStrides('t')}, ${pyStrides('t.exp()')}, ${pyStrides('(t * 2)')}, ${pyStrides('t.to(torch.int32)')})` },
  { name: 'unsqueezed transposes', inputs: [B], js: (x) => { const t = x.T.unsqueeze(1); return [strides(t.add(1)), strides(t.add(t)), strides(t.neg().squeeze(1))]; }, py: `t = x0.T.unsqueeze(1)\nresult = (${pyStrides('(t + 1)')}, ${pyStrides('(t + t)')}, ${pyStrides('(-t).squeeze(1)')})` },
  { name: '0-d operands', inputs: [B, f32(2.5)], js: (x, s) => [strides(s.mul(x.T)), strides(x.T.mul(s)), strides(s.exp()), s.mul(x.T)], py: `(${pyStrides('(x1 * x0.T)')}, ${pyStrides('(x0.T * x1)')}, ${pyStrides('x1.exp()')}, x1 * x0.T)` },
  { name: 'broadcast: transposed plus row-major, both orders', inputs: [seq('float32', [3, 4]), seq('float32', [4, 3])], js: (a, b) => [strides(a.T.add(b)), strides(b.add(a.T)), strides(a.T.add(b.at(0))), strides(b.at(':', null).add(a.T.at(':', null)))], py: `(${pyStrides('(x0.T + x1)')}, ${pyStrides('(x1 + x0.T)')}, ${pyStrides('(x0.T + x1[0])')}, ${pyStrides('(x1[:, None] + x0.T[:, None])')})` },
  { name: 'an expanded operand does not decide', inputs: [seq('float32', [4, 1])], js: (x) => [strides(x.expand([4, 3]).mul(2)), strides(x.T.expand([3, 4]).add(tpu.ones([4, 3]).T))], py: `(${pyStrides('(x0.expand(4, 3) * 2)')}, ${pyStrides('(x0.T.expand(3, 4) + torch.ones(4, 3).T)')})` },
  { name: 'copies of expanded views: dense strides in their order of dims', inputs: [seq('float32', [4, 1])], js: (x) => [strides(x.expand([4, 3]).clone()), strides(x.T.expand([3, 4]).T.clone()), strides(x.expand([4, 3]).T.to('int32')), strides(tpu.zerosLike(x.expand([4, 3]).T)), strides(x.expand([4, 3]).at('::2').clone())], py: `(${pyStrides('x0.expand(4, 3).clone()')}, ${pyStrides('x0.T.expand(3, 4).T.clone()')}, ${pyStrides('x0.expand(4, 3).T.to(torch.int32)')}, ${pyStrides('torch.zeros_like(x0.expand(4, 3).T)')}, ${pyStrides('x0.expand(4, 3)[::2].clone()')})` },
  { name: 'concat and stack of one tensor are copies', inputs: [B], js: (x) => { tpu.concat([x.T]).fill_(7); tpu.stack([x]).fill_(8); return [x, strides(tpu.concat([x.T])), strides(tpu.stack([x.T]))]; }, py: `torch.cat([x0.T]).fill_(7)\ntorch.stack([x0]).fill_(8)\nresult = (x0, ${pyStrides('torch.cat([x0.T])')}, ${pyStrides('torch.stack([x0.T])')})` },
  { name: 'same dtype to() returns the tensor itself', inputs: [B], js: (x) => { const t = x.T; t.to('float32').fill_(1); return x; }, py: 'x0.T.to(torch.float32).fill_(1)\nresult = x0' },
  // views of results, then written in place
  { name: 'reshape of a result in a transposed layout is a copy', inputs: [B], js: (x) => { const y = x.T.mul(2); y.reshape([6]).fill_(0); return y; }, py: 'y = x0.T * 2\ny.reshape(6).fill_(0)\nresult = y' },
  { name: 'view of a result in a transposed layout is an error', inputs: [B], js: (x) => x.T.mul(2).view([6]), py: '(x0.T * 2).view(6)' },
  { name: 'view of a cloned or cast transpose is an error', inputs: [B], js: (x) => x.T.clone().view([6]).add(x.T.to('int32').view([6])), py: 'x0.T.clone().view(6) + x0.T.to(torch.int32).view(6)' },
  { name: 'view of a transposed result aliases', inputs: [B], js: (x) => { const y = x.T.exp(); y.T.view([6]).at('1:4').fill_(7); return [y, strides(y)]; }, py: `y = x0.T.exp()\ny.T.view(6)[1:4].fill_(7)\nresult = (y, ${pyStrides('y')})` },
  { name: 'rows of a cloned transpose written in place', inputs: [B], js: (x) => { const y = x.T.clone(); y.at(1).mul_(10); y.at(':', 0).add_(1); return [y, x, strides(y.at(1)), tpu.tensor([y.at(':', 0).isContiguous()])]; }, py: `y = x0.T.clone()\ny[1].mul_(10)\ny[:, 0].add_(1)\nresult = (y, x0, ${pyStrides('y[1]')}, torch.tensor([y[:, 0].is_contiguous()]))` },
  { name: 'in-place ops keep the target layout', inputs: [B], js: (x) => { const y = x.T.mul(1); y.add_(tpu.ones([3, 2])); y.copy_(y.mul(2)); return [y, strides(y), strides(x.T.mul_(3))]; }, py: `y = x0.T * 1\ny.add_(torch.ones(3, 2))\ny.copy_(y * 2)\nresult = (y, ${pyStrides('y')}, ${pyStrides('x0.T.mul_(3)')})` },
  { name: 'flatten of a permuted result copies, of its inverse permute aliases', inputs: [seq('float32', [2, 3, 4])], js: (x) => { const y = x.permute(1, 2, 0).sigmoid(); y.flatten().fill_(0); y.permute(2, 0, 1).flatten().at('::5').fill_(-1); return y; }, py: 'y = x0.permute(1, 2, 0).sigmoid()\ny.flatten().fill_(0)\ny.permute(2, 0, 1).flatten()[::5].fill_(-1)\nresult = y' },
  { name: 'contiguous of a permuted result is a row-major copy', inputs: [B], js: (x) => { const y = x.T.abs(); const c = y.contiguous(); c.view([6]).fill_(0); return [y, strides(c)]; }, py: `y = x0.T.abs()\nc = y.contiguous()\nc.view(6).fill_(0)\nresult = (y, ${pyStrides('c')})` },
  // AccumulateGrad's layout contract: .grad has its leaf's strides
  { name: 'gradient of a leaf in a transposed layout', inputs: [B], js: (x) => { const q = x.T.mul(1).detach().requiresGrad_(); q.mul(q).sum().backward(); q.exp().sum().backward(); return [strides(q.grad!), q.grad!]; }, py: `q = (x0.T * 1).detach().requires_grad_()\n(q * q).sum().backward()\nq.exp().sum().backward()\nresult = (${pyStrides('q.grad')}, q.grad)` },
  { name: 'gradient of a row-major leaf through transposes', inputs: [B], js: (x) => { const p = x.mul(1).detach().requiresGrad_(); p.T.exp().mul(p.T).sum().backward(); return [strides(p.grad!), p.grad!]; }, py: `p = (x0 * 1).detach().requires_grad_()\n(p.T.exp() * p.T).sum().backward()\nresult = (${pyStrides('p.grad')}, p.grad)` },
];

torchTier('elementwise results over mixed layouts follow PyTorch', Array.from({ length: 48 }, (_, i) => mixedCase(i + 1)));
torchTier('results in a non-row-major layout, their views and writes', picked);
