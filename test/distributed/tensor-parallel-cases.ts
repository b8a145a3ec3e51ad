// Tensor-parallel training of the spirals MLP (test/support/spirals-training.ts) against 1-chip
// training of the same batch, step by step: the MLP's first Linear ColwiseParallel, its second
// RowwiseParallel (Megatron's MLP pair), the last one left on the mesh's first chip. Shared by
// the 2-chip and 4-chip test files (the chip count is set once per file).
import { describe, expect, it } from 'vitest';
import { tpu, type DeviceMesh, type DTensor } from 'tpu-kernel/runtime';
import { expectClose, host, spirals, trainSpirals, type Mode, type Opt } from '../support/spirals-training.js';

type Module = InstanceType<typeof tpu.nn.Module>;

const PLAN = () => ({ '0': tpu.distributed.ColwiseParallel(), '2': tpu.distributed.RowwiseParallel() });

export function describeTensorParallel(meshes: readonly DeviceMesh[]): void {
  // 50 rows: on a [2, 2] mesh the batch splits 25, 25 along dim 0.
  const { X, Y } = spirals(50, 1);
  const parallel = (mesh: DeviceMesh) => (m: Module) => tpu.distributed.parallelizeModule(m, mesh, PLAN());
  const cases: [Opt, Mode, boolean][] = [['SGD', 'strict', false], ['Adam', 'strict', false], ['SGD', 'fused', false], ['Adam', 'fused', false], ['Adam', 'debug', false], ['Adam', 'strict', true], ['SGD', 'fused', true]];
  for (const mesh of meshes) {
    describe(`tensor parallel on ${mesh}`, () => {
      for (const [optName, mode, compiled] of cases) {
        it(`${optName} (momentum / moments) in ${mode} mode${compiled ? ' under tpu.compile' : ''}: the 1-chip losses step by step and the 1-chip parameters`, () => {
          const one = trainSpirals(X, Y, (m) => m, optName, mode, compiled);
          expect(one.losses.at(-1)!).toBeLessThan(one.losses[0]!);
          const tp = trainSpirals(X, Y, parallel(mesh), optName, mode, compiled);
          expectClose(tp.losses, one.losses);
          if (compiled) expect(tp.bodyRuns).toBe(1);
          // stateDict gives full tensors (a DTensor's fullTensor), keyed as the plain model's.
          const want = one.m.stateDict();
          const got = tp.m.stateDict();
          expect(Object.keys(got)).toEqual(Object.keys(want));
          for (const [k, t] of Object.entries(got)) {
            expect(t.shape).toEqual(want[k]!.shape);
            expectClose(host(t), host(want[k]!), 1e-4);
          }
        });
      }
    });
  }
}

/** The parameters a tensor-parallel MLP yields: DTensors with the styles' placements, each piece of torch.chunk's size. */
export function expectTensorParallelParameters(mesh: DeviceMesh, m: Module): void {
  const tp = mesh.ndim === 1 ? (p: string) => `[${p}]` : (p: string) => `[Replicate(), ${p}]`;
  const ps = m.parameters();
  const placements = ps.slice(0, 4).map((p) => (p as DTensor).placements.join(', '));
  expect(placements.map((p) => `[${p}]`)).toEqual([tp('Shard(0)'), tp('Shard(0)'), tp('Shard(1)'), tp('Replicate()')]);
}
