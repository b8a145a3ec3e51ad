// Emulated chips: the chip count, each chip's memory account, device meshes, and the errors
// that name a bad argument (mixed chips, wrong locals, unknown options).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { apply, ops, tpu } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });

describe('chips', () => {
  it('the count is read back and changes only before the first tensor', async () => {
    expect(tpu.device().chips).toBe(4);
    const x = tpu.zeros([2], { chip: 3 });
    expect(x.chip).toBe(3);
    expect(() => tpu.setDevice({ chips: 2 })).toThrow('tpu.setDevice: the chip count can change only before the first tensor or after `await tpu.reset()` (the session runs 4 chips; asked for 2)');
    expect(() => tpu.setDevice({ chips: 0 })).toThrow('tpu.setDevice: chips must be a positive integer; got 0');
    expect(() => tpu.zeros([2], { chip: 4 })).toThrow('tpu.zeros: chip must be an integer in [0, 4) (the session has 4 chips: TPU_KERNEL_CHIPS or tpu.setDevice({ chips })); got 4');
    expect(() => x.toChip(-1)).toThrow('toChip: chip must be an integer in [0, 4)');
    await tpu.reset();
    tpu.setDevice({ chips: 2 });
    expect(tpu.memory().chips.length).toBe(2);
    await tpu.reset();
    tpu.setDevice({ chips: 4 });
  });

  it('each chip has its own memory account, capacity and live tensors', () => {
    const before = tpu.memory();
    expect(before.chips.map((c) => c.chip)).toEqual([0, 1, 2, 3]);
    const big = tpu.zeros([256, 1024], { chip: 2 }); // 1 MiB
    const small = tpu.ones([10], { chip: 1, dtype: 'bfloat16' }); // 20 bytes
    const after = tpu.memory();
    const delta = after.chips.map((c, i) => c.liveBytes - before.chips[i]!.liveBytes);
    expect(delta).toEqual([0, 20, 2 ** 20, 0]);
    expect(after.chips[2]!.liveTensors - before.chips[2]!.liveTensors).toBe(1);
    expect(after.liveBytes - before.liveBytes).toBe(2 ** 20 + 20);
    expect(after.chips.every((c) => c.capacityBytes === tpu.device().capacityBytes)).toBe(true);
    expect(after.capacityBytes).toBe(4 * tpu.device().capacityBytes);
    expect(after.chips[2]!.peakBytes).toBeGreaterThanOrEqual(2 ** 20);
    expect(tpu.largestTensors(1)).toEqual([{ bytes: 2 ** 20, shape: [256, 1024], dtype: 'float32', origin: 'zeros', chip: 2 }]);
    expect(tpu.stats().bytesToDevice).toBeGreaterThanOrEqual(2 ** 20 + 20);
    big.dispose();
    small.dispose();
    expect(tpu.memory().chips.map((c) => c.liveBytes)).toEqual(before.chips.map((c) => c.liveBytes));
  });

  it('out of memory names the chip; a collective checks every chip before any starts', () => {
    const mesh = tpu.initDeviceMesh([4]);
    const xs = [0, 1, 2, 3].map((c) => tpu.ones([64, 1024], { chip: c })); // 256 KiB each
    const filler = tpu.zeros([200, 1024], { chip: 2 }); // 800 KiB more on chip 2
    tpu.setDevice({ hbmBytes: 2 ** 20 });
    try {
      expect(() => tpu.zeros([512, 1024], { chip: 1 })).toThrow(/out of device memory: zeros needs 2.00 MiB .* on chip 1 are live/);
      expect(() => tpu.distributed.allReduce(xs, { mesh })).toThrow(/out of device memory: tpu.distributed.allReduce needs 256.0 KiB for \[64, 1024\] float32, but 1.03 MiB of .* on chip 2 are live/);
      tpu.setDevice({ hbmBytes: null });
      filler.dispose();
      const sums = tpu.distributed.allReduce(xs, { mesh }); // the interconnect is in step: nothing ran before
      expect(Array.from(sums[3]!.dataSync().slice(0, 2))).toEqual([4, 4]);
    } finally {
      tpu.setDevice({ hbmBytes: null });
    }
  });
});

describe('TPU_KERNEL_CHIPS', () => {
  const run = (env: Record<string, string>) => execFileSync(process.execPath, ['--input-type=module', '-e', `import { tpu } from 'tpu-kernel/runtime';
const xs = [0, 1, 2].map((chip) => tpu.full([2], chip + 1, { chip }));
const sums = tpu.distributed.allReduce(xs, { mesh: tpu.initDeviceMesh([3]) });
console.log(JSON.stringify({ chips: tpu.device().chips, threads: tpu.device().threads, sum: Array.from(sums[2].dataSync()) }));`], {
    env: { ...process.env, TPU_KERNEL_THREADS: '2', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

  it('sets the chip count; each chip gets a share of the threads', () => {
    expect(JSON.parse(run({ TPU_KERNEL_CHIPS: '3' }))).toEqual({ chips: 3, threads: 1, sum: [6, 6] });
    expect(() => run({ TPU_KERNEL_CHIPS: 'four' })).toThrow(/TPU_KERNEL_CHIPS must be a positive integer; got "four"/);
  });
});

describe('closing the session', () => {
  it('tpu.reset() ends a collective still waiting for a peer (no 60 s wait)', async () => {
    // Only chip 0's part of a two-chip all-reduce: chip 0 waits for chip 1, which never comes.
    const x = tpu.ones([4]);
    apply(ops.allReducePrimitive, [x], { groups: [[0, 1]], rank: 0, reduce: 'sum' });
    const t0 = Date.now();
    await tpu.reset();
    expect(Date.now() - t0).toBeLessThan(20_000);
    tpu.setDevice({ chips: 4 });
    expect(Array.from(tpu.ones([2], { chip: 3 }).mul(2).dataSync())).toEqual([2, 2]);
  });
});

describe('device meshes', () => {
  it('shape, names, size, chips (row-major) and sub-meshes by axis', () => {
    const mesh = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });
    expect([mesh.shape, mesh.names, mesh.size, mesh.chips]).toEqual([[2, 2], ['dp', 'tp'], 4, [0, 1, 2, 3]]);
    expect(mesh.get('tp').groups()).toEqual([[0, 1], [2, 3]]);
    expect(mesh.get('dp').groups()).toEqual([[0, 2], [1, 3]]);
    expect(mesh.groups()).toEqual([[0, 1, 2, 3]]);
    expect(String(mesh.get('tp'))).toBe('DeviceMesh(dp=2, tp=2; along tp)');
    const flat = tpu.initDeviceMesh([4], { names: ['dp'] });
    expect(flat.get('dp').groups()).toEqual([[0, 1, 2, 3]]);
    expect(tpu.initDeviceMesh([4]).names).toEqual(['dim0']);
  });

  it('bad meshes are named', () => {
    expect(() => tpu.initDeviceMesh([2, 4], { names: ['dp', 'tp'] })).toThrow('tpu.initDeviceMesh: a mesh of shape [2,4] has 8 chips, but the session has 4 (set TPU_KERNEL_CHIPS=8 or call tpu.setDevice({ chips: 8 }) first)');
    expect(() => tpu.initDeviceMesh([4], { names: ['dp', 'tp'] })).toThrow('tpu.initDeviceMesh: names must give one non-empty string per dimension of shape [4]; got ["dp","tp"]');
    expect(() => tpu.initDeviceMesh([2, 2], { names: ['dp', 'dp'] })).toThrow('tpu.initDeviceMesh: names must be distinct');
    expect(() => tpu.initDeviceMesh([0])).toThrow('tpu.initDeviceMesh: shape must be a non-empty array of positive integers');
    expect(() => tpu.initDeviceMesh([4], { name: ['dp'] } as never)).toThrow("tpu.initDeviceMesh: unknown option 'name'; tpu.initDeviceMesh accepts 'names'");
    const mesh = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });
    expect(() => mesh.get('pp')).toThrow('mesh.get: the mesh has no axis "pp"; its axes are "dp", "tp"');
  });
});

describe('bad collective input is named', () => {
  const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
  const xs = () => [0, 1, 2, 3].map((c) => tpu.zeros([4, 2], { chip: c }));

  it('count, chip, dtype, shape, op, dim, mesh', () => {
    const d = tpu.distributed;
    expect(() => d.allReduce(xs().slice(0, 3), { mesh })).toThrow('tpu.distributed.allReduce: locals must hold 4 tensors (one per chip of the mesh, in mesh.chips order); got 3');
    const wrongChip = xs();
    wrongChip[2] = tpu.zeros([4, 2], { chip: 1 });
    expect(() => d.allReduce(wrongChip, { mesh })).toThrow('tpu.distributed.allReduce: locals[2] must be on chip 2 (mesh.chips[2]); it is on chip 1 (move it with .toChip(2))');
    const wrongDtype = xs();
    wrongDtype[3] = tpu.zeros([4, 2], { chip: 3, dtype: 'int32' });
    expect(() => d.allGather(wrongDtype, { mesh })).toThrow('tpu.distributed.allGather: locals[3] has dtype int32, but locals[0] has float32');
    const wrongShape = xs();
    wrongShape[1] = tpu.zeros([4, 3], { chip: 1 });
    expect(() => d.allReduce(wrongShape, { mesh })).toThrow('tpu.distributed.allReduce: locals[1] has shape [4, 3], but locals[0] has [4, 2]');
    expect(() => d.allGather(wrongShape, { mesh, dim: 0 })).toThrow('(they may differ only along dim 0)');
    expect(() => d.allReduce(xs(), { mesh, op: 'avg' as never })).toThrow("tpu.distributed.allReduce: op must be one of 'sum', 'mean', 'max', 'min', 'product'; got \"avg\"");
    expect(() => d.reduceScatter(xs(), { mesh, dim: 2 })).toThrow('tpu.distributed.reduceScatter: dim must be an integer in [-2, 2) for 2-d tensors; got 2');
    expect(() => d.allReduce(xs(), { mesh: [4] as never })).toThrow('tpu.distributed.allReduce: options.mesh must be a DeviceMesh (tpu.initDeviceMesh); got an object of type Array');
    expect(() => d.allReduce(xs(), { mesh, axis: 'tp' })).toThrow('tpu.distributed.allReduce: the mesh has no axis "tp"; its axes are "dp"');
    expect(() => d.allToAll(xs(), { mesh, splitDim: 1, concatDim: 0 })).toThrow('tpu.distributed.allToAll: splitDim 1 has size 2, which must be divisible by the group size 4');
    expect(() => d.broadcast(xs(), { mesh, src: 4 })).toThrow('tpu.distributed.broadcast: src must be a rank in [0, 4) of each group; got 4');
    expect(() => d.allReduce(xs().map((x) => x.to('int32')), { mesh, op: 'mean' })).toThrow("tpu.distributed.allReduce: op 'mean' needs a floating dtype; got int32");
    expect(() => d.reduceScatter(xs().map((x) => x.gt(0)), { mesh, op: 'mean' })).toThrow("tpu.distributed.reduceScatter: op 'mean' needs a floating dtype; got bool");
    expect(() => d.permute(xs(), { mesh, shfit: 1 } as never)).toThrow("tpu.distributed.permute: unknown option 'shfit'; tpu.distributed.permute accepts 'mesh', 'axis', 'shift'");
  });
});
