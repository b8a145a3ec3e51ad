// DTensor's bad input gets an error naming the argument, what was expected and what came; the
// DTensors and tensors involved stay usable. Ops with no sharding rule run on Replicate() copies,
// give the right values, and leave a 'sharding-fallback' profile warning naming the op.
import { describe, expect, it } from 'vitest';
import { tpu, type DTensor, type Placement } from 'tpu-kernel/runtime';
import { expectDTensor, host, matmul, softmax, values, type Host } from './dtensor-reference.js';
import { mesh, mesh2d, S0, R } from '../support/meshes.js';

const dist = (h: Host, ps: Placement[], m = ps.length === 2 ? mesh2d : mesh): DTensor => tpu.distributeTensor(tpu.tensor(h.data).reshape(h.shape), m, ps);

describe('DTensor bad input', () => {
  const xh = values([10, 6]);
  const x = tpu.tensor(xh.data).reshape([10, 6]);
  const d = tpu.distributeTensor(x, mesh, [S0]);
  const bad = (v: unknown) => v as never;

  it('distributeTensor names x, mesh and placements', () => {
    expect(() => tpu.distributeTensor(bad([1, 2]), mesh, [S0])).toThrow('tpu.distributeTensor: x must be a tensor; got an object of type Array');
    expect(() => tpu.distributeTensor(x, bad({}), [S0])).toThrow('tpu.distributeTensor: mesh must be a DeviceMesh (tpu.initDeviceMesh); got an object of type Object');
    expect(() => tpu.distributeTensor(x, mesh2d.get('tp'), [S0, R])).toThrow("tpu.distributeTensor: mesh must be a whole mesh (tpu.initDeviceMesh), not a view along axis 'tp'");
    expect(() => tpu.distributeTensor(x, mesh2d, [S0])).toThrow('tpu.distributeTensor: placements must hold 2 placements (one per dimension of DeviceMesh(dp=2, tp=2)); got 1');
    expect(() => tpu.distributeTensor(x, mesh, bad(S0))).toThrow('tpu.distributeTensor: placements must be an array with one placement per mesh dimension (like [tpu.Shard(0)]); got an object of type ShardPlacement');
    expect(() => tpu.distributeTensor(x, mesh, bad(['Shard(0)']))).toThrow('tpu.distributeTensor: placements[0] must be tpu.Shard(dim), tpu.Replicate() or tpu.Partial(op); got string "Shard(0)"');
    expect(() => tpu.distributeTensor(x, mesh, [tpu.Shard(2)])).toThrow('tpu.distributeTensor: placements[0] Shard dim must be an integer in [-2, 1] for a tensor of rank 2; got 2');
    expect(() => tpu.distributeTensor(tpu.tensor(3), mesh, [S0])).toThrow('tpu.distributeTensor: placements[0] is Shard(0), but a 0-d tensor has no dim to shard');
    const param = tpu.randn([4, 2], { requiresGrad: true });
    // As PyTorch's distribute_tensor: a leaf that requires grad gives a leaf DTensor that does (in tpu.noGrad too).
    expect(tpu.noGrad(() => tpu.distributeTensor(param, mesh, [S0])).localTensors().map((t) => t.requiresGrad)).toEqual([true, true, true, true]);
    expect(() => tpu.distributeTensor(param.mul(2), mesh, [S0])).toThrow('tpu.distributeTensor: x must be a leaf tensor (as in PyTorch): it was computed from tensors that require grad; distribute the leaf, or x.detach()');
    expect(() => tpu.distributeTensor(param, mesh, [tpu.Partial('max')])).toThrow("tpu.distributeTensor: x requires grad, but placements hold Partial('max'), whose gradient is not defined by its value; redistribute it to tpu.Replicate() first");
    expect(tpu.distributeTensor(param.detach(), mesh, [S0]).shape).toEqual([4, 2]);
    expect(() => tpu.distributeTensor(tpu.arange(4), mesh, [tpu.Partial('sum')])).toThrow("tpu.distributeTensor: Partial('sum') parts of a int64 tensor would be x / n; give a floating tensor");
  });

  it('placements check their arguments', () => {
    expect(() => tpu.Shard(bad(1.5))).toThrow('tpu.Shard: dim must be an integer; got 1.5');
    expect(() => tpu.Partial(bad('prod'))).toThrow("tpu.Partial: reduceOp must be one of 'sum', 'mean', 'max', 'min', 'product'; got \"prod\"");
  });

  it('ops and redistribute name the other operand and the mesh', () => {
    const on2d = dist(xh, [S0, R]);
    expect(() => d.add(on2d)).toThrow('DTensor.add: other.mesh is DeviceMesh(dp=2, tp=2), but the DTensor lives on DeviceMesh(dp=4)');
    expect(() => d.redistribute(mesh2d, [R, R])).toThrow('DTensor.redistribute: mesh is DeviceMesh(dp=2, tp=2), but the DTensor lives on DeviceMesh(dp=4)');
    expect(() => d.redistribute(mesh, [R, R])).toThrow('DTensor.redistribute: placements must hold 1 placement (one per dimension of DeviceMesh(dp=4)); got 2');
    expect(() => d.mul(bad(x))).toThrow('DTensor.mul: other must be a DTensor on the same mesh or a number; got a plain tensor [10, 6] float32 (make one with tpu.distributeTensor(t, mesh, placements), e.g. all tpu.Replicate())');
    expect(() => d.add(dist(values([10, 5]), [S0]))).toThrow('DTensor.add: shapes [10, 6] (input) and [10, 5] (other) cannot be broadcast');
    expect(() => d.matmul(d)).toThrow("DTensor.matmul: input [10, 6] and other [10, 6] do not fit: input's dim 1 (6) must equal other's dim 0 (10)");
    expect(() => d.matmul(bad(3))).toThrow('DTensor.matmul: other must be a DTensor on the same mesh; got number 3');
    expect(() => tpu.distributeTensor(tpu.arange(8), mesh, [S0]).mean()).toThrow('DTensor.mean: mean needs a floating dtype; got int64');
    expect(() => d.sum({ dimm: 0 } as never)).toThrow('DTensor.sum');
    expect(() => d.softmax(2)).toThrow('DTensor.softmax: dim must be an integer in [-2, 1] for a tensor of rank 2; got 2');
    expect(() => d.transpose(0, 5)).toThrow('DTensor.transpose: dim1 must be an integer in [-2, 1] for a tensor of rank 2; got 5');
    expect(() => d.redistribute(mesh, [tpu.Partial('sum')]).redistribute(mesh, [R])).not.toThrow();
    expect(() => tpu.distributeTensor(tpu.arange(8), mesh, [R]).redistribute(mesh, [tpu.Partial('sum')])).toThrow("DTensor.redistribute: Partial('sum') parts of a int64 tensor would be x / 4; give a floating tensor");
  });

  it('after the errors, the tensor and the DTensor are intact', () => {
    expect(host(x)).toEqual(Array.from(new Float32Array(xh.data)));
    expectDTensor(d, xh, '[Shard(0)]');
  });
});

describe('ops with no sharding rule run replicated, with a profile warning', () => {
  const warnings = async (f: () => unknown) => {
    const { profile } = await tpu.profiler.profile(f);
    return profile.data.warnings.filter((w) => w.kind === 'sharding-fallback');
  };

  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`softmax over a sharded dim, matmul of a 1-d DTensor (${mode})`, async () => {
      const xh = values([10, 6]);
      let out!: DTensor;
      const w = await warnings(() => tpu.withMode(mode, () => { out = dist(xh, [S0]).softmax(0); }));
      expectDTensor(out, softmax(xh, 0), '[Replicate()]');
      expect(w.length).toBe(1);
      expect(w[0]!.count).toBe(1);
      expect(w[0]!.message).toBe('DTensor.softmax: over dim 0, which is sharded ([Shard(0)]); no sharding rule, so the inputs were gathered to Replicate() and every chip computed the whole result (Replicate())');
      expect(w[0]!.site.where).toContain('dtensor-errors.test.ts');

      const v = values([6], 2);
      const wh = values([6, 7], 3);
      const w2 = await warnings(() => tpu.withMode(mode, () => { out = dist(v, [S0]).matmul(dist(wh, [R])); }));
      expectDTensor(out, { shape: [7], data: matmul({ shape: [1, 6], data: v.data }, wh).data }, '[Replicate()]');
      expect(w2.map((x) => x.message)).toEqual(['DTensor.matmul: 1-d x 2-d (rules cover 2-d x 2-d); no sharding rule, so the inputs were gathered to Replicate() and every chip computed the whole result (Replicate())']);

      // Ops with a rule leave no such warning.
      expect(await warnings(() => tpu.withMode(mode, () => dist(xh, [S0]).softmax(1).sum(0).fullTensor()))).toEqual([]);
    });
  }
});
