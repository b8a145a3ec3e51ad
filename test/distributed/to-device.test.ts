// x.to(device), model.to(device) and creation's device= option, as PyTorch code writes them: 'tpu:N' (what x.device reads)
// and PyTorch/XLA's 'xla:N' name a chip; a CPU or GPU device is refused naming what to do. Values
// are checked against hand-computed ones; the mode set back to strict after each.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

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

describe('model.to(device) and the optimizer', () => {
  it('an optimizer made before refuses to step, naming the fix; one made after trains the moved parameters', () => {
    const m = new nn.Linear(2, 1);
    tpu.noGrad(() => {
      m.weight.copy_(tpu.tensor([[1, -1]]));
      m.bias.zero_();
    });
    const early = new tpu.optim.SGD(m.parameters(), { lr: 0.5 });
    m.to('tpu:1', 'float32');
    expect(() => early.step()).toThrow("SGD.step: the parameter [1, 2] float32 was replaced by model.to('tpu:1', 'float32') after the optimizer took it");
    const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.5 });
    m.forward(tpu.tensor([[2, 3]], { chip: 1 })).sum().backward();
    opt.step();
    // w - 0.5 * x = [1 - 1, -1 - 1.5]
    expect([m.weight.device, m.weight.array()]).toEqual(['tpu:1', [[0, -2.5]]]);
  });
});

describe('bad devices', () => {
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
  });
});
