// The options of Adam's amsgrad, maximize, RMSprop and Adagrad: bad values and unknown names
// are errors naming the option, at construction and (set on a group between steps) at the next
// step; PyTorch's snake_case names on the new optimizers name the camelCase ones.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const { optim } = tpu;
const read = (o: object, key: string): unknown => (o as Record<string, unknown>)[key];

describe('optimizer options', () => {
  it('bad values name the option, what was expected and what came', () => {
    const p = tpu.zeros([2], { requiresGrad: true });
    expect(() => new optim.Adam([p], { amsgrad: 1 as never })).toThrow('Adam: amsgrad must be true or false; got 1');
    expect(() => new optim.AdamW([p], { maximize: 'yes' as never })).toThrow('AdamW: maximize must be true or false; got "yes"');
    expect(() => new optim.SGD([{ params: [p], maximize: null as never }])).toThrow('SGD: paramGroups[0].maximize must be true or false; got null');
    expect(() => new optim.RMSprop([p], { alpha: -0.5 })).toThrow('RMSprop: alpha must be a number in [0, Infinity]; got -0.5');
    expect(() => new optim.RMSprop([p], { momentum: -1 })).toThrow('RMSprop: momentum must be a number in [0, Infinity]; got -1');
    expect(() => new optim.RMSprop([p], { centered: 0 as never })).toThrow('RMSprop: centered must be true or false; got 0');
    expect(() => new optim.Adagrad([p], { lrDecay: -0.1 })).toThrow('Adagrad: lrDecay must be a number in [0, Infinity]; got -0.1');
    expect(() => new optim.Adagrad([p], { initialAccumulatorValue: -1 })).toThrow('Adagrad: initialAccumulatorValue must be a number in [0, Infinity]; got -1');
  });

  it("unknown and PyTorch-spelled options are errors (PyTorch's initial_accumulator_value)", () => {
    const p = tpu.zeros([2], { requiresGrad: true });
    expect(() => new optim.Adagrad([p], { initial_accumulator_value: 0.1 } as never)).toThrow(/Adagrad: unknown option 'initial_accumulator_value'/);
    expect(() => new optim.RMSprop([p], { momentom: 0.9 } as never)).toThrow(/RMSprop: unknown option 'momentom'/);
    expect(() => new optim.Adam([p], { amsgrad: true, forEach: true } as never)).toThrow(/Adam: unknown option 'forEach'/);
  });

  it('a bad value set on a group between steps is an error at the next step, naming the group', () => {
    const p = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    const opt = new optim.Adam([p], { amsgrad: true });
    opt.paramGroups[0]!.amsgrad = 'no' as never;
    p.sum().backward();
    expect(() => opt.step()).toThrow('Adam: paramGroups[0].amsgrad must be true or false; got "no"');
    const ada = new optim.Adagrad([p]);
    ada.paramGroups[0]!.lrDecay = -2;
    expect(() => ada.step()).toThrow('Adagrad: paramGroups[0].lrDecay must be a number in [0, Infinity]; got -2');
  });

  it("PyTorch's snake_case names on the new optimizers and their groups name the camelCase ones", () => {
    const p = tpu.zeros([2], { requiresGrad: true });
    const rms = new optim.RMSprop([p]);
    expect(() => read(rms, 'weight_decay')).toThrow("opt.weight_decay: PyTorch's weight_decay is opt.weightDecay here");
    expect(() => read(rms, 'zero_grad')).toThrow("opt.zero_grad: PyTorch's zero_grad is opt.zeroGrad here");
    const ada = new optim.Adagrad([p]);
    expect(() => read(ada, 'lr_decay')).toThrow("opt.lr_decay: PyTorch's lr_decay is opt.lrDecay here");
    expect(() => read(ada, 'initial_accumulator_value')).toThrow("opt.initial_accumulator_value: PyTorch's initial_accumulator_value is opt.initialAccumulatorValue here");
    expect(() => { (ada.paramGroups[0] as unknown as Record<string, unknown>).lr_decay = 0.1; }).toThrow("opt.paramGroups[0].lr_decay: PyTorch's lr_decay is opt.paramGroups[0].lrDecay here");
    expect(ada.lrDecay).toBe(0);
  });
});
