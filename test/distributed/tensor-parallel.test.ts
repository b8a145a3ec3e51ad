// Tensor parallelism on 4 emulated chips: parallelizeModule with ColwiseParallel and
// RowwiseParallel on a [4] mesh and on a [2, 2] mesh (dim 0 data parallel, dim 1 tensor
// parallel) trains the spirals MLP as one chip does, step by step, with SGD (momentum) and
// Adam in every mode and under tpu.compile; the parameters are DTensors whose optimizer state
// is sharded alike; zeroGrad, the full state dict through safetensors, and clear errors.
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor, type Tensor } from 'tpu-kernel/runtime';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectClose, host, mlp, spirals } from '../support/spirals-training.js';
import { mesh2d } from '../support/meshes.js';
import { describeTensorParallel, expectTensorParallelParameters } from './tensor-parallel-cases.js';

const { nn, distributed } = tpu;
// A 1-d mesh named for its job (the same 4 chips as support/meshes.ts' [4] mesh).
const mesh = tpu.initDeviceMesh([4], { names: ['tp'] });
const plan = () => ({ '0': distributed.ColwiseParallel(), '2': distributed.RowwiseParallel() });

describeTensorParallel([mesh, mesh2d]);

describe('tensor-parallel parameters', () => {
  const { X, Y } = spirals(50, 1);

  it("parameters() yields DTensors with the styles' placements; one step's gradient and SGD weight decay as one chip's; zeroGrad drops them", () => {
    for (const m of [mesh, mesh2d]) {
      tpu.manualSeed(0);
      const one = mlp();
      tpu.manualSeed(0);
      const tp = distributed.parallelizeModule(mlp(), m, plan());
      expectTensorParallelParameters(m, tp);
      // The Colwise weight's pieces: 10 output rows in torch.chunk pieces along the tensor-parallel dim.
      const w0 = tp.parameters()[0] as DTensor;
      expect(w0.localTensors().map((t) => t.shape[0])).toEqual(m.ndim === 1 ? [3, 3, 3, 1] : [5, 5, 5, 5]);
      const opts = { lr: 0.3, momentum: 0.9, weightDecay: 0.01 };
      const [optOne, optTp] = [new tpu.optim.SGD(one.parameters(), opts), new tpu.optim.SGD(tp.parameters(), opts)];
      for (const [model, opt] of [[one, optOne], [tp, optTp]] as const) {
        nn.crossEntropy(model.forward(X) as Tensor, Y).backward();
        opt.step();
      }
      // The gradient of each DTensor parameter is the 1-chip one (summed over the data-parallel dim on a [2, 2] mesh).
      tp.parameters().forEach((p, i) => {
        const g = p.grad!;
        expectClose(host(g instanceof tpu.DTensor ? g.fullTensor() : g), host(one.parameters()[i]!.grad as Tensor), 1e-5);
      });
      // zeroGrad drops the gradients; a .grad all-reduced over Replicate dims (the Rowwise bias) that the user
      // holds keeps its values, as PyTorch's zero_grad(set_to_none=True) (dtensor-zero-grad-keeps-held.test.ts).
      const biasGrad = (tp.parameters()[3] as DTensor).grad!;
      optTp.zeroGrad();
      tp.parameters().forEach((p) => expect(p.grad).toBeNull());
      expectClose(host(biasGrad.fullTensor()), host(one.parameters()[3]!.grad as Tensor), 1e-5);
      for (const [model, opt] of [[one, optOne], [tp, optTp]] as const) {
        opt.zeroGrad();
        nn.crossEntropy(model.forward(X) as Tensor, Y).backward();
        opt.step();
      }
      const want = one.stateDict();
      for (const [k, t] of Object.entries(tp.stateDict())) expectClose(host(t), host(want[k]!), 1e-4);
    }
  });

  it('a frozen tensor-parallel layer stays in parameters(); an optimizer made after freezing steps it once unfrozen, as one chip', () => {
    tpu.manualSeed(0);
    const one = mlp();
    tpu.manualSeed(0);
    const tp = distributed.parallelizeModule(mlp(), mesh, plan());
    const count = one.parameters().length;
    const runs = [one, tp].map((model) => {
      model[0]!.requiresGrad_(false);
      expect(model.parameters().length).toBe(count);
      const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.3, momentum: 0.9 });
      const step = () => {
        opt.zeroGrad();
        nn.crossEntropy(model.forward(X) as Tensor, Y).backward();
        opt.step();
      };
      step();
      model[0]!.requiresGrad_(true);
      step();
      return model;
    });
    // Layer 0 moved only in the second step: its first-step value is the initial one.
    tpu.manualSeed(0);
    const init = mlp().stateDict()['0.weight']!;
    const want = runs[0]!.stateDict();
    expect(Math.max(...host(want['0.weight']!).map((v, i) => Math.abs(v - host(init)[i]!)))).toBeGreaterThan(1e-3);
    for (const [k, t] of Object.entries(runs[1]!.stateDict())) expectClose(host(t), host(want[k]!), 1e-4);
  });

  it('the full state dict through safetensors: loads into a plain model and back into a tensor-parallel one', async () => {
    const path = join(tmpdir(), `tensor-parallel-${process.pid}.safetensors`);
    tpu.manualSeed(0);
    const tp = distributed.parallelizeModule(mlp(), mesh, plan());
    const opt = new tpu.optim.Adam(tp.parameters(), { lr: 0.05 });
    for (let i = 0; i < 2; i++) {
      opt.zeroGrad();
      nn.crossEntropy(tp.forward(X) as Tensor, Y).backward();
      opt.step();
    }
    const state = tp.stateDict();
    expect(Object.keys(state)).toEqual(['0.weight', '0.bias', '2.weight', '2.bias', '4.weight', '4.bias']);
    expect(state['2.weight']!.shape).toEqual([16, 10]);
    await tpu.save(state, path);
    const loaded = await tpu.load(path);
    const want = host(tp.forward(X) as Tensor);
    tpu.manualSeed(1);
    const plain = mlp();
    plain.loadStateDict(loaded);
    expectClose(host(plain.forward(X)), want, 1e-5);
    tpu.manualSeed(2);
    const fresh = distributed.parallelizeModule(mlp(), mesh2d, plan());
    fresh.loadStateDict(loaded);
    expectClose(host(fresh.forward(X) as Tensor), want, 1e-5);
  });

  it('clear errors: the plan, the layer, a second parallelization, DDP and fullyShard of a tensor-parallel module', () => {
    const who = 'tpu.distributed.parallelizeModule';
    expect(() => distributed.parallelizeModule(mlp(), mesh, { '1': distributed.ColwiseParallel() })).toThrow(`${who}: plan['1'] is ColwiseParallel(), but '1' is Tanh; the styles shard tpu.nn.Linear layers`);
    expect(() => distributed.parallelizeModule(mlp(), mesh, { fc1: distributed.ColwiseParallel() })).toThrow(`${who}: plan names 'fc1', which is not a submodule; the submodules are '0', '1', '2', '3', '4'`);
    expect(() => distributed.parallelizeModule(mlp(), mesh, { '0': 'colwise' as never })).toThrow(`${who}: plan['0'] must be tpu.distributed.ColwiseParallel() or RowwiseParallel(); got string "colwise"`);
    expect(() => distributed.parallelizeModule(mlp(), mesh2d.get('tp'), plan())).toThrow(`${who}: mesh must be a whole mesh (tpu.initDeviceMesh), not a view along axis 'tp'`);
    const tp = distributed.parallelizeModule(mlp(), mesh, plan());
    expect(() => distributed.parallelizeModule(tp, mesh, { '0': distributed.RowwiseParallel() })).toThrow(`${who}: '0' is already parallelized (its weight is a DTensor)`);
    expect(() => new nn.DistributedDataParallel(tp, { mesh: mesh2d.get('dp') })).toThrow("nn.DistributedDataParallel: the module's parameter '0.weight' is a DTensor (tpu.distributed.parallelizeModule); nn.DistributedDataParallel wraps modules of plain tensors. For data parallelism with tensor parallelism, give parallelizeModule a 2-d mesh (its first dim splits the batch)");
    expect(() => nn.fullyShard(tp, { mesh })).toThrow("nn.fullyShard: the module's parameter '0.weight' is a DTensor");
    expect(() => tp.layers[2]!.forward(tpu.distributeTensor(tpu.ones([3, 10]), mesh2d, [tpu.Replicate(), tpu.Replicate()]) as never)).toThrow(`${who}: input is a DTensor on DeviceMesh(dp=2, tp=2), but the layer's parameters are on DeviceMesh(tp=4)`);
    expect(() => tp.layers[0]!.forward('x' as never)).toThrow(`${who}: input must be a tensor or a DTensor; got string "x"`);
    // A style alone applies to the module itself, as PyTorch's parallelize_module(linear, mesh, ColwiseParallel()).
    expect(() => distributed.parallelizeModule(new nn.Tanh(), mesh, distributed.RowwiseParallel())).toThrow(`${who}: plan is RowwiseParallel(), but the module is Tanh; the styles shard tpu.nn.Linear layers`);
    tpu.manualSeed(3);
    const lin = new nn.Linear(10, 3);
    const x = tpu.randn([4, 10]);
    const want = host(lin.forward(x));
    const rowwise = distributed.parallelizeModule(lin, mesh, distributed.RowwiseParallel());
    expect(String(rowwise.weight)).toBe('DTensor([3, 10] float32, DeviceMesh(tp=4), [Shard(1)])');
    expectClose(host(rowwise.forward(x)), want, 1e-5);
    // One Linear under two names: an error before any layer changes (the module stays plain).
    const shared = new nn.Linear(4, 4);
    const twice = new nn.Sequential(shared, new nn.Tanh(), shared);
    expect(() => distributed.parallelizeModule(twice, mesh, { '0': distributed.ColwiseParallel(), '2': distributed.RowwiseParallel() }))
      .toThrow(`${who}: plan names '0' and '2', which are one Linear (a module used twice); a layer gets one style`);
    expect(twice.parameters().every((p) => !(p instanceof tpu.DTensor))).toBe(true);
    // The module still trains after the errors.
    expect(Number.isFinite((tp.forward(tpu.ones([3, 2])) as Tensor).sum().item())).toBe(true);
  });
});
