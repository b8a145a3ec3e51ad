// Type promotion against PyTorch: every pair of dtypes, as tensors, with a 0-d operand, and
// with JS scalars, through the binary ops and where.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, type InputSpec, torchTier, type TorchCase } from './torch-tier.js';

type Kind = 'float32' | 'bfloat16' | 'int32' | 'int64' | 'bool';
const KINDS: Kind[] = ['float32', 'bfloat16', 'int32', 'int64', 'bool'];
const vector: Record<Kind, InputSpec> = { float32: f32([1.5, -2, 3]), bfloat16: bf16([0.5, 4, -1.25]), int32: i32([3, -2, 5]), int64: i64([4, -3, 6]), bool: bool([true, false, true]) };
const scalar: Record<Kind, InputSpec> = { float32: f32(2.5), bfloat16: bf16(2), int32: i32(2), int64: i64(3), bool: bool(true) };
const OPS: [string, (a: Tensor, b: Tensor) => Tensor, string][] = [
  ['add', (a, b) => a.add(b), 'x0 + x1'],
  ['mul', (a, b) => a.mul(b), 'x0 * x1'],
  ['div', (a, b) => a.div(b), 'x0 / x1'],
  ['maximum', (a, b) => a.maximum(b), 'torch.maximum(x0, x1)'],
  ['where', (a, b) => tpu.where(tpu.tensor([true, false, true]), a, b), 'torch.where(torch.tensor([True, False, True]), x0, x1)'],
  ['lt', (a, b) => a.lt(b), 'x0 < x1'],
];

const cases: TorchCase[] = [];
for (const [op, js, py] of OPS) {
  for (const a of KINDS) {
    for (const b of KINDS) {
      cases.push({ name: `${op} ${a} tensor, ${b} tensor`, inputs: [vector[a], vector[b]], js, py });
      cases.push({ name: `${op} ${a} tensor, ${b} 0-d`, inputs: [vector[a], scalar[b]], js, py });
    }
  }
}
// JS numbers are weak scalars (PyTorch's Python scalars); 2.5 is a float, 2 an int
for (const a of KINDS) {
  cases.push({ name: `mul ${a} tensor by 2.5`, inputs: [vector[a]], js: (x) => x.mul(2.5), py: 'x0 * 2.5' });
  cases.push({ name: `mul ${a} tensor by 2`, inputs: [vector[a]], js: (x) => x.mul(2), py: 'x0 * 2' });
  cases.push({ name: `add true to ${a} tensor`, inputs: [vector[a]], js: (x) => x.add(true), py: 'x0 + True' });
}

torchTier('type promotion vs PyTorch', cases);
