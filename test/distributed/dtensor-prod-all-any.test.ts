// DTensor prod, all and any (DTensor had none: dt.prod() was "dt.prod is not a function"), with
// their Tensor namesakes' argument forms. First against PyTorch 2.13's own DTensor on 4 simulated
// ranks (dtensor-torch.ts), in every mode: over a sharded dim prod and all give Partial('product')
// (for all's bools a logical and), any Partial('sum') (a logical or); other shards stay; zeros,
// empty pieces, int32 (int64 products), bool and bfloat16 inputs, 1-d and 2-d meshes. Then where
// PyTorch's DTensor keeps a Partial whose parts do not compose and gives a wrong number (any's
// Partial doubled or summed, any of a sum's parts, all of an underflowing product's parts): the
// full tensor's value, worked out in float64 here. Then prod's gradient through DTensor, and
// Partial('max')'s (its rule waited forever in debug mode), against float64 loops; then errors.
import { describe, expect, it } from 'vitest';
import { tpu, type Placement } from 'tpu-kernel/runtime';
import { expectClose, fromFn, host, values } from './dtensor-reference.js';
import { bf16, bool, compareWithTorch, dist, f32, i32, type Case } from './dtensor-torch.js';
import { mesh, mesh2d, S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');
const MODES = ['debug', 'strict', 'fused'] as const;

/** Values in [0.58, 1.5), so 60 of them multiply within float32; 0 at (0, 5), (3, 4), (6, 3), (9, 2). */
const x = fromFn([10, 6], ([i, j]) => {
  const k = i! * 6 + j!;
  return k % 17 === 5 ? 0 : Math.round((1 + (((k * 3.17) % 11) - 5) / 12) * 100) / 100;
});
/** Two rows on 4 chips: pieces of 1, 1, 0 and 0 rows. */
const two = fromFn([2, 6], ([i, j]) => 0.75 + 0.1 * (i! + j!));
/** Integers in {-2, -1, 1, 2, 3}: a column's product stays within 3^10. */
const ints = fromFn([10, 6], ([i, j]) => [-2, -1, 1, 2, 3][(i! * 7 + j! * 3) % 5]!);
/** Per column: all true; all false; one true (row 7); one false (row 9); mixed; alternating. */
const truth = fromFn([10, 6], ([i, j]) => [1, 0, i === 7 ? 1 : 0, i === 9 ? 0 : 1, i! % 3 === 0 ? 1 : 0, (i! + j!) % 2][j!]!);

const cases: Case[] = [
  // prod
  { name: 'prod() of Shard(0) gives Partial(product)', inputs: [f32(x, [S0])], js: (d) => d.prod(), py: 'd0.prod()' },
  { name: 'prod(0) over the sharded dim, zeros in four columns', inputs: [f32(x, [S0])], js: (d) => d.prod(0), py: 'd0.prod(0)' },
  { name: 'prod(0, true) keepdim', inputs: [f32(x, [S0])], js: (d) => d.prod(0, true), py: 'd0.prod(0, keepdim=True)' },
  { name: 'prod({ dim: 1 }) keeps Shard(0)', inputs: [f32(x, [S0])], js: (d) => d.prod({ dim: 1 }), py: 'd0.prod(1)' },
  { name: 'prod(1, { keepdim }) over the sharded dim of Shard(1)', inputs: [f32(x, [S1])], js: (d) => d.prod(1, { keepdim: true }), py: 'd0.prod(1, keepdim=True)' },
  { name: 'prod() of Replicate', inputs: [f32(x, [R])], js: (d) => d.prod(), py: 'd0.prod()' },
  { name: 'prod() of a Partial(sum) reduces the parts first', inputs: [f32(x, [P])], js: (d) => d.prod(), py: 'd0.prod()' },
  { name: 'prod() with empty pieces (2 rows on 4 chips): theirs is 1', inputs: [f32(two, [S0])], js: (d) => d.prod(), py: 'd0.prod()' },
  { name: 'prod() on a 2-d mesh: Partial(product) twice', inputs: [f32(x, [S0, S1])], js: (d) => d.prod(), py: 'd0.prod()' },
  { name: 'prod(0) on a 2-d mesh keeps the other shard', inputs: [f32(x, [S0, S1])], js: (d) => d.prod(0), py: 'd0.prod(0)' },
  { name: 'prod(1) of [Replicate(), Shard(0)]', inputs: [f32(x, [R, S0])], js: (d) => d.prod(1), py: 'd0.prod(1)' },
  { name: 'prod(0) of [Partial(sum), Shard(0)] gathers both', inputs: [f32(x, [P, S0])], js: (d) => d.prod(0), py: 'd0.prod(0)' },
  { name: 'prod(0) of int32 is int64', inputs: [i32(ints, [S0])], js: (d) => d.prod(0), py: 'd0.prod(0)' },
  { name: 'prod(1) of int32 on a 2-d mesh', inputs: [i32(ints, [S1, S0])], js: (d) => d.prod(1), py: 'd0.prod(1)' },
  { name: 'prod() of bool is int64', inputs: [bool(truth, [S1])], js: (d) => d.prod(), py: 'd0.prod()' },
  { name: 'prod(1) of bfloat16 over the sharded dim', inputs: [bf16(x, [S1])], js: (d) => d.prod(1), py: 'd0.prod(1)' },
  { name: 'prod() of a Partial(product) keeps it: a product of products', inputs: [f32(x, [S0])], js: (d) => d.prod(0).prod(), py: 'd0.prod(0).prod()' },
  { name: 'neg of a Partial(product) reduces it first', inputs: [f32(x, [S0])], js: (d) => d.prod(0).neg(), py: 'd0.prod(0).neg()' },
  { name: 'a scalar added to a Partial(product) reduces it first', inputs: [f32(x, [S0])], js: (d) => d.prod(0).add(2), py: 'd0.prod(0) + 2' },
  // all / any
  { name: 'all() of float32 Shard(0) gives a bool Partial(product)', inputs: [f32(x, [S0])], js: (d) => d.all(), py: 'd0.all()' },
  { name: 'any() of float32 Shard(0) gives a bool Partial(sum)', inputs: [f32(x, [S0])], js: (d) => d.any(), py: 'd0.any()' },
  { name: 'all(0) of bool over the sharded dim', inputs: [bool(truth, [S0])], js: (d) => d.all(0), py: 'd0.all(0)' },
  { name: 'any(0) of bool over the sharded dim', inputs: [bool(truth, [S0])], js: (d) => d.any(0), py: 'd0.any(0)' },
  { name: 'all(1) of bool keeps Shard(0)', inputs: [bool(truth, [S0])], js: (d) => d.all(1), py: 'd0.all(1)' },
  { name: 'any(1, true) of bool Shard(1)', inputs: [bool(truth, [S1])], js: (d) => d.any(1, true), py: 'd0.any(1, keepdim=True)' },
  { name: 'any over both dims, keepdim, with an empty piece', inputs: [f32(x, [S1])], js: (d) => d.any({ dim: [0, 1], keepdim: true }), py: 'd0.any([0, 1], keepdim=True)' },
  { name: 'all({ dim: 0, keepdim }) of int32', inputs: [i32(ints, [S0])], js: (d) => d.all({ dim: 0, keepdim: true }), py: 'd0.all(0, keepdim=True)' },
  { name: 'all() of bool on a 2-d mesh', inputs: [bool(truth, [S0, S1])], js: (d) => d.all(), py: 'd0.all()' },
  { name: 'any(1) of bool on a 2-d mesh', inputs: [bool(truth, [S1, S0])], js: (d) => d.any(1), py: 'd0.any(1)' },
  { name: 'all() of a bool Partial(product) keeps it: an and of ands', inputs: [bool(truth, [S0])], js: (d) => d.all(0).all(), py: 'd0.all(0).all()' },
  { name: 'any() of a bool Partial(sum) keeps it: an or of ors', inputs: [bool(truth, [S0])], js: (d) => d.any(0).any(), py: 'd0.any(0).any()' },
  { name: 'all() of bool Replicate', inputs: [bool(truth, [R])], js: (d) => d.all(), py: 'd0.all()' },
  { name: 'all() of a Partial(sum) reduces the parts first', inputs: [f32(x, [P])], js: (d) => d.all(), py: 'd0.all()' },
  { name: 'all(0) of [Partial(sum), Shard(1)]: the sum reduced, the shard kept', inputs: [f32(x, [P, S1])], js: (d) => d.all(0), py: 'd0.all(0)' },
];

compareWithTorch('DTensor prod, all, any vs PyTorch DTensor', cases);

/** Column reductions of a [rows, cols] host value, in float64. */
function columns(h: { shape: number[]; data: number[] }, f: (column: number[]) => number): number[] {
  const [rows, cols] = h.shape as [number, number];
  return Array.from({ length: cols }, (_, c) => f(Array.from({ length: rows }, (_, r) => h.data[r * cols + c]!)));
}
const anyOf = (xs: number[]) => (xs.some((v) => v !== 0) ? 1 : 0);
const product = (xs: number[]) => xs.reduce((p, v) => p * v, 1);

describe('DTensor all/any where PyTorch keeps Partials that do not compose: the full tensor\'s value', () => {
  for (const mode of MODES) {
    it(`arithmetic on any's Partial(sum) of bools reduces the or first (${mode} mode)`, () => tpu.withMode(mode, () => {
      const d = dist(bool(truth, [S0]));
      const doubled = d.any(0).mul(2); // PyTorch: the doubled parts summed, [8, 0, 2, 8, 8, 8]
      expect(String(doubled.placements)).toBe('Replicate()');
      expect(doubled.dtype).toBe('int64');
      expect(host(doubled.fullTensor())).toEqual(columns(truth, anyOf).map((v) => 2 * v));
      const count = d.any(0).sum(); // PyTorch: 11, the parts' trues counted
      expect(host(count.fullTensor())).toEqual([columns(truth, anyOf).reduce((a, b) => a + b, 0)]);
      const both = d.any(0).add(d.any(0)); // bool + bool is an or, as in PyTorch
      expect(host(both.fullTensor())).toEqual(columns(truth, anyOf));
    }));

    it(`any and all of a Partial(sum) whose parts cancel: of their sum (${mode} mode)`, () => tpu.withMode(mode, () => {
      // parts [1, 0], [-1, 0], [0, 2], [0, -2]: the value is [0, 0]
      const parts = [[1, 0], [-1, 0], [0, 2], [0, -2]].map((p, chip) => tpu.tensor(p, { chip }));
      const d = tpu.DTensor.fromLocal(parts, mesh, [P]);
      expect(host(d.any().fullTensor())).toEqual([0]); // PyTorch: True, each part's any or-ed
      expect(host(d.any(0).fullTensor())).toEqual([0]);
      expect(host(d.all().fullTensor())).toEqual([0]);
    }));

    it(`all of a product whose nonzero parts underflow to 0 (${mode} mode)`, () => tpu.withMode(mode, () => {
      const d = dist(f32({ shape: [4], data: [1e-20, 1e-20, 1e-20, 1e-20] }, [S0]));
      const p = d.prod(0); // Partial('product'), each part 1e-20: the value 1e-80 is 0 in float32
      expect(host(p.fullTensor())).toEqual([0]);
      expect(host(p.all().fullTensor())).toEqual([0]); // PyTorch: True, each part's all and-ed
      expect(host(p.any().fullTensor())).toEqual([0]);
    }));
  }
});

describe('DTensor prod gradients (float64 products of the other elements)', () => {
  /** d(prod of the listed elements)/d(each): the product of the others. */
  const othersProduct = (xs: number[]) => xs.map((_, i) => product(xs.filter((__, j) => j !== i)));
  const leaf = (h: { shape: number[]; data: number[] }, ps: Placement[]) =>
    tpu.distributeTensor(tpu.tensor(h.data).reshape(h.shape).requiresGrad_(), ps.length === 2 ? mesh2d : mesh, ps);

  for (const mode of MODES) {
    it(`prod() with one zero: the zero's gradient is the others' product, the rest 0 (${mode} mode)`, () => tpu.withMode(mode, () => {
      const h = fromFn([4, 3], ([i, j]) => (i === 2 && j === 1 ? 0 : 0.5 + 0.25 * (i! + j!)));
      const w = leaf(h, [S0]);
      w.prod().backward();
      expectClose(host(w.grad!.fullTensor()), othersProduct(h.data), 1e-5);
    }));

    it(`prod() with two zeros on different chips: all gradients 0 (${mode} mode)`, () => tpu.withMode(mode, () => {
      const h = fromFn([4, 3], ([i, j]) => ((i === 0 && j === 0) || (i === 3 && j === 2) ? 0 : 1.5));
      const w = leaf(h, [S0]);
      w.prod().backward();
      expect(host(w.grad!.fullTensor())).toEqual(h.data.map(() => 0));
    }));

    it(`prod(0) weighted by column: each gets c_j · the others' product in its column (${mode} mode)`, () => tpu.withMode(mode, () => {
      const w = leaf(x, [S0]);
      const c = [0.5, -1, 2, 1.5, -0.25, 3];
      w.prod(0).mul(tpu.distributeTensor(tpu.tensor(c), mesh, [R])).sum().backward();
      const want = x.data.map((_, k) => {
        const [i, j] = [Math.floor(k / 6), k % 6];
        return c[j]! * product(x.data.filter((v, m) => m % 6 === j && m !== k));
      });
      expect(want.filter((g, k) => g !== 0 && x.data[k] === 0)).toHaveLength(4); // each column's zero gets the rest's product
      expectClose(host(w.grad!.fullTensor()), want, 1e-5);
    }));

    it(`prod() on a 2-d mesh: the others' product (${mode} mode)`, () => tpu.withMode(mode, () => {
      const h = fromFn([4, 4], ([i, j]) => 0.8 + 0.05 * (i! * 4 + j!));
      const w = leaf(h, [S0, S1]);
      w.prod().backward();
      expect(String(w.grad!.placements)).toBe('Shard(0),Shard(1)');
      expectClose(host(w.grad!.fullTensor()), othersProduct(h.data), 1e-5);
    }));

    it(`max() through Partial('max'): the gradient reaches the largest element (${mode} mode)`, () => tpu.withMode(mode, () => {
      const w = leaf({ shape: [8], data: [1, 5, 2, 3, 0, 4, 2, 2] }, [S0]);
      w.max().backward();
      expect(host(w.grad!.fullTensor())).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
    }));
  }
});

describe("Partial('product') redistributed", () => {
  for (const mode of MODES) {
    it(`to Shard(0) by a product reduce-scatter, to Replicate() by a product all-reduce (${mode} mode)`, () => tpu.withMode(mode, () => {
      const p = dist(f32(x, [S1])).prod(1); // [10], Partial('product')
      const want = Array.from({ length: 10 }, (_, i) => product(x.data.slice(i * 6, i * 6 + 6)));
      const sharded = p.redistribute(mesh, [S0]);
      expect(sharded.localTensors().map((t) => t.shape[0])).toEqual([3, 3, 3, 1]);
      expectClose(host(sharded.fullTensor()), want, 1e-5);
      expectClose(host(p.redistribute(mesh, [R]).localTensors()[3]!), want, 1e-5);
    }));
  }
});

describe('DTensor prod, all, any: errors', () => {
  const d = () => dist(f32(x, [S0]));
  it('read their arguments as the Tensor methods do, naming the DTensor method', () => {
    expect(() => d().prod([0, 1] as never)).toThrow(/^DTensor\.prod: .*For the product over several dims, take one dim at a time/);
    expect(() => d().all(0, { keepdims: true } as never)).toThrow("DTensor.all: unknown option 'keepdims'");
    expect(() => d().any(2)).toThrow(/^DTensor\.any: dim .*2/);
  });

  it("a whole value has no Partial('product') parts (PyTorch refuses too)", () => {
    const parts = tpu.Partial('product');
    expect(String(parts)).toBe("Partial('product')");
    expect(() => tpu.distributeTensor(tpu.ones([4]), mesh, [parts])).toThrow("tpu.distributeTensor: a whole value cannot be split into Partial('product') parts");
    expect(() => d().redistribute(mesh, [parts])).toThrow("DTensor.redistribute: a whole value cannot be split into Partial('product') parts");
  });

  it("a Partial('product') cannot be a leaf that requires grad, nor fromLocal's layout of locals that do", () => {
    const p = d().prod(0);
    expect(() => p.requiresGrad_()).toThrow(/cannot require grad: its placements hold Partial\('product'\)/);
    const locals = p.localTensors().map((t) => t.detach().requiresGrad_());
    expect(() => tpu.DTensor.fromLocal(locals, mesh, p.placements)).toThrow(/placements hold Partial\('product'\), whose parts have no gradient layout/);
  });
});
