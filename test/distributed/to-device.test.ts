// x.to(device), model.to(device) and creation's device= option, as PyTorch code writes them: 'tpu:N' (what x.device reads)
// and PyTorch/XLA's 'xla:N' name a chip; a CPU or GPU device is refused naming what to do. Values
// are checked against hand-computed ones; the mode set back to strict after each.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectThrowInEveryMode } from '../support/throws-in-every-mode.js';

tpu.setDevice({ chips: 2 });
const { nn } = tpu;

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  const inMode = <T>(run: () => T): T => {
    tpu.mode(mode);
    try {
      return run();
    } finally {
      tpu.mode('strict');
    }
  };

  it("x.to(device): itself on its own chip, a copy on another, with a dtype by position, option or another tensor's", () => inMode(() => {
    const x = tpu.tensor([1.5, -2.5, 3]);
    expect(x.to(x.device)).toBe(x);
    expect(x.to('tpu')).toBe(x);
    expect(x.to({ device: 'xla:0' })).toBe(x);
    const y = x.to('tpu:1');
    expect([y.device, y.chip, y.dtype, y.array()]).toEqual(['tpu:1', 1, 'float32', [1.5, -2.5, 3]]);
    // truncation toward zero, as PyTorch's float -> int cast
    expect([x.to('xla:1', 'int32').device, x.to('tpu:1', 'int32').array()]).toEqual(['tpu:1', [1, -2, 3]]);
    const other = tpu.zeros([1], { dtype: 'int64', chip: 1 });
    const z = x.to(other);
    expect([z.device, z.dtype]).toEqual(['tpu:1', 'int64']);
    expect(x.to({ device: 'tpu:1', dtype: 'bfloat16' }).dtype).toBe('bfloat16');
  }));

  it("copy_ from another chip brings the values to the target's chip, as PyTorch's copy_ across devices", () => inMode(() => {
    const a = tpu.tensor([1, 2]);
    a.copy_(tpu.tensor([3, 4], { chip: 1 }));
    const b = tpu.zeros([2], { dtype: 'int32', device: 'tpu:1' });
    b.copy_(tpu.tensor([5.5, -6.5]));
    expect([a.device, a.array(), a.add(1).array(), b.device, b.array()]).toEqual(['tpu:0', [3, 4], [4, 5], 'tpu:1', [5, -6]]);
  }));

  it('the gradient of x.to(device) flows back to x', () => inMode(() => {
    const x = tpu.tensor([1, -2], { requiresGrad: true });
    x.to('tpu:1').mul(tpu.tensor([3, 4], { chip: 1 })).sum().backward();
    expect([x.grad!.device, x.grad!.array()]).toEqual(['tpu:0', [3, 4]]);
  }));

  it('model.to(device) moves its parameters; the forward on that chip is the same linear map', () => inMode(() => {
    const m = new nn.Linear(3, 2);
    tpu.noGrad(() => {
      m.weight.copy_(tpu.tensor([[1, 2, 3], [-1, 0.5, 2]]));
      m.bias.copy_(tpu.tensor([0.5, -1]));
    });
    const before = m.weight;
    expect(m.to('tpu:0')).toBe(m);
    expect(m.weight).toBe(before); // nothing to change on its own chip
    expect(m.to('tpu:1')).toBe(m);
    expect(m.parameters().map((p) => (p as Tensor).device)).toEqual(['tpu:1', 'tpu:1']);
    expect(m.parameters().length).toBe(2);
    // [1, 1, 2] · rows + bias: 1 + 2 + 6 + 0.5 = 9.5; -1 + 0.5 + 4 - 1 = 2.5
    const y = m.forward(tpu.tensor([[1, 1, 2]], { chip: 1 }));
    expect([y.device, y.array()]).toEqual(['tpu:1', [[9.5, 2.5]]]);
  }));

  it("tpu.zerosLike and the other *Like functions take PyTorch's device=: that chip, x's dtype unless given; x's chip by default", () => inMode(() => {
    const x = tpu.tensor([[1.5, -2], [3, 4]], { device: 'tpu:1' });
    const on0 = { device: 'tpu:0' } as const;
    const made = [tpu.zerosLike(x, on0), tpu.onesLike(x, { device: 'xla:0' }), tpu.fullLike(x, 7, on0), tpu.emptyLike(x, on0), tpu.randLike(x, on0), tpu.randnLike(x, on0), tpu.randintLike(x, 3, on0), tpu.randintLike(x, 5, 8, on0)];
    expect(made.map((t) => [t.device, t.dtype, t.shape])).toEqual(made.map(() => ['tpu:0', 'float32', [2, 2]]));
    const values = made.map((t) => (t.array() as number[][]).flat());
    expect(values.slice(0, 4)).toEqual([[0, 0, 0, 0], [1, 1, 1, 1], [7, 7, 7, 7], [0, 0, 0, 0]]);
    expect(values[4]!.every((v) => v >= 0 && v < 1) && values[6]!.every((v) => [0, 1, 2].includes(v)) && values[7]!.every((v) => [5, 6, 7].includes(v))).toBe(true);
    expect(values[5]!.every(Number.isFinite)).toBe(true);
    const typed = tpu.zerosLike(x, { device: 'tpu:0', dtype: 'int32' });
    expect([typed.device, typed.dtype, tpu.onesLike(x).device, tpu.randnLike(x, { dtype: 'bfloat16' }).device, tpu.fullLike(x, 1, { device: 'tpu' }).device]).toEqual(['tpu:0', 'int32', 'tpu:1', 'tpu:1', 'tpu:0']);
  }));

  /** A Linear(2, 1) with weight [[1, -1]] and bias 0. */
  const linear = () => {
    const m = new nn.Linear(2, 1);
    tpu.noGrad(() => {
      m.weight.copy_(tpu.tensor([[1, -1]]));
      m.bias.zero_();
    });
    return m;
  };

  it('model.to(device) keeps the parameter tensors, as PyTorch: an optimizer made before trains them on the new chip; .grad moves along', () => inMode(() => {
    const m = linear();
    const [w, b] = [m.weight, m.bias];
    const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.5 });
    m.forward(tpu.tensor([[1, 1]])).sum().backward();
    const grad = w.grad!;
    m.to('tpu:1');
    expect([m.weight === w, m.bias === b, w.device, b.device, w.grad === grad, grad.device, grad.array()]).toEqual([true, true, 'tpu:1', 'tpu:1', true, 'tpu:1', [[1, 1]]]);
    opt.zeroGrad();
    m.forward(tpu.tensor([[2, 3]], { chip: 1 })).sum().backward();
    opt.step();
    // w - 0.5 * x = [1 - 1, -1 - 1.5]; b - 0.5 * 1
    expect([w.device, w.array(), b.array()]).toEqual(['tpu:1', [[0, -2.5]], [-0.5]]);
  }));

  it("an optimizer's state stays on its chip, as PyTorch's: a step is an error naming the fix, and loadStateDict moves the state", () => inMode(() => {
    const m = linear();
    const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.5, momentum: 0.5 });
    const loss = () => m.forward(tpu.tensor([[2, 3]], { device: m.weight.device })).sum().backward();
    loss();
    opt.step(); // momentum [2, 3]: w = [0, -2.5], b = -0.5
    m.to('xla:1');
    opt.zeroGrad();
    loss();
    expect(() => opt.step()).toThrow("SGD.step: its state momentumBuffer of the parameter [1, 2] float32 on tpu:1 is float32 on tpu:0: model.to() and w.data = v convert the parameters, not the optimizer's state (PyTorch's step fails here too); make the optimizer after them, or convert its state to the parameters' dtype and chip with opt.loadStateDict(opt.stateDict()), as PyTorch's load_state_dict does");
    expect(m.weight.array()).toEqual([[0, -2.5]]); // nothing stepped
    opt.loadStateDict(opt.stateDict());
    opt.step();
    // momentum 0.5 * [2, 3] + [2, 3] = [3, 4.5]: w = [0, -2.5] - 0.5 * [3, 4.5]; b: 0.5 * 1 + 1 = 1.5, -0.5 - 0.75
    expect([m.weight.device, m.weight.array(), m.bias.array()]).toEqual(['tpu:1', [[-1.5, -4.75]], [-1.25]]);
  }));

  it('a tpu.compile step traces again after model.to(device) and trains the moved parameters', () => inMode(() => {
    const m = linear();
    const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.5 });
    const step = tpu.compile((x: Tensor) => {
      opt.zeroGrad();
      const loss = m.forward(x).sum();
      loss.backward();
      opt.step();
      return loss;
    });
    // loss = x · w + b; then w -= 0.5 x, b -= 0.5
    expect(step(tpu.tensor([[2, 3]])).item()).toBe(-1);
    expect(step(tpu.tensor([[2, 3]])).item()).toBe(-8);
    m.to('tpu:1');
    const loss = step(tpu.tensor([[2, 3]], { chip: 1 }));
    expect([loss.device, loss.item(), m.weight.array(), step.stats().traces]).toEqual(['tpu:1', -15, [[-2, -5.5]], 2]);
  }));

  it('work recorded before model.to(device) reads the values as they were', () => inMode(() => {
    const m = linear();
    const y = m.weight.mul(3);
    const sd = m.stateDict();
    m.to('tpu:1');
    tpu.noGrad(() => m.weight.add_(1));
    expect([y.device, y.array(), sd.weight!.device, sd.weight!.array(), m.weight.array()]).toEqual(['tpu:0', [[3, -3]], 'tpu:0', [[1, -1]], [[2, 0]]]);
  }));
});

describe('creation with device=', () => {
  it("makes the tensor on the chip the device names, as PyTorch's device= argument; x.newZeros defaults to x's chip", () => {
    expect([tpu.zeros([2], { device: 'tpu:1' }).device, tpu.tensor([1, 2], { device: 'xla:1' }).array()]).toEqual(['tpu:1', [1, 2]]);
    expect([tpu.arange(3, { device: 'tpu:1' }).device, tpu.randn([2], { device: 'tpu' }).device, tpu.logspace(0, 1, 2, { device: 'tpu:1' }).device]).toEqual(['tpu:1', 'tpu:0', 'tpu:1']);
    const x = tpu.ones([2], { device: 'tpu:1' });
    expect([x.newZeros(2).device, x.newZeros(2, { device: 'tpu:0' }).device, tpu.ones([1], { chip: 1, device: 'tpu:1' }).device]).toEqual(['tpu:1', 'tpu:0', 'tpu:1']);
    expect(() => tpu.zeros([1], { device: 'cpu' as never })).toThrow("tpu.zeros: device 'cpu' is not one of this session's");
    expect(() => tpu.zeros([1], { device: 'tpu:3' })).toThrow("tpu.zeros: the chip of device 'tpu:3' must be an integer in [0, 2)");
    expect(() => tpu.zeros([1], { chip: 0, device: 'tpu:1' })).toThrow("tpu.zeros: chip 0 and device 'tpu:1' name different chips; give one of them");
  });
});

describe('bad devices', () => {
  it('a *Like function with a CPU device, a chip out of range or a misspelt option is an error naming it', () => {
    const x = tpu.zeros([2]);
    expectThrowInEveryMode(() => tpu.zerosLike(x, { device: 'cpu' as never }), /^tpu\.zerosLike: device 'cpu' is not one of this session's: tensors live on its TPU chips/);
    expectThrowInEveryMode(() => tpu.randintLike(x, 0, 4, { device: 'tpu:2' }), /^tpu\.randintLike: the chip of device 'tpu:2' must be an integer in \[0, 2\)/);
    expectThrowInEveryMode(() => tpu.onesLike(x, { devcie: 'tpu:1' } as never), /^tpu\.onesLike: unknown option 'devcie'; tpu\.onesLike accepts 'dtype', 'device'$/);
    expectThrowInEveryMode(() => tpu.fullLike(x, 1, { device: 'gpu' as never }), /^tpu\.fullLike: device must be 'tpu' or 'tpu:N'/);
  });

  it('a CPU or GPU device, an unknown string, a chip out of range, a DTensor moved and a spread module are errors naming them', () => {
    const x = tpu.tensor([1]);
    const elsewhere = "device 'cpu' is not one of this session's: tensors live on its TPU chips ('tpu:0', ... as x.device reads); read values to the host with .array(), .tolist() or .item()";
    expect(() => x.to('cpu' as never)).toThrow(`to: ${elsewhere}`);
    expect(() => x.to({ device: 'cuda:0' as never })).toThrow("to: device 'cuda:0' is not one of this session's");
    expect(() => new nn.Linear(1, 1).to('cpu' as never)).toThrow(`Module.to: ${elsewhere}`);
    expect(() => x.to('float33' as never)).toThrow("to: its argument (a dtype, or a device such as 'tpu:0') must be one of float32, bfloat16, int32, int64, bool; got \"float33\"");
    expect(() => x.to({ device: 'gpu' as never })).toThrow("to: device must be 'tpu' or 'tpu:N' (a chip, as x.device reads); got \"gpu\"");
    expect(() => x.to('tpu:2')).toThrow('toChip: chip must be an integer in [0, 2)');
    const mesh = tpu.initDeviceMesh([2]);
    const ddp = new nn.DistributedDataParallel(new nn.Linear(1, 1), { mesh });
    const dt = tpu.distributeTensor(tpu.tensor([1, 2]), mesh, [tpu.Shard(0)]);
    expect(() => dt.to('tpu:1')).toThrow("DTensor.to: a DTensor lives on its mesh's chips, a piece on each: a device would put every piece on one chip; redistribute it, or move dt.fullTensor()");
    expect(dt.to('int32').localTensors().map((t) => [t.device, t.array()])).toEqual([['tpu:0', [1]], ['tpu:1', [2]]]);
    expect(() => ddp.to('tpu:1')).toThrow('Module.to: its tensors are on chips 0, 1; a module spread over chips (DistributedDataParallel, fullyShard, one placed by hand) is not moved to one chip: call .to(device) before wrapping it');
    const fsdp = nn.fullyShard(new nn.Linear(1, 2), { mesh });
    for (const to of ['tpu:1', 'bfloat16'] as const) {
      expect(() => fsdp.to(to)).toThrow("Module.to: 'weight' is a DTensor (of dtype float32, on its mesh's chips): converting a sharded parameter is not supported; call .to() before distributing the module");
    }
    expect(fsdp.to('float32')).toBe(fsdp);
    expect(() => ddp.to('bfloat16')).toThrow("Module.to: its parameter [1, 1] float32 on tpu:1 is held by a wrapper (DistributedDataParallel's replicas), not by a module, and is not converted: call .to() before wrapping the module");
    expect(ddp.parameters().map((p) => (p as Tensor).dtype)).toEqual(['float32', 'float32', 'float32', 'float32']);
  });
});
