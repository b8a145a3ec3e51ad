// x.round_({ decimals }) against PyTorch 2.13 (the option was dropped unread, so round_ rounded
// to integers), in every mode and under tpu.compile; the other in-place unary ops refuse an
// argument they would drop; a tensor given where options go is named as a tensor (its values
// were read to print it: under tpu.compile that was an error about reading instead).
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, uniform, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  {
    name: 'round_ with decimals 1, 2 and -1, half to even, and none',
    inputs: [f32([1.234, 5.678, -2.25, 0.125, 1250, 3.5])],
    js: (x) => [x.clone().round_({ decimals: 1 }), x.clone().round_({ decimals: 2 }), x.clone().round_({ decimals: -1 }), x.clone().round_()],
    py: '[x0.clone().round_(decimals=1), x0.clone().round_(decimals=2), x0.clone().round_(decimals=-1), x0.clone().round_()]',
  },
  {
    name: 'round_ with decimals through a view writes the base',
    inputs: [uniform([2, 3], 1, -5, 5)],
    js: (x) => { const y = x.clone(); y.at(1).round_({ decimals: 1 }); return y; },
    py: 'y = x0.clone()\ny[1].round_(decimals=1)\nresult = y',
  },
];

torchTier('round_ takes decimals', cases, { compile: true });

describe('arguments in-place unary ops would drop, and tensors where options go', () => {
  it('relu_, exp_ ... take no arguments', () => {
    const x = tpu.tensor([1, -1]);
    expect(() => x.relu_(true as never)).toThrow(/relu_: takes no arguments, as torch.Tensor.relu_; got boolean true/);
    expect(() => (x.exp_ as (...a: unknown[]) => Tensor)({ decimals: 1 })).toThrow(/exp_: takes no arguments.*got an object of type Object/);
    expect(() => x.round_({ decimal: 1 } as never)).toThrow(/round: unknown option 'decimal'/);
  });

  it('a tensor where options go is named by shape and dtype, also under tpu.compile', () => {
    const [x, y, w] = [tpu.zeros([3, 4]), tpu.tensor([0, 3, 1], { dtype: 'int64' }), tpu.ones([4])];
    const message = /crossEntropy: options must be an object with keys .*; got a tensor \[4\] float32/;
    expect(() => tpu.nn.crossEntropy(x, y, w as never)).toThrow(message);
    expect(() => tpu.compile((a: Tensor, b: Tensor, c: Tensor) => tpu.nn.crossEntropy(a, b, c as never))(x, y, w)).toThrow(message);
  });
});
