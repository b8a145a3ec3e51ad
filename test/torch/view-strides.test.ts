// Which results alias their input, which view() calls fail, and which writes to expanded
// views are refused: PyTorch's strides decide, and PyTorch 2.13 is the reference. A case
// returns the base after a write through the result (so aliasing shows in the values), or
// the strides as a tensor.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, seq, torchTier, type TorchCase } from './torch-tier.js';

const B = seq('float32', [2, 3]);
const B43 = seq('float32', [4, 3]);
const V2 = f32([1, 2]);
const strides = (t: Tensor) => tpu.tensor(t.stride(), { dtype: 'int64' });
/** Writes 7 through f(base) and returns the base: 7s appear only where f(base) aliases it. */
const fillThrough = (f: (b: Tensor) => Tensor) => (b: Tensor) => { f(b).fill_(7); return b; };
const pyFill = (expr: string) => `b = x0\n(${expr}).fill_(7)\nresult = b`;

const cases: TorchCase[] = [
  { name: 'reshape of a transposed view is a copy', inputs: [B], js: fillThrough((b) => b.T.reshape([6])), py: pyFill('b.T.reshape(6)') },
  { name: 'reshape of a contiguous view aliases', inputs: [B], js: fillThrough((b) => b.at(1).reshape([3, 1])), py: pyFill('b[1].reshape(3, 1)') },
  { name: 'reshape of rows with a step is a copy', inputs: [B43], js: fillThrough((b) => b.at('::2').reshape([6])), py: pyFill('b[::2].reshape(6)') },
  { name: 'reshape of rows with a step keeps its chunks', inputs: [B43], js: fillThrough((b) => b.at('::2').reshape([2, 3, 1])), py: pyFill('b[::2].reshape(2, 3, 1)') },
  { name: 'view of a transposed view is an error', inputs: [B], js: (b) => b.T.view([6]), py: 'x0.T.view(6)' },
  { name: 'view of a double transpose aliases', inputs: [B], js: fillThrough((b) => b.T.T.view([6]).at('1:3')), py: pyFill('b.T.T.view(6)[1:3]') },
  { name: 'view of a narrow along dim 0 aliases', inputs: [B], js: fillThrough((b) => b.narrow(0, 1, 1).view([3]).at('::2')), py: pyFill('b.narrow(0, 1, 1).view(3)[::2]') },
  { name: 'view of a narrow along dim 1 is an error', inputs: [B], js: (b) => b.narrow(1, 1, 2).view([4]), py: 'x0.narrow(1, 1, 2).view(4)' },
  { name: 'view of rows of a transpose is an error', inputs: [B], js: (b) => b.T.at('1:', ':').view([4]), py: 'x0.T[1:, :].view(4)' },
  { name: 'view splitting a transposed dim aliases', inputs: [B43], js: fillThrough((b) => b.T.view([3, 2, 2]).at(':', 1)), py: pyFill('b.T.view(3, 2, 2)[:, 1]') },
  { name: 'unsqueeze and squeeze of a transpose then view', inputs: [B], js: fillThrough((b) => b.T.unsqueeze(0).squeeze(0).T.view([6]).at('4:')), py: pyFill('b.T.unsqueeze(0).squeeze(0).T.view(6)[4:]') },
  { name: 'flatten of a transpose is a copy', inputs: [B], js: fillThrough((b) => b.T.flatten()), py: pyFill('b.T.flatten()') },
  { name: 'flatten of a contiguous tensor aliases', inputs: [B], js: fillThrough((b) => b.flatten().at('2:4')), py: pyFill('b.flatten()[2:4]') },
  { name: 'unflatten of a transpose aliases', inputs: [B43], js: fillThrough((b) => b.T.unflatten(1, [2, -1]).at(0, 1)), py: pyFill('b.T.unflatten(1, (2, -1))[0, 1]') },
  { name: 'contiguous of a transpose is a copy', inputs: [B], js: fillThrough((b) => b.T.contiguous()), py: pyFill('b.T.contiguous()') },
  { name: 'contiguous of a contiguous view aliases', inputs: [B], js: fillThrough((b) => b.at(1).contiguous()), py: pyFill('b[1].contiguous()') },
  { name: 'clone is a copy', inputs: [B], js: fillThrough((b) => b.clone()), py: pyFill('b.clone()') },
  { name: 'repeat is a copy', inputs: [V2], js: fillThrough((b) => b.repeat([2])), py: pyFill('b.repeat(2)') },
  { name: 'chunks alias', inputs: [B], js: fillThrough((b) => b.chunk(3, 1)[1]!), py: pyFill('b.chunk(3, 1)[1]') },
  { name: 'detach aliases', inputs: [B], js: fillThrough((b) => b.detach().at(0)), py: pyFill('b.detach()[0]') },
  { name: 'movedim then reshape is a copy', inputs: [seq('float32', [2, 2, 2])], js: fillThrough((b) => b.movedim(0, -1).reshape([8])), py: pyFill('b.movedim(0, -1).reshape(8)') },
  // strides and contiguity
  { name: 'strides of transposes and unsqueezes', inputs: [B], js: (b) => [strides(b.T), strides(b.T.unsqueeze(1)), strides(b.at(null, null)), strides(b.T.at(null)), strides(b.at(':', null))], py: '[torch.tensor(t.stride()) for t in (x0.T, x0.T.unsqueeze(1), x0[None, None], x0.T[None], x0[:, None])]' },
  { name: 'strides of selects and slices', inputs: [B43], js: (b) => [strides(b.at(':', 1)), strides(b.at(1)), strides(b.at('::2', '1:')), strides(b.T.at(1)), strides(b.narrow(1, 1, 2).T)], py: '[torch.tensor(t.stride()) for t in (x0[:, 1], x0[1], x0[::2, 1:], x0.T[1], x0.narrow(1, 1, 2).T)]' },
  { name: 'strides of expand and permute', inputs: [seq('float32', [1, 3])], js: (b) => [strides(b.expand([2, 3])), strides(b.expand([4, 2, 3])), strides(b.unsqueeze(2).expand([1, 3, 5]).permute(2, 0, 1))], py: '[torch.tensor(t.stride()) for t in (x0.expand(2, 3), x0.expand(4, 2, 3), x0.unsqueeze(2).expand(1, 3, 5).permute(2, 0, 1))]' },
  { name: 'isContiguous', inputs: [B], js: (b) => tpu.tensor([b.T, b.T.T, b.at('0:1'), b.at(':', '0:1'), b.at(':', '0:2'), b.at(1), b.at(':', 1)].map((t) => t.isContiguous())), py: 'torch.tensor([t.is_contiguous() for t in (x0.T, x0.T.T, x0[0:1], x0[:, 0:1], x0[:, 0:2], x0[1], x0[:, 1])])' },
  // writes to expanded views
  { name: 'add_ to an expanded view is an error', inputs: [V2], js: (v) => v.expand([2, 2]).add_(1), py: 'x0.expand(2, 2).add_(1)' },
  { name: 'copy_ to an expanded view is an error', inputs: [V2], js: (v) => v.expand([2, 2]).copy_(tpu.ones([2, 2])), py: 'x0.expand(2, 2).copy_(torch.ones(2, 2))' },
  { name: 'clamp_ of an expanded view is an error', inputs: [V2], js: (v) => v.expand([2, 2]).clamp_(0, 1), py: 'x0.expand(2, 2).clamp_(0, 1)' },
  { name: 'fill_ and zero_ of an expanded view write each element once', inputs: [V2, V2], js: (a, b) => { a.expand([3, 2]).fill_(5); b.expand([3, 2]).zero_(); return [a, b]; }, py: 'x0.expand(3, 2).fill_(5)\nx1.expand(3, 2).zero_()\nresult = (x0, x1)' },
  { name: 'add_ to a row of an expanded view', inputs: [V2], js: (v) => { v.expand([3, 2]).at(0).add_(1); return v; }, py: 'x0.expand(3, 2)[0].add_(1)\nresult = x0' },
  { name: 'add_ to an expand that repeats nothing', inputs: [V2], js: (v) => { v.expand([2]).add_(1); return v; }, py: 'x0.expand(2).add_(1)\nresult = x0' },
  { name: 'maskedFill_ of an expanded view', inputs: [V2], js: (v) => { v.expand([2, 2]).maskedFill_(tpu.tensor([[true, false], [false, false]]), 3); return v; }, py: 'import warnings\nwarnings.simplefilter("ignore")\nx0.expand(2, 2).masked_fill_(torch.tensor([[True, False], [False, False]]), 3)\nresult = x0' },
  { name: 'set on an expanded view is an error', inputs: [V2], js: (v) => v.expand([2, 2]).at('...').set(4), py: 'x0.expand(2, 2)[...] = 4\nresult = x0' },
  { name: 'set on a row of an expanded view', inputs: [V2], js: (v) => { v.expand([2, 2]).at(0, ':').set(tpu.tensor([5, 6])); return v; }, py: 'x0.expand(2, 2)[0, :] = torch.tensor([5., 6.])\nresult = x0' },
];

torchTier('views follow PyTorch strides', cases);
