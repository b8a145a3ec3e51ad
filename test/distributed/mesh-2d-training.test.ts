// DDP and fullyShard on a [2, 2] mesh of 4 emulated chips against 1-chip training of the global
// batch, step by step: DDP over the whole mesh and over its 'dp' sub-mesh, HSDP (fullyShard with
// the 2-d mesh: replicated over 'dp', sharded over 'shard') and fullyShard over the sub-mesh; in
// every mode and compiled. Also: HSDP's memory per chip, every chip's gradients, and the groups
// the collectives ran in (bytes each chip sent, from the profile).
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, host, mlp, spirals, trainSpirals, type Mode, type Opt } from '../support/spirals-training.js';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([2, 2], { names: ['dp', 'shard'] });
const { nn } = tpu;
type Module = InstanceType<typeof nn.Module>;

/** Every chip's tensor of each parameter, chip by chip: DDP's replicas, or the pieces of fullyShard's DTensors. */
function perChip(m: Module): Tensor[] {
  const ps = m.parameters();
  if (!ps.every((p) => 'localTensors' in p)) return ps as Tensor[];
  const pieces = ps.map((p) => p.localTensors());
  return [0, 1, 2, 3].flatMap((k) => pieces.map((l) => l[k]!));
}

// 50 rows: 13, 13, 13, 11 per chip on the whole mesh; 25, 25 per 'dp' coordinate on the sub-mesh.
const { X, Y } = spirals(50, 1);

const WRAPS: Record<string, (m: Module) => Module> = {
  'DDP [2, 2]': (m) => new nn.DistributedDataParallel(m, { mesh }),
  "DDP mesh.get('dp')": (m) => new nn.DistributedDataParallel(m, { mesh: mesh.get('dp') }),
  'HSDP [2, 2]': (m) => nn.fullyShard(m, { mesh }),
  "fullyShard mesh.get('dp')": (m) => nn.fullyShard(m, { mesh: mesh.get('dp') }),
};

const oneChip = (optName: Opt, mode: Mode) => trainSpirals(X, Y, (m) => m, optName, mode);

/** Every wrap trains as one chip does: the same losses and the same final parameters. */
function expectAllLikeOneChip(optName: Opt, mode: Mode, compiled = false): void {
  const one = oneChip(optName, mode);
  expect(one.losses.at(-1)!).toBeLessThan(one.losses[0]!); // training, not a constant
  const want = one.m.stateDict();
  for (const [name, wrap] of Object.entries(WRAPS)) {
    const r = trainSpirals(X, Y, wrap, optName, mode, compiled);
    expectClose(r.losses, one.losses);
    if (compiled) expect(r.bodyRuns, name).toBe(1);
    for (const [k, t] of Object.entries(r.m.stateDict())) expectClose(host(t), host(want[k]!), 1e-4);
  }
}

describe('HSDP memory', () => {
  // First in the file: no garbage of earlier tests can be collected while it measures.
  it('is half the parameters per chip (sharded over the 2 chips of a group, replicated over 2 groups)', () => {
    tpu.manualSeed(0);
    const model = mlp();
    tpu.sync();
    const before = tpu.memory().chips.map((c) => c.liveBytes);
    const hsdp = nn.fullyShard(model, { mesh });
    tpu.sync();
    const total = 240 * 4; // the parameters' bytes, all on chip 0 before
    const after = tpu.memory().chips.map((c, k) => c.liveBytes - before[k]! + (k === 0 ? total : 0));
    // Rows per chip ([10, 2] [10]: 5; [16, 10] [16]: 8; [2, 16] [2]: 1) × (columns + bias): 15 + 88 + 17 = 120 floats.
    expect(after).toEqual([120, 120, 120, 120].map((f) => f * 4));
    // parameters() as FSDP2's: each parameter once, with its global shape, however it is sharded
    expect(hsdp.parameters().reduce((n, p) => n + p.numel(), 0)).toBe(240);
    expect(hsdp.parameters().flatMap((p) => p.localTensors()).reduce((n, t) => n + t.numel(), 0)).toBe(4 * 120);
  });
});

describe('DDP and fullyShard on a [2, 2] mesh give 1-chip training of the global batch', () => {
  for (const mode of ['strict', 'fused'] as const) {
    for (const optName of ['SGD', 'Adam'] as const) it(`${optName} in ${mode} mode`, () => expectAllLikeOneChip(optName, mode));
  }
  it('SGD in debug mode', () => expectAllLikeOneChip('SGD', 'debug'));
  for (const mode of ['strict', 'fused'] as const) it(`Adam, a compiled step (tpu.compile) in ${mode} mode`, () => expectAllLikeOneChip('Adam', mode, true));
});

describe('2-d details', () => {
  // Which of a parameter's torch.chunk row blocks chip c holds (of how many): all for DDP; for
  // fullyShard its coordinate on the shard axis ('shard' for HSDP, 'dp' for the sub-mesh).
  const blockOf: Record<string, (chip: number) => [number, number]> = {
    'DDP [2, 2]': () => [0, 1],
    "DDP mesh.get('dp')": () => [0, 1],
    'HSDP [2, 2]': (chip) => [chip % 2, 2],
    "fullyShard mesh.get('dp')": (chip) => [Math.floor(chip / 2), 2],
  };
  for (const [name, wrap] of Object.entries(WRAPS)) {
    it(`${name}: every chip holds its rows of each parameter and of the global gradient`, () => {
      tpu.manualSeed(0);
      const model = mlp();
      const ref = mlp();
      ref.loadStateDict(model.stateDict());
      const m = wrap(model);
      nn.crossEntropy(m.forward(X), Y).backward();
      nn.crossEntropy(ref.forward(X), Y).backward();
      const locals = perChip(m);
      expect(locals.map((p) => p.chip)).toEqual([0, 1, 2, 3].flatMap((c) => Array(6).fill(c)));
      if (name.includes('DDP')) expect(m.parameters().length).toBe(24);
      else {
        // as FSDP2's: one DTensor per parameter, of its global shape, under the module's name; its .grad the global gradient
        expect(m.namedParameters().map(([k, p]) => [k, p.shape])).toEqual(ref.namedParameters().map(([k, p]) => [k, p.shape]));
        (m.parameters() as DTensor[]).forEach((p, i) => expectClose(host(p.grad!.fullTensor()), host(ref.parameters()[i]!.grad!), 1e-5));
      }
      ref.parameters().forEach((p, i) => {
        const rows = p.shape[0]!;
        const g = host(p.grad!);
        const w = host(p);
        const cols = g.length / rows;
        for (const chip of [0, 1, 2, 3]) {
          const [block, blocks] = blockOf[name]!(chip);
          const per = Math.ceil(rows / blocks);
          const [a, b] = [block * per, Math.min(rows, (block + 1) * per)];
          const local = locals[chip * 6 + i]!;
          expectClose(host(local), w.slice(a * cols, b * cols), 0);
          expectClose(host(local.grad!), g.slice(a * cols, b * cols), 1e-5);
        }
      });
    });
  }

  it("the collectives run in the mesh's groups: bytes each chip sent per backward, by collective", async () => {
    const bytesOf = async (wrap: (m: Module) => Module) => {
      tpu.manualSeed(0);
      const m = wrap(mlp());
      const out = m.forward(X); // before recording: the forward's all-gathers and joins are not counted
      await tpu.sync();
      const rec = tpu.profiler.record();
      nn.crossEntropy(out, Y).backward();
      await tpu.sync();
      return rec.stop().toJSON().chips!.collectives.byOp;
    };
    const grads = 240 * 4; // one bucket holds every parameter's gradient
    // An all-reduce in groups of g: each of the 4 chips sends its bucket to its g − 1 peers.
    expect((await bytesOf(WRAPS['DDP [2, 2]']!)).all_reduce).toEqual({ count: 4, bytes: 4 * 3 * grads });
    expect((await bytesOf(WRAPS["DDP mesh.get('dp')"]!)).all_reduce).toEqual({ count: 4, bytes: 4 * 1 * grads });
    // HSDP: the all-gathers' gradients reduce-scatter within the 'shard' pairs (one per parameter per
    // chip, each chip sending its peer the peer's half: 120 floats in all), then one all-reduce of
    // each chip's 120 floats of shard gradients with its 'dp' peer.
    const hsdp = await bytesOf(WRAPS['HSDP [2, 2]']!);
    expect(hsdp.reduce_scatter).toEqual({ count: 6 * 4, bytes: 4 * 120 * 4 });
    expect(hsdp.all_reduce).toEqual({ count: 4, bytes: 4 * 1 * 120 * 4 });
  });

  it('save/load: the full state dict of HSDP loads into a sub-mesh DDP and gives the same outputs', () => {
    const trained = trainSpirals(X, Y, WRAPS['HSDP [2, 2]']!, 'Adam', 'strict');
    const state = trained.m.stateDict();
    expect(state['2.weight']!.shape).toEqual([16, 10]);
    tpu.manualSeed(2);
    const fresh = new nn.DistributedDataParallel(mlp(), { mesh: mesh.get('dp') });
    fresh.loadStateDict(state);
    expectClose(host(fresh.forward(X)), host(trained.m.forward(X)), 1e-5);
    tpu.manualSeed(3);
    const hsdp = nn.fullyShard(mlp(), { mesh });
    hsdp.loadStateDict(state);
    expectClose(host(hsdp.forward(X)), host(trained.m.forward(X)), 1e-5);
  });

  it('clear errors: a 3-d mesh for fullyShard, a batch smaller than the pieces', () => {
    expect(() => new nn.DistributedDataParallel(mlp(), { mesh: mesh.get('dp') }).forward(tpu.ones([1, 2]))).toThrow(/at least one row per coordinate along 'dp' \(2\); got 1/);
    expect(() => new nn.DistributedDataParallel(mlp(), { mesh }).forward(tpu.ones([3, 2]))).toThrow(/at least one row per chip \(4\); got 3/);
    const cube = tpu.initDeviceMesh([1, 2, 2], { names: ['a', 'b', 'c'] });
    expect(() => nn.fullyShard(mlp(), { mesh: cube })).toThrow(/options\.mesh must be 1-d \(FSDP\), 2-d \(HSDP: replicated over dim 0, sharded over dim 1\) or a sub-mesh mesh\.get\(axis\); got DeviceMesh\(a=1, b=2, c=2\)/);
  });
});
