// A 4-chip program with collectives lowers to StableHLO's collectives (replica groups of chip
// ids) and compiles SPMD for v5e:2x2 through libtpu (skipped where libtpu is missing).
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';

tpu.setDevice({ chips: 4 });
const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED (compile) test/distributed/spmd-compile.test.ts: ${status.reason}`);

const mesh = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });
const specs = (shape: number[]) => [0, 1, 2, 3].map((chip) => tpu.spec(shape, 'float32', { chip }));
/** int64 reductions XLA:TPU has no all-reduce for: a product, a max along 'tp', a min reduce-scatter along 'dp'. */
const int64Reductions = tpu.compile((...xs: Tensor[]) => [
  ...tpu.distributed.allReduce(xs, { mesh, op: 'product' }),
  ...tpu.distributed.allReduce(xs, { mesh, op: 'max', axis: 'tp' }),
  ...tpu.distributed.reduceScatter(xs, { mesh, op: 'min', axis: 'dp', dim: 0 }),
]);
const int64Specs = [0, 1, 2, 3].map((chip) => tpu.spec([6, 128], 'int64', { chip }));
/** A product over all chips, an or of flags along 'tp' and an and along 'dp'. */
const productAndFlags = tpu.compile((...xs: Tensor[]) => {
  const flags = xs.map((x) => x.gt(0));
  return [
    ...tpu.distributed.allReduce(xs, { mesh, op: 'product' }),
    ...tpu.distributed.allReduce(flags, { mesh, axis: 'tp' }),
    ...tpu.distributed.allReduce(flags, { mesh, axis: 'dp', op: 'product' }),
  ];
});

describe('collectives in StableHLO', () => {
  it("lowers chip 0's program: every collective with its replica groups and its own channel", () => {
    const f = tpu.compile((...xs: Tensor[]) => {
      const summed = tpu.distributed.allReduce(xs, { mesh, op: 'mean' });
      const gathered = tpu.distributed.allGather(summed, { mesh, axis: 'tp', dim: 0 });
      const scattered = tpu.distributed.reduceScatter(gathered, { mesh, axis: 'dp', dim: 0 });
      return tpu.distributed.permute(scattered, { mesh, shift: 1 });
    });
    const text = f.lower(...specs([6, 4])).stablehlo;
    expect(text).toMatch(/"stablehlo.all_reduce"\(%arg0\) \(\{[\s\S]*?\}\) \{replica_groups = dense<\[\[0, 1, 2, 3\]\]> : tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids\}/);
    expect(text).toContain('"stablehlo.all_gather"');
    expect(text).toContain('{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>');
    expect(text).toContain('{scatter_dimension = 0 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>');
    expect(text).toContain('source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>');
    // 12 rows gathered on 2 chips, scattered back: torch.chunk gives 6 each, chip 0 of [0, 2] keeps rows 0..5.
    expect(text).toMatch(/"stablehlo.reduce_scatter"[\s\S]*?: \(tensor<12x4xf32>\) -> tensor<6x4xf32>/);
  });

  it("a product all-reduce's region multiplies; a bool's 'sum' is or, its 'product' and", () => {
    const text = productAndFlags.lower(...specs([8, 128])).stablehlo;
    const region = (input: string, op: string, element: string) =>
      new RegExp(`"stablehlo.all_reduce"\\(${input}\\) \\(\\{\\s*\\^bb0\\([^)]*\\):\\s*%\\d+ = "stablehlo.${op}"\\(%\\d+, %\\d+\\) : \\(tensor<${element}>, tensor<${element}>\\)`);
    expect(text).toMatch(region('%arg0', 'multiply', 'f32'));
    expect(text).toMatch(region('%\\d+', 'or', 'i1'));
    expect(text).toMatch(region('%\\d+', 'and', 'i1'));
  });

  it('an int64 product, max or min gathers every rank\'s value and reduces it on the chip', () => {
    const text = int64Reductions.lower(...int64Specs).stablehlo;
    expect(text).not.toContain('stablehlo.all_reduce');
    expect(text).not.toContain('stablehlo.reduce_scatter');
    expect(text).toMatch(/"stablehlo.all_gather"[^\n]*replica_groups = dense<\[\[0, 1, 2, 3\]\]>[^\n]*: \(tensor<1x6x128xi64>\) -> tensor<4x6x128xi64>/);
    for (const op of ['multiply', 'maximum', 'minimum']) expect(text).toMatch(new RegExp(`"stablehlo.reduce"[\\s\\S]*?"stablehlo.${op}"\\(%\\d+, %\\d+\\) : \\(tensor<i64>, tensor<i64>\\)`));
    // chip 0 is rank 0 of its dp group [0, 2]: rows 0-2 of the 6
    expect(text).toMatch(/"stablehlo.slice"[^\n]*limit_indices = array<i64: 3, 128>[^\n]*: \(tensor<6x128xi64>\) -> tensor<3x128xi64>/);
  });

  it('uneven shards are padded to the largest around all_gather and cut back', () => {
    const f = tpu.compile((...xs: Tensor[]) => tpu.distributed.allGather(xs, { mesh, dim: 0 }));
    const shapes = [[3, 2], [3, 2], [3, 2], [1, 2]];
    const text = f.lower(...shapes.map((s, chip) => tpu.spec(s, 'float32', { chip }))).stablehlo;
    expect(text).toMatch(/"stablehlo.all_gather"\(%\w+\) \{all_gather_dim = 0 : i64[^}]*\} : \(tensor<3x2xf32>\) -> tensor<12x2xf32>/);
    expect(text).toMatch(/"stablehlo.concatenate"[^\n]*-> tensor<10x2xf32>/);
  });
});

describe.skipIf(!status.available)('SPMD compile for v5e:2x2 (libtpu)', () => {
  it("compiles a 4-chip all-reduce: XLA:TPU's HLO holds it across partitions 0-3", async () => {
    const f = tpu.compile((...xs: Tensor[]) => tpu.distributed.allReduce(xs.map((x) => x.matmul(x.T)), { mesh }).map((x) => x.tanh()));
    const compiled = await f.lower(...specs([256, 512])).compile({ topology: 'v5e:2x2', numPartitions: 4 });
    expect(compiled.info().numPartitions).toBe(4);
    const hlo = compiled.asText();
    expect(hlo).toMatch(/all-reduce[^\n]*replica_groups=\{\{0,1,2,3\}\}/);
    const cost = compiled.costAnalysis();
    // Each chip: a 256×512 by 512×256 matmul (2·256·256·512 flops) and a 256×256 tanh.
    expect(cost.flops).toBeGreaterThanOrEqual(2 * 256 * 256 * 512);
    expect(cost.transcendentals).toBe(256 * 256);
  }, 120_000);

  it('compiles the int64 product, max and min (XLA:TPU all-reduces int64 only by a sum)', async () => {
    const hlo = (await int64Reductions.lower(...int64Specs).compile({ topology: 'v5e:2x2', numPartitions: 4 })).asText();
    expect(hlo).not.toMatch(/ all-reduce\(/);
    expect(hlo).toMatch(/ all-gather\(/);
  }, 120_000);

  it('compiles the product, or and and all-reduces', async () => {
    const hlo = (await productAndFlags.lower(...specs([8, 128])).compile({ topology: 'v5e:2x2', numPartitions: 4 })).asText();
    expect(hlo.match(/ all-reduce\(/g)).toHaveLength(3);
    expect(hlo).toMatch(/ multiply\(/);
    expect(hlo).toMatch(/pred\[\][^=]* or\(/);
    expect(hlo).toMatch(/pred\[\][^=]* and\(/);
  }, 120_000);
});
