// tpu.distributeTensor and DTensor.redistribute on 4 emulated chips, 1-d [4] and 2-d [2, 2]
// meshes, uneven shapes (10 rows on 4 chips: 3, 3, 3, 1; 6 columns: 2, 2, 2, 0), every
// placement pair, in debug, strict and fused mode: each chip's piece against torch.chunk
// pieces of float64 host data, and fullTensor() against the data.
import { describe, expect, it } from 'vitest';
import { tpu, type Placement } from 'tpu-kernel/runtime';
import { expectDTensor, host, map, values, type Host } from './dtensor-reference.js';
import { mesh, mesh2d, S0, S1, R } from '../support/meshes.js';

const device = (h: Host) => tpu.tensor(h.data).reshape(h.shape);
const P = tpu.Partial('sum');
const str = (ps: readonly Placement[]) => `[${ps.map(String).join(', ')}]`;

const MODES = ['debug', 'strict', 'fused'] as const;

describe('memory', () => {
  it('an op, a redistribute or a distributeTensor keeps only its output pieces: the copies made on the way are freed (strict mode)', async () => {
    await tpu.withMode('strict', async () => {
      // First in the file, with every source kept: no garbage that a collection could free meanwhile.
      const sources = [tpu.randn([10, 6]), tpu.randn([6, 7]), tpu.randn([8, 4])];
      const a = tpu.distributeTensor(sources[0]!, mesh, [S0]);
      const b = tpu.distributeTensor(sources[1]!, mesh, [S1]); // gathered to Replicate for the matmul
      const p = tpu.distributeTensor(sources[2]!, mesh, [P]);
      await tpu.sync();
      const live = () => tpu.memory().chips.map((c) => c.liveTensors);
      const before = live();
      const out = a.matmul(b);
      const moved = p.redistribute(mesh, [S1]); // a reduceScatter
      const twoSteps = a.redistribute(mesh, [P]); // an allGather, then x / 4
      const parts = tpu.distributeTensor(sources[2]!, mesh, [P]); // x / 4, copied to chips 1-3
      await tpu.sync();
      // out, moved, twoSteps and parts: four tensors per chip, nothing else.
      expect(live().map((n, k) => n - before[k]!)).toEqual([4, 4, 4, 4]);
      expect(parts.localTensors().map((t) => t.chip)).toEqual([0, 1, 2, 3]);
      expect([out, moved, twoSteps].map((d) => String(d.placements))).toEqual(['Shard(0)', 'Shard(1)', "Partial('sum')"]);
    });
  });
});

for (const mode of MODES) {
  describe(`DTensor placements in ${mode} mode`, () => {
    it('distributeTensor on a 1-d mesh: torch.chunk pieces (10 rows on 4 chips: 3, 3, 3, 1), each on its chip', () => tpu.withMode(mode, () => {
      const x = values([10, 6]);
      for (const ps of [[S0], [S1], [R], [tpu.Shard(-1)]]) {
        const dt = tpu.distributeTensor(device(x), mesh, ps);
        expect(dt.mesh).toBe(mesh);
        expect(dt.dtype).toBe('float32');
        expectDTensor(dt, x, str(ps).replace('Shard(-1)', 'Shard(1)'));
      }
      const rows = tpu.distributeTensor(device(x), mesh, [S0]).localTensors().map((t) => t.shape);
      expect(rows).toEqual([[3, 6], [3, 6], [3, 6], [1, 6]]);
      const cols = tpu.distributeTensor(device(x), mesh, [S1]).localTensors().map((t) => t.shape);
      expect(cols).toEqual([[10, 2], [10, 2], [10, 2], [10, 0]]);
    }));

    it('distributeTensor with Partial: sum parts are x / n, mean/max/min parts are x', () => tpu.withMode(mode, () => {
      const x = values([5, 3]);
      const sum = tpu.distributeTensor(device(x), mesh, [P]);
      sum.localTensors().forEach((t) => expect(host(t)).toEqual(Array.from(new Float32Array(x.data.map((v) => v / 4)))));
      expectDTensor(sum, x, "[Partial('sum')]");
      for (const op of ['mean', 'max', 'min'] as const) {
        const dt = tpu.distributeTensor(device(x), mesh, [tpu.Partial(op)]);
        dt.localTensors().forEach((t) => expect(host(t)).toEqual(Array.from(new Float32Array(x.data))));
        expectDTensor(dt, x, `[Partial('${op}')]`);
      }
    }));

    it('distributeTensor on a 2-d [2, 2] mesh: one placement per mesh dim, nested chunks for the same dim', () => tpu.withMode(mode, () => {
      const x = values([7, 5]);
      const cases: [Placement[], number[][]][] = [
        [[S0, S1], [[4, 3], [4, 2], [3, 3], [3, 2]]],
        [[R, S0], [[4, 5], [3, 5], [4, 5], [3, 5]]],
        [[S0, S0], [[2, 5], [2, 5], [2, 5], [1, 5]]], // 7 -> 4, 3 -> (2, 2), (2, 1)
        [[S1, R], [[7, 3], [7, 3], [7, 2], [7, 2]]],
        [[R, R], [[7, 5], [7, 5], [7, 5], [7, 5]]],
        [[P, S1], [[7, 3], [7, 2], [7, 3], [7, 2]]],
      ];
      for (const [ps, shapes] of cases) {
        const dt = tpu.distributeTensor(device(x), mesh2d, ps);
        expect(dt.localTensors().map((t) => t.shape)).toEqual(shapes);
        expectDTensor(dt, x, str(ps));
      }
    }));

    it('redistribute, every pair on a 1-d mesh, uneven and empty pieces', () => tpu.withMode(mode, () => {
      const x = values([10, 6], 2);
      const all: Placement[][] = [[S0], [S1], [R], [P], [tpu.Partial('max')], [tpu.Partial('mean')]];
      for (const from of all) {
        const dt = tpu.distributeTensor(device(x), mesh, from);
        for (const to of all) {
          // Replicate -> Partial('sum') divides: exact in float64, not always in float32.
          expectDTensor(dt.redistribute(mesh, to), x, str(to), 1e-6);
        }
      }
    }));

    it('redistribute, every pair on a 2-d [2, 2] mesh (Shard, Replicate, Partial on each mesh dim)', () => tpu.withMode(mode, () => {
      const x = values([7, 5], 3);
      const one: Placement[] = [S0, S1, R, P];
      const all = one.flatMap((a) => one.map((b) => [a, b]));
      for (const from of all) {
        const dt = tpu.distributeTensor(device(x), mesh2d, from);
        for (const to of all) expectDTensor(dt.redistribute(mesh2d, to), x, str(to), 1e-6);
      }
    }));

    it('int32 tensors move too (gathers and slices are exact)', () => tpu.withMode(mode, () => {
      const x = map(values([10, 3]), (v) => Math.round(v * 10));
      const dt = tpu.distributeTensor(tpu.tensor(new Int32Array(x.data)).reshape([10, 3]), mesh2d, [S0, S1]);
      expect(dt.dtype).toBe('int32');
      expectDTensor(dt.redistribute(mesh2d, [S1, S0]), x, '[Shard(1), Shard(0)]', 0);
      expectDTensor(dt.redistribute(mesh2d, [R, R]), x, '[Replicate(), Replicate()]', 0);
    }));
  });
}

describe('DTensor as a value', () => {
  it('prints its global shape, dtype, mesh and placements, and displays each chip\'s piece (no values read)', () => {
    const dt = tpu.distributeTensor(tpu.zeros([10, 2]), mesh, [S0]);
    expect(String(dt)).toBe('DTensor([10, 2] float32, DeviceMesh(dp=4), [Shard(0)])');
    const bundle = (dt as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for('Jupyter.display')]!();
    expect(bundle['text/plain']).toBe('DTensor([10, 2] float32, DeviceMesh(dp=4), [Shard(0)])\n  tpu:0: [3, 2]\n  tpu:1: [3, 2]\n  tpu:2: [3, 2]\n  tpu:3: [1, 2]');
  });
});

describe('redistribute uses the collective of each rule', () => {
  const byOp = async (f: () => unknown) => {
    const { profile } = await tpu.profiler.profile(f);
    return Object.keys(profile.data.chips!.collectives.byOp).sort();
  };
  const x = values([8, 4]);
  it('Shard -> Replicate is an allGather, Partial -> Replicate an allReduce, Partial -> Shard a reduceScatter', async () => {
    const s = tpu.distributeTensor(device(x), mesh, [S0]);
    const p = tpu.distributeTensor(device(x), mesh, [P]);
    expect(await byOp(() => s.redistribute(mesh, [R]).localTensors().map(host))).toEqual(['all_gather']);
    expect(await byOp(() => p.redistribute(mesh, [R]).localTensors().map(host))).toEqual(['all_reduce']);
    expect(await byOp(() => p.redistribute(mesh, [S1]).localTensors().map(host))).toEqual(['reduce_scatter']);
  });
  it('Replicate -> Shard is a local slice; Shard(0) -> Shard(1) an allToAll when the pieces are even', async () => {
    const r = tpu.distributeTensor(device(x), mesh, [R]);
    const s = tpu.distributeTensor(device(x), mesh, [S0]);
    expect(await byOp(() => r.redistribute(mesh, [S0]).localTensors().map(host))).toEqual([]);
    const moved = s.redistribute(mesh, [S1]);
    expect(await byOp(() => s.redistribute(mesh, [S1]).localTensors().map(host))).toEqual(['all_to_all']);
    expectDTensor(moved, x, '[Shard(1)]');
  });
});
