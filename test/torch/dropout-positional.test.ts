// F.dropout's p and training by position, as PyTorch's F.dropout(x, 0.2, self.training), and
// in the options: the identity when not training or p = 0, zeros at p = 1, and a seeded draw
// equal to the options form's, in every mode (PyTorch 2.13 for the values it fixes).
import { tpu } from 'tpu-kernel/runtime';
import { expect, it } from 'vitest';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const X = f32([[1.5, -2, 0.25], [3, 4, -5]]);
const F = tpu.nn.functional;

const cases: TorchCase[] = [
  { name: 'dropout(x, p, false) is the identity', inputs: [X], js: (x) => [F.dropout(x, 0.5, false), F.dropout(x, 0.9, { training: false })], py: '(F.dropout(x0, 0.5, False), F.dropout(x0, 0.9, training=False))' },
  { name: 'dropout(x, 1) gives zeros and dropout(x, 0) the input', inputs: [X], js: (x) => [F.dropout(x, 1), F.dropout(x, 0, true)], py: '(F.dropout(x0, 1.0), F.dropout(x0, 0.0, True))' },
];

torchTier('dropout with positional arguments vs PyTorch', cases);

it.each(['debug', 'strict', 'fused'] as const)('dropout(x, p) draws as dropout(x, { p }) in %s mode', (mode) => {
  tpu.withMode(mode, () => {
    const x = tpu.ones([64]);
    tpu.manualSeed(5);
    const a = F.dropout(x, 0.25).array() as number[];
    tpu.manualSeed(5);
    const b = F.dropout(x, { p: 0.25 }).array() as number[];
    expect(a).toEqual(b);
    expect(new Set(a)).toEqual(new Set([0, Math.fround(1 / 0.75)]));
  });
  expect(() => F.dropout(tpu.ones([2]), 0.5, 1 as never)).toThrow(/dropout: training must be a boolean; got 1/);
  expect(() => F.dropout(tpu.ones([2]), 0.5, { p: 0.1 })).toThrow(/dropout: p is given twice/);
});
