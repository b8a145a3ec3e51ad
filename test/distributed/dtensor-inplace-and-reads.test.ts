// DTensor's in-place ops (IN_PLACE in dtensor-op-groups.ts) update each chip's piece and keep the
// placements, with operands laid out as the DTensor (a Partial one is refused: its pieces are
// parts); a DTensor made by distributeTensor of Shard pieces leaves the source tensor alone. Host
// reads (item, array, data, toJSON, allclose, equal) read the full value once and free the gathered
// copy. References: float64 loops (dtensor-reference.ts) and hand-computed values.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { expectDTensor, fromFn, host, map, values, zip } from './dtensor-reference.js';
import { mesh, mesh2d, S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');
const x = values([10, 6]);
const y = values([10, 6], 5);
const row = values([6], 3);
const tensorOf = (h: typeof x) => tpu.tensor(h.data).reshape(h.shape);

for (const mode of ['debug', 'strict', 'fused'] as const) {
  describe(`DTensor in-place ops in ${mode} mode`, () => {
    it('mul_ by a number keeps Shard(0) and leaves the distributed tensor alone', () => tpu.withMode(mode, () => {
      const source = tensorOf(x);
      const d = tpu.distributeTensor(source, mesh, [S0]);
      expect(d.mul_(2)).toBe(d);
      expectDTensor(d, map(x, (v) => 2 * v), '[Shard(0)]');
      expect(host(source)).toEqual(host(tensorOf(x)));
    }));

    it('add_ of a DTensor laid out otherwise, and of a broadcast row', () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh, [S0]);
      d.add_(tpu.distributeTensor(tensorOf(y), mesh, [S1]), { alpha: 2 });
      d.sub_(tpu.distributeTensor(tensorOf(row), mesh, [R]));
      expectDTensor(d, zip(zip(x, y, (a, b) => a + 2 * b), row, (a, b) => a - b), '[Shard(0)]');
    }));

    it('clamp_, maskedFill_ and copy_ on a 2-d mesh keep [Shard(0), Shard(1)]', () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh2d, [S0, S1]);
      d.clamp_(-1, 1);
      expectDTensor(d, map(x, (v) => Math.min(1, Math.max(-1, v))), '[Shard(0), Shard(1)]');
      const mask = tpu.distributeTensor(tensorOf(y).gt(0), mesh2d, [R, S0]);
      d.maskedFill_(mask, 7);
      expectDTensor(d, zip(map(x, (v) => Math.min(1, Math.max(-1, v))), y, (a, b) => (b > 0 ? 7 : a)), '[Shard(0), Shard(1)]');
      d.copy_(tpu.distributeTensor(tensorOf(row), mesh2d, [R, R]));
      expectDTensor(d, fromFn([10, 6], ([, j]) => row.data[j!]!), '[Shard(0), Shard(1)]');
    }));

    it("addcmul_ and addcdiv_ of DTensors laid out otherwise keep Shard(0)", () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh, [S0]);
      const divisor = map(row, (v) => Math.abs(v) + 1);
      d.addcmul_(tpu.distributeTensor(tensorOf(y), mesh, [S1]), tpu.distributeTensor(tensorOf(row), mesh, [R]), { value: 0.5 });
      d.addcdiv_(tpu.distributeTensor(tensorOf(y), mesh, [R]), tpu.distributeTensor(tensorOf(divisor), mesh, [R]), { value: -2 });
      const mul = zip(zip(y, row, (b, c) => b * c), x, (bc, a) => a + 0.5 * bc);
      expectDTensor(d, zip(mul, zip(y, divisor, (b, c) => b / c), (a, q) => a - 2 * q), '[Shard(0)]', 1e-5);
    }));

    it('fill_ and zero_ of Replicate', () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh, [R]);
      d.fill_(3);
      expectDTensor(d, map(x, () => 3), '[Replicate()]');
      d.zero_();
      expectDTensor(d, map(x, () => 0), '[Replicate()]');
    }));

    it('the unary in-place ops (exp_, relu_) and dt.data = v', () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh, [S1]);
      d.relu_().exp_();
      expectDTensor(d, map(x, (v) => Math.exp(Math.max(0, v))), '[Shard(1)]', 1e-5);
      d.data = tpu.distributeTensor(tensorOf(y), mesh, [S0]);
      expectDTensor(d, y, '[Shard(1)]');
      expect(() => { d.data = tpu.distributeTensor(tensorOf(row), mesh, [R]); }).toThrow('DTensor.data = v: v must be a DTensor of shape [10, 6] and dtype float32; got [6] float32');
    }));

    it('a Partial DTensor is refused, naming the op and what to do', () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh, [P]);
      expect(() => d.add_(1)).toThrow(/^DTensor\.add_: the DTensor is \[Partial\('sum'\)\]: its pieces are parts of its value.*redistribute it to Replicate\(\) or a Shard first/);
      expectDTensor(d.redistribute(mesh, [S0]).add_(1), map(x, (v) => v + 1), '[Shard(0)]');
    }));
  });

  describe(`DTensor host reads in ${mode} mode`, () => {
    it('item, array, tolist, toJSON and data read the full value and free what they gathered', async () => {
      await tpu.withMode(mode, async () => {
        const d = tpu.distributeTensor(tpu.tensor([[1, 2], [3, 4], [5, 6]]), mesh, [S0]);
        const live = tpu.memory().liveTensors;
        expect(d.sum().item()).toBe(21);
        expect(d.array()).toEqual([[1, 2], [3, 4], [5, 6]]);
        expect(d.tolist()).toEqual([[1, 2], [3, 4], [5, 6]]);
        expect(JSON.stringify({ d })).toBe('{"d":[[1,2],[3,4],[5,6]]}');
        expect(Array.from(await d.data())).toEqual([1, 2, 3, 4, 5, 6]);
        expect(Array.from(d.dataSync())).toEqual([1, 2, 3, 4, 5, 6]);
        await tpu.sync();
        // the sum's parts and its result were made here; every gathered copy is gone
        expect(tpu.memory().liveTensors).toBeLessThanOrEqual(live + 4);
      });
    });

    it('allclose and equal compare the full values of two DTensors laid out differently', () => tpu.withMode(mode, () => {
      const a = tpu.distributeTensor(tensorOf(x), mesh, [S0]);
      const b = tpu.distributeTensor(tensorOf(map(x, (v) => v + 1e-7)), mesh, [S1]);
      expect(a.allclose(b)).toBe(true);
      expect(a.equal(tpu.distributeTensor(tensorOf(x), mesh, [R]))).toBe(true);
      expect(a.equal(b.add(1))).toBe(false);
    }));

    it('clampMin, typeAs, newZeros, reshapeAs, viewAs and expandAs; the random in-place ops are refused', () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh, [S0]);
      expectDTensor(d.clampMin(0), map(x, (v) => Math.max(0, v)), '[Shard(0)]');
      const ints = d.typeAs(tpu.distributeTensor(tpu.tensor([1], { dtype: 'int32' }), mesh, [R]));
      expect([ints.dtype, ints.placements.map(String)]).toEqual(['int32', ['Shard(0)']]);
      expect(host(ints.fullTensor())).toEqual(x.data.map((v) => Math.trunc(v) + 0)); // an int has no -0
      expectDTensor(d.newZeros(2, 3), fromFn([2, 3], () => 0), '[Replicate()]');
      const flat = tpu.distributeTensor(tpu.zeros([60]), mesh, [S0]);
      expectDTensor(d.reshapeAs(flat), { shape: [60], data: x.data }, '[Replicate()]');
      expectDTensor(flat.viewAs(d), fromFn([10, 6], () => 0), '[Replicate()]');
      const column = tpu.distributeTensor(tensorOf(fromFn([10, 1], ([i]) => i!)), mesh, [S0]);
      expectDTensor(column.expandAs(d), fromFn([10, 6], ([i]) => i!), '[Replicate()]');
      expect(() => d.reshapeAs(tensorOf(x) as never)).toThrow(/^DTensor\.reshapeAs: other must be a DTensor; got /);
      expect(() => d.normal_()).toThrow(/^DTensor\.normal_: not on a DTensor: draws random numbers on every chip/);
    }));

    it('numel, size and dim are the global shape\'s; dispose frees every piece', () => tpu.withMode(mode, () => {
      const d = tpu.distributeTensor(tensorOf(x), mesh, [S1]);
      expect([d.numel(), d.size(), d.size(-1), d.dim(), d.length]).toEqual([60, [10, 6], 6, 2, 10]);
      const pieces = d.localTensors();
      d.dispose();
      expect(pieces.map((t) => t.disposed)).toEqual([true, true, true, true]);
    }));
  });
}
