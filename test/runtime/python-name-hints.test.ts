// PyTorch's snake_case names on a tensor, a module and an optimizer throw, naming the camelCase
// member: `if (x.requires_grad)` read undefined (silently false), x.masked_fill(...) was "not a
// function". The tensor and the session are unharmed.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const read = (o: object, key: string): unknown => (o as Record<string, unknown>)[key];

describe("PyTorch's snake_case names", () => {
  it('a read or a call of one names the camelCase member to use', () => {
    const x = tpu.tensor([1, -2], { requiresGrad: true });
    expect(() => read(x, 'requires_grad')).toThrow("x.requires_grad: PyTorch's requires_grad is x.requiresGrad here (tpu's names are camelCase)");
    expect(() => read(x, 'is_leaf')).toThrow("x.is_leaf: PyTorch's is_leaf is x.isLeaf here");
    expect(() => read(x, 'masked_fill')).toThrow("x.masked_fill: PyTorch's masked_fill is x.maskedFill here");
    expect(() => read(x, 'requires_grad_')).toThrow("x.requires_grad_: PyTorch's requires_grad_ is x.requiresGrad_ here");
    expect(() => read(x, 'log_softmax')).toThrow("x.log_softmax: PyTorch's log_softmax is x.logSoftmax here");
    const model = new tpu.nn.Linear(2, 1);
    expect(() => read(model, 'state_dict')).toThrow("model.state_dict: PyTorch's state_dict is model.stateDict here");
    expect(() => read(model, 'named_parameters')).toThrow("model.named_parameters: PyTorch's named_parameters is model.namedParameters here");
    const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 });
    expect(() => read(opt, 'zero_grad')).toThrow("opt.zero_grad: PyTorch's zero_grad is opt.zeroGrad here");
    expect(() => read(opt, 'param_groups')).toThrow("opt.param_groups: PyTorch's param_groups is opt.paramGroups here");
    expect(() => read(opt, 'add_param_group')).toThrow("opt.add_param_group: PyTorch's add_param_group is opt.addParamGroup here");
    expect(() => read(opt, 'state_dict')).toThrow("opt.state_dict: PyTorch's state_dict is opt.stateDict here");
    const sched = new tpu.optim.lrScheduler.StepLR(opt, 2);
    expect(() => read(sched, 'get_last_lr')).toThrow("sched.get_last_lr: PyTorch's get_last_lr is sched.getLastLr here");
    expect(() => read(sched, 'last_epoch')).toThrow("sched.last_epoch: PyTorch's last_epoch is sched.lastEpoch here");
    expect(() => read(new tpu.optim.lrScheduler.ReduceLROnPlateau(opt), 'num_bad_epochs')).toThrow("sched.num_bad_epochs: PyTorch's num_bad_epochs is sched.numBadEpochs here");
    expect(x.maskedFill(x.lt(0), 0).tolist()).toEqual([1, 0]);
  });

  it("tpu's namespaces name their camelCase functions too, and list only those", () => {
    expect(() => read(tpu, 'zeros_like')).toThrow("tpu.zeros_like: PyTorch's zeros_like is tpu.zerosLike here");
    expect(() => read(tpu.nn.functional, 'cross_entropy')).toThrow("tpu.nn.functional.cross_entropy: PyTorch's cross_entropy is tpu.nn.functional.crossEntropy here");
    expect(() => read(tpu.nn.init, 'kaiming_normal_')).toThrow("tpu.nn.init.kaiming_normal_: PyTorch's kaiming_normal_ is tpu.nn.init.kaimingNormal_ here");
    expect(() => read(tpu.nn.utils, 'clip_grad_norm_')).toThrow("tpu.nn.utils.clip_grad_norm_: PyTorch's clip_grad_norm_ is tpu.nn.utils.clipGradNorm_ here");
    expect(() => read(tpu.utils.data, 'random_split')).toThrow("tpu.utils.data.random_split: PyTorch's random_split is tpu.utils.data.randomSplit here");
    expect(Object.keys(tpu).filter((k) => k.includes('_'))).toEqual([]);
    expect(read(tpu, 'not_a_name')).toBeUndefined();
  });

  it('an assignment to one throws too, rather than setting a property nothing reads', () => {
    const x = tpu.tensor([1]);
    expect(() => { (x as unknown as Record<string, unknown>).requires_grad = true; }).toThrow("x.requires_grad: PyTorch's requires_grad is x.requiresGrad here");
    expect(x.requiresGrad).toBe(false);
  });

  it('names a module defines itself are its own', () => {
    class Net extends tpu.nn.Module {
      hidden_size = 4;
      fc = new tpu.nn.Linear(2, this.hidden_size);
      forward(v: ReturnType<typeof tpu.ones>) { return this.fc.forward(v); }
    }
    const net = new Net();
    expect(net.hidden_size).toBe(4);
    expect(net.forward(tpu.ones([1, 2])).shape).toEqual([1, 4]);
  });
});
