// DistributedDataParallel and fullyShard on 4 emulated chips against 1-chip training of the
// global batch (the spirals MLP of notebooks/03-training.ipynb), step by step, with SGD and
// Adam, in strict and fused mode and compiled; save/load of the full state dict; memory per chip.
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor, type Tensor } from 'tpu-kernel/runtime';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectClose, host, mlp, spirals, trainSpirals, type Mode, type Opt } from '../support/spirals-training.js';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
const { nn } = tpu;

// 50 rows: 13, 13, 13, 11 per chip.
const { X, Y } = spirals(50, 1);

type Kind = 'one chip' | 'DDP' | 'FSDP';

function train(kind: Kind, optName: Opt, mode: Mode, compiled = false) {
  const wrap = (model: InstanceType<typeof nn.Module>) => (kind === 'one chip' ? model : kind === 'DDP' ? new nn.DistributedDataParallel(model, { mesh }) : nn.fullyShard(model, { mesh }));
  return trainSpirals(X, Y, wrap, optName, mode, compiled);
}

describe('FSDP memory', () => {
  // First in the file: no garbage of earlier tests can be collected while it measures.
  it('is about a quarter of the parameters per chip', () => {
    tpu.manualSeed(0);
    const model = mlp();
    tpu.sync();
    const before = tpu.memory().chips.map((c) => c.liveBytes);
    const fsdp = nn.fullyShard(model, { mesh });
    tpu.sync();
    const total = 240 * 4; // the parameters' bytes, all on chip 0 before
    const after = tpu.memory().chips.map((c, k) => c.liveBytes - before[k]! + (k === 0 ? total : 0));
    // Rows per chip of each parameter: [10, 2] [10] → 3, 3, 3, 1; [16, 10] [16] → 4 each; [2, 16] [2] → 1, 1, 0, 0.
    const floats = [3 * 3 + 4 * 11 + 1 * 17, 3 * 3 + 4 * 11 + 1 * 17, 3 * 3 + 4 * 11, 1 * 3 + 4 * 11];
    expect(after).toEqual(floats.map((f) => f * 4));
    after.forEach((b) => expect(b).toBeLessThanOrEqual(0.3 * total));
    // as FSDP2's: one DTensor per parameter, with the global shape and the module's name
    expect(fsdp.parameters().length).toBe(6);
    expect(fsdp.parameters().reduce((n, p) => n + p.numel(), 0)).toBe(240);
    expect(fsdp.namedParameters().map(([k, p]) => [k, p.shape, p.placements.map(String)])).toEqual(
      [['0.weight', [10, 2]], ['0.bias', [10]], ['2.weight', [16, 10]], ['2.bias', [16]], ['4.weight', [2, 16]], ['4.bias', [2]]].map(([k, shape]) => [k, shape, ['Shard(0)']]));
  });

  it('loadStateDict frees its per-chip copies at once (FSDP, DDP, a parallelized module)', () => {
    const { distributed } = tpu;
    const wraps = {
      FSDP: (m: InstanceType<typeof nn.Module>) => nn.fullyShard(m, { mesh }),
      DDP: (m: InstanceType<typeof nn.Module>) => new nn.DistributedDataParallel(m, { mesh }),
      parallelized: (m: InstanceType<typeof nn.Module>) => distributed.parallelizeModule(m, mesh, { '0': distributed.ColwiseParallel(), '2': distributed.RowwiseParallel() }),
    };
    for (const [kind, wrap] of Object.entries(wraps)) {
      tpu.manualSeed(3);
      const state = mlp().stateDict();
      const model = wrap(mlp());
      tpu.sync();
      const before = tpu.memory().chips.map((c) => c.liveBytes);
      model.loadStateDict(state);
      tpu.sync();
      const after = tpu.memory().chips.map((c) => c.liveBytes);
      after.forEach((b, k) => expect(b, `${kind}, chip ${k}`).toBeLessThanOrEqual(before[k]!));
      for (const [k, t] of Object.entries(model.stateDict())) expectClose(host(t), host(state[k]!), 0);
    }
  });
});

describe('DDP and FSDP on 4 chips give 1-chip training of the global batch', () => {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    for (const optName of ['SGD', 'Adam'] as const) {
      it(`${optName} in ${mode} mode`, () => {
        const one = train('one chip', optName, mode);
        // The loss goes down: the comparison below compares training, not a constant.
        expect(one.losses.at(-1)!).toBeLessThan(one.losses[0]!);
        for (const kind of ['DDP', 'FSDP'] as const) {
          const r = train(kind, optName, mode);
          expectClose(r.losses, one.losses);
          // And the trained parameters are the same.
          const want = one.m.stateDict();
          for (const [k, t] of Object.entries(r.m.stateDict())) expectClose(host(t), host(want[k]!), 1e-4);
        }
      });
    }
  }
});

describe('DDP and FSDP details', () => {
  it("FSDP: the optimizer's state is a DTensor per parameter, saved and loaded (also a one-chip optimizer's full tensors): training goes on as on one chip", () => {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.withMode(mode, () => {
        tpu.manualSeed(0);
        const ref = mlp();
        const shardedCopy = () => {
          const m = mlp();
          m.loadStateDict(ref.stateDict());
          return nn.fullyShard(m, { mesh });
        };
        const fsdp = shardedCopy();
        const refOpt = new tpu.optim.Adam(ref.parameters(), { lr: 0.05 });
        const opt = new tpu.optim.Adam(fsdp.parameters(), { lr: 0.05 });
        const step = (m: InstanceType<typeof nn.Module>, o: InstanceType<typeof tpu.optim.Adam>) => {
          nn.crossEntropy(m.forward(X), Y).backward();
          o.step();
          o.zeroGrad();
        };
        for (let i = 0; i < 2; i++) {
          step(ref, refOpt);
          step(fsdp, opt);
        }
        const saved = opt.stateDict();
        const want = refOpt.stateDict();
        expect(Object.keys(saved.state), mode).toEqual(['0', '1', '2', '3', '4', '5']);
        ref.parameters().forEach((p, i) => {
          expect(saved.state[i]!.step).toBe(2);
          for (const k of ['expAvg', 'expAvgSq']) {
            const d = saved.state[i]![k] as DTensor;
            expect([d.shape, d.placements.map(String)]).toEqual([p.shape, ['Shard(0)']]);
            expectClose(host(d.fullTensor()), host(want.state[i]![k] as Tensor), 1e-5);
          }
        });
        // Loaded into fresh optimizers of sharded copies: its own DTensors, and the one-chip optimizer's full tensors.
        const [b, c] = [shardedCopy(), shardedCopy()];
        b.loadStateDict(fsdp.stateDict());
        c.loadStateDict(fsdp.stateDict());
        const [optB, optC] = [new tpu.optim.Adam(b.parameters()), new tpu.optim.Adam(c.parameters())];
        optB.loadStateDict(saved);
        optC.loadStateDict(want);
        step(ref, refOpt);
        step(b, optB);
        step(c, optC);
        for (const m of [b, c]) for (const [k, t] of Object.entries(m.stateDict())) expectClose(host(t), host(ref.stateDict()[k]!), 1e-4);
        // zeroGrad({ setToNone: false }) writes zeros into the shards' gradients, which are the DTensors' .grad
        nn.crossEntropy(b.forward(X), Y).backward();
        b.zeroGrad({ setToNone: false });
        for (const p of b.parameters()) expect(host(p.grad!.fullTensor()).every((v) => v === 0), mode).toBe(true);
      });
    }
  });

  it('debug mode (every op run and checked at once) trains as one chip does', () => {
    const one = train('one chip', 'SGD', 'debug');
    for (const kind of ['DDP', 'FSDP'] as const) expectClose(train(kind, 'SGD', 'debug').losses, one.losses);
  });

  it('a compiled step (tpu.compile) trains as one chip does', () => {
    const one = train('one chip', 'Adam', 'strict');
    for (const [kind, mode] of [['DDP', 'strict'], ['FSDP', 'strict'], ['DDP', 'fused'], ['FSDP', 'fused']] as const) {
      const r = train(kind, 'Adam', mode, true);
      expectClose(r.losses, one.losses);
      expect(r.bodyRuns).toBe(1); // traced once, replayed after
    }
  });

  it('DDP: every replica holds the global gradient, in buckets, also accumulated over two backward calls', () => {
    tpu.manualSeed(0);
    const model = mlp();
    const ref = mlp();
    ref.loadStateDict(model.stateDict());
    // A cap of 2e-4 MiB (209 bytes), last parameters first: 8 + 128 + 64 bytes, then 640 alone, then 40 + 80.
    const ddp = new nn.DistributedDataParallel(model, { mesh, bucketCapMB: 2e-4 });
    expect(ddp.buckets).toEqual([[5, 4, 3], [2], [1, 0]]);
    for (let i = 0; i < 2; i++) {
      nn.crossEntropy(ddp.forward(X), Y).backward();
      nn.crossEntropy(ref.forward(X), Y).backward();
    }
    const want = ref.parameters().map((p) => host(p.grad!));
    const replicas = ddp.parameters();
    expect(replicas.map((p) => p.chip)).toEqual([0, 1, 2, 3].flatMap((c) => Array(6).fill(c)));
    replicas.forEach((p, i) => expectClose(host(p.grad!), want[i % 6]!, 1e-5));
  });

  it('FSDP: each chip holds its shard (torch.chunk rows) and its gradient', () => {
    tpu.manualSeed(0);
    const model = mlp();
    const ref = mlp();
    ref.loadStateDict(model.stateDict());
    const fsdp = nn.fullyShard(model, { mesh });
    nn.crossEntropy(fsdp.forward(X), Y).backward();
    nn.crossEntropy(ref.forward(X), Y).backward();
    const params = fsdp.parameters();
    ref.parameters().forEach((p, i) => {
      expectClose(host(params[i]!.grad!.fullTensor()), host(p.grad!), 1e-5);
      const rows = p.shape[0]!;
      const per = Math.ceil(rows / 4);
      const g = host(p.grad!);
      const cols = g.length / rows;
      for (let c = 0; c < 4; c++) {
        const shard = params[i]!.localTensors()[c]!;
        const [a, b] = [Math.min(rows, c * per), Math.min(rows, (c + 1) * per)];
        expect(shard.chip).toBe(c);
        expect(shard.shape[0]).toBe(b - a);
        expectClose(host(shard.grad!), g.slice(a * cols, b * cols), 1e-5);
      }
    });
  });

  it('save/load: the full state dict through safetensors, into DDP, FSDP and a plain module', async () => {
    const path = join(tmpdir(), `ddp-fsdp-${process.pid}.safetensors`);
    for (const kind of ['DDP', 'FSDP'] as const) {
      const trained = train(kind, 'Adam', 'strict');
      const state = trained.m.stateDict();
      expect(Object.keys(state)).toEqual(['0.weight', '0.bias', '2.weight', '2.bias', '4.weight', '4.bias']);
      expect(state['2.weight']!.shape).toEqual([16, 10]);
      await tpu.save(state, path);
      const loaded = await tpu.load(path);
      tpu.manualSeed(1);
      const plain = mlp();
      plain.loadStateDict(loaded);
      const want = host(trained.m.forward(X));
      expectClose(host(plain.forward(X)), want, 1e-5);
      tpu.manualSeed(2);
      const fresh = kind === 'DDP' ? new nn.DistributedDataParallel(mlp(), { mesh }) : nn.fullyShard(mlp(), { mesh });
      fresh.loadStateDict(loaded);
      expectClose(host(fresh.forward(X)), want, 1e-5);
    }
  });

  it('eval() and train() reach the wrapped module', () => {
    for (const wrap of [(m: InstanceType<typeof nn.Module>) => new nn.DistributedDataParallel(m, { mesh }), (m: InstanceType<typeof nn.Module>) => nn.fullyShard(m, { mesh })]) {
      const model = mlp();
      const w = wrap(model).eval();
      expect([w.training, model.training, model.layers[1]!.training]).toEqual([false, false, false]);
      w.train();
      expect(model.layers[1]!.training).toBe(true);
    }
  });

  it('clear errors: the mesh, the batch, the module', () => {
    expect(() => new nn.DistributedDataParallel(mlp(), { mesh: 4 as never })).toThrow(/options\.mesh must be a DeviceMesh/);
    expect(() => nn.fullyShard(mlp(), { mesh, reshard: true } as never)).toThrow(/reshard/);
    expect(() => nn.fullyShard({} as never, { mesh })).toThrow(/module must be a tpu\.nn\.Module/);
    expect(() => new nn.DistributedDataParallel(mlp(), { mesh }).forward(tpu.ones([3, 2]))).toThrow(/at least one row per chip \(4\); got 3/);
  });
});
