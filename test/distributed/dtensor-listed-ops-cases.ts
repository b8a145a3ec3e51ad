// The Tensor methods DTensor takes from lists (runtime/distributed/dtensor-op-groups.ts), a few of
// each group, on one mesh and several layouts: each op's result must be the same op's on the full
// tensor (values, dtype, shape; those have their own PyTorch tests), its placements what the
// group's rule says, and the gradient reaching the sharded leaf the one the same op gives a plain
// leaf (the DTensor leaf's .grad keeps the leaf's placements); tpu's functions (activations,
// losses) given DTensors likewise. Input [10, 6] splits unevenly: 10 rows on 4 chips are 3, 3, 3,
// 1; 6 columns are 2, 2, 2, 0 (an empty piece).
import { describe, expect, it } from 'vitest';
import { tpu, type DeviceMesh, type DTensor, type Placement, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, host, map, values } from './dtensor-reference.js';

const R = tpu.Replicate();
const F = tpu.nn.functional;
const X = values([10, 6]);
// no two elements equal (sort, median and cummax have one answer, and one gradient)
const DISTINCT = map(X, (v) => v);
DISTINCT.data = DISTINCT.data.map((v, i) => v + i * 1e-3);

/** Operands besides the input, each a plain tensor in the reference run and a DTensor in the distributed one. */
const OPERANDS = {
  /** as the input, other values */
  y: () => tpu.tensor(values([10, 6], 5).data).reshape([10, 6]),
  /** broadcast along the rows */
  row: () => tpu.tensor(values([6], 3).data),
  /** column indices in [0, 6) */
  index: () => tpu.tensor(Array.from({ length: 20 }, (_, i) => (i * 7) % 6), { dtype: 'int32' }).reshape([10, 2]),
  /** flat indices in [0, 60) */
  flat: () => tpu.tensor([0, 59, 13, 7, 42], { dtype: 'int32' }),
  /** [6, 4] */
  mat: () => tpu.tensor(values([6, 4], 2).data).reshape([6, 4]),
  mask: () => tpu.tensor(values([10, 6], 7).data).reshape([10, 6]).gt(0),
};
type OperandName = keyof typeof OPERANDS;
const operand = (name: OperandName) => ({ operand: name });
type Arg = number | boolean | Record<string, unknown> | { operand: OperandName };

type Layout = (ps: readonly Placement[], mesh: DeviceMesh) => Placement[];
/** Elementwise: shards kept, a Partial reduced to Replicate(). */
export const kept: Layout = (ps) => ps.map((p) => (p.kind === 'partial' ? R : p));
/** No rule: Replicate() everywhere. */
export const replicate: Layout = (ps) => ps.map(() => R);
/** An op that reads `dims` whole: their shards and any Partial gathered, other shards kept (renumbered without keepdim). */
export const reads = (dims: number[], keepdim = true, part?: Placement): Layout => (ps) => ps.map((p) => {
  if (p.kind === 'partial') return R;
  if (p.kind !== 'shard') return p;
  if (dims.includes(p.dim)) return part ?? R;
  return tpu.Shard(keepdim ? p.dim : p.dim - dims.filter((d) => d < p.dim).length);
});

/** reshape(-1) of X: dim 0 stays sharded when alone and divisible by its mesh dim's chips; dim 1, not the first flattened dim, never; a Partial stays. */
const flattened: Layout = (ps, mesh) => {
  const shards = ps.filter((p) => p.kind === 'shard').length;
  return ps.map((p, m) => (p.kind !== 'shard' ? p : p.dim === 0 && shards === 1 && X.shape[0]! % mesh.shape[m]! === 0 ? p : R));
};
/** unsqueeze(1): shards of dims from 1 on move up one; a Partial stays. */
const unsqueezed1: Layout = (ps) => ps.map((p) => (p.kind === 'shard' && p.dim >= 1 ? tpu.Shard(p.dim + 1) : p));
/** narrow(0, ...): dim 0's shard gathered, other shards and a Partial stay. */
const narrowed0: Layout = (ps) => ps.map((p) => (p.kind === 'shard' && p.dim === 0 ? R : p));

export interface OpCase {
  /** a Tensor method name, called the same way on the DTensor and on the full tensor (or the name of `fn`) */
  op: string;
  /** a tpu function called with the input first, instead of the method */
  fn?: (...args: never[]) => unknown;
  args?: Arg[];
  layout: Layout;
  /** the input's values (default X) */
  input?: typeof X;
  /** float outputs flow gradients (false: an op without a gradient) */
  grad?: boolean;
}

export const CASES: OpCase[] = [
  // pointwise
  { op: 'tan', layout: kept },
  { op: 'silu', layout: kept },
  { op: 'atan2', args: [operand('y')], layout: kept },
  { op: 'hypot', args: [operand('row')], layout: kept },
  { op: 'logaddexp', args: [operand('y')], layout: kept },
  { op: 'clamp', args: [-1, 2], layout: kept },
  { op: 'addcmul', args: [operand('y'), operand('row'), { value: 0.5 }], layout: kept },
  { op: 'pow', args: [3], layout: kept },
  { op: 'xlogy', args: [2], layout: kept },
  { op: 'where', args: [operand('mask'), operand('y')], layout: kept },
  { op: 'maskedFill', args: [operand('mask'), 0.5], layout: kept },
  { op: 'isclose', args: [operand('y'), { atol: 3 }], layout: kept, grad: false },
  { op: 'signbit', layout: kept, grad: false },
  { op: 'nanToNum', layout: kept },
  { op: 'digamma', layout: kept, input: map(X, (v) => Math.abs(v) + 0.5) },
  // along dims
  { op: 'cummax', args: [1], layout: reads([1]), input: DISTINCT },
  { op: 'cummin', args: [0], layout: reads([0]), input: DISTINCT },
  { op: 'logcumsumexp', args: [0], layout: reads([0]) },
  { op: 'logcumsumexp', args: [{ dim: 1 }], layout: reads([1]) },
  { op: 'nansum', args: [0], layout: reads([0], false, tpu.Partial('sum')) },
  { op: 'nansum', args: [1, true], layout: reads([1], true, tpu.Partial('sum')) },
  { op: 'nanmean', args: [{ dim: 0, keepdim: true }], layout: reads([0]) },
  { op: 'median', layout: reads([0, 1], false), input: DISTINCT },
  { op: 'median', args: [0], layout: reads([0], false), input: DISTINCT },
  { op: 'median', args: [1, true], layout: reads([1]), input: DISTINCT },
  { op: 'sort', args: [0, true], layout: reads([0]), input: DISTINCT },
  { op: 'argsort', args: [{ dim: 1 }], layout: reads([1]), input: DISTINCT, grad: false },
  { op: 'topk', args: [2, 1], layout: reads([1]), input: DISTINCT },
  { op: 'logsumexp', args: [1], layout: reads([1], false) },
  { op: 'kthvalue', args: [3, 0], layout: reads([0], false), input: DISTINCT },
  { op: 'mode', args: [{ keepdim: true }], layout: reads([1]), input: map(X, Math.round) },
  { op: 'nanmedian', args: [0], layout: reads([0], false), input: DISTINCT },
  // views: shards kept where PyTorch's view rules keep them (dtensor-view-ops.test.ts checks those against PyTorch)
  { op: 'reshape', args: [-1], layout: flattened },
  { op: 'unsqueeze', args: [1], layout: unsqueezed1 },
  { op: 'narrow', args: [0, 2, 5], layout: narrowed0 },
  // no rule: computed whole on every chip
  { op: 'flip', args: [0], layout: replicate },
  { op: 'diagonal', args: [1], layout: replicate },
  { op: 'trace', layout: replicate },
  { op: 'tril', layout: replicate },
  { op: 'diff', args: [{ dim: 0 }], layout: replicate },
  { op: 'gather', args: [1, operand('index')], layout: replicate },
  { op: 'take', args: [operand('flat')], layout: replicate },
  { op: 'scatterAdd', args: [1, operand('index'), operand('y')], layout: replicate },
  { op: 'maskedSelect', args: [operand('mask')], layout: replicate },
  { op: 'split', args: [[4, 2], 1], layout: replicate },
  { op: 'unbind', args: [1], layout: replicate },
  { op: 'nonzero', layout: replicate, grad: false },
  { op: 'quantile', args: [0.25, 1], layout: replicate },
  { op: 'unique', args: [{ returnCounts: true }], layout: replicate, grad: false, input: map(X, Math.round) },
  // composed of other DTensor methods
  { op: 't', layout: (ps) => ps.map((p) => (p.kind === 'shard' ? tpu.Shard(1 - p.dim) : p)) },
  { op: 'swapaxes', args: [0, 1], layout: (ps) => ps.map((p) => (p.kind === 'shard' ? tpu.Shard(1 - p.dim) : p)) },
  { op: 'float', layout: kept },
  // tpu's functions: elementwise ones by the pointwise rule, one named as a method by the method, the rest replicated
  { op: 'F.leakyRelu', fn: F.leakyRelu, args: [{ negativeSlope: 0.2 }], layout: kept },
  { op: 'F.elu', fn: F.elu, layout: kept },
  { op: 'F.softplus', fn: F.softplus, args: [{ beta: 2 }], layout: kept },
  { op: 'F.hardtanh', fn: F.hardtanh, layout: kept },
  { op: 'F.mish', fn: F.mish, layout: kept },
  { op: 'tpu.pow', fn: (x: Value) => tpu.pow(2, x as Tensor), layout: kept },
  { op: 'tpu.where', fn: (x: Value, c: Value, y: Value) => tpu.where(c as Tensor, x as Tensor, y as Tensor), args: [operand('mask'), operand('y')], layout: kept },
  { op: 'tpu.median', fn: tpu.median, args: [1], layout: reads([1], false), input: DISTINCT },
  { op: 'F.l1Loss', fn: F.l1Loss, args: [operand('y')], layout: replicate },
  { op: 'F.smoothL1Loss', fn: F.smoothL1Loss, args: [operand('y'), { beta: 2 }], layout: replicate },
  { op: 'F.mseLoss', fn: F.mseLoss, args: [operand('y'), { reduction: 'sum' }], layout: replicate },
  { op: 'F.softmin', fn: F.softmin, args: [1], layout: replicate },
  { op: 'tpu.concat', fn: (x: Value, y: Value) => tpu.concat([x as Tensor, y as Tensor], 1), args: [operand('y')], layout: replicate },
];

type Value = Tensor | DTensor;
const call = (c: OpCase, x: unknown, args: unknown[]): unknown => (c.fn ? (c.fn as (...a: unknown[]) => unknown)(x, ...args) : (x as Record<string, (...a: unknown[]) => unknown>)[c.op]!(...args));

/** The result's tensors (a pair's two, a list's elements). */
function outputs(r: unknown): Value[] {
  if (Array.isArray(r)) return r as Value[];
  if (r !== null && typeof r === 'object' && 'values' in r && 'indices' in r) return [r.values as Value, r.indices as Value];
  return [r as Value];
}

const placementsOf = (ps: readonly Placement[]) => `[${ps.map(String).join(', ')}]`;
const isFloat = (t: { dtype: string }) => t.dtype === 'float32' || t.dtype === 'bfloat16';

/** A fixed weight per output element, so each element's gradient differs. */
const weights = (t: Value) => tpu.tensor(Array.from({ length: t.shape.reduce((a, b) => a * b, 1) }, (_, i) => 1 + (i % 5) / 4)).reshape([...t.shape]);

function run(c: OpCase, x: Value, args: unknown[]): { outs: Value[]; loss: Tensor | null } {
  const outs = outputs(call(c, x, args));
  const terms = outs.filter(isFloat).map((o) => {
    const full = 'fullTensor' in o ? o.fullTensor() : o;
    return full.mul(weights(full)).sum();
  });
  return { outs, loss: c.grad === false || terms.length === 0 ? null : terms.reduce((a, b) => a.add(b)) };
}

/** Registers each case on `mesh` with each of `layouts`, in every mode. */
export function describeListedOps(mesh: DeviceMesh, layouts: readonly Placement[][]): void {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    describe(`DTensor ops from the lists on ${mesh} in ${mode} mode`, () => {
      for (const c of CASES) {
        const title = `${c.op}(${JSON.stringify(c.args ?? []).slice(1, -1)})`;
        it(`${title}: the full tensor's value and gradient, placements by its group's rule`, () => tpu.withMode(mode, () => {
          const input = c.input ?? X;
          for (const ps of layouts) {
            const plainLeaf = tpu.tensor(input.data).reshape(input.shape).requiresGrad_();
            const leaf = tpu.tensor(input.data).reshape(input.shape).requiresGrad_();
            const dt = tpu.distributeTensor(leaf, mesh, ps);
            const plainArgs = (c.args ?? []).map((a) => (typeof a === 'object' && 'operand' in a ? OPERANDS[a.operand as OperandName]() : a));
            // an operand of the input's rank sharded as the input, others replicated
            const distArgs = plainArgs.map((a) => (a instanceof Object && 'shape' in a ? tpu.distributeTensor(a as Tensor, mesh, ps.map((p) => (p.kind === 'shard' && (a as Tensor).ndim === input.shape.length ? p : R))) : a));
            const want = run(c, plainLeaf, plainArgs);
            const got = run(c, dt, distArgs);
            expect(got.outs.length, `${title} on ${placementsOf(ps)}: outputs`).toBe(want.outs.length);
            got.outs.forEach((o, k) => {
              const w = want.outs[k] as Tensor;
              const d = o as DTensor;
              const what = `${title} on ${placementsOf(ps)}, output ${k}`;
              expect(placementsOf(d.placements), what).toBe(placementsOf(c.layout(ps, mesh)));
              expect([d.dtype, d.shape], what).toEqual([w.dtype, w.shape]);
              expectClose(host(d.fullTensor()), host(w), 1e-5);
            });
            if (want.loss === null) continue;
            want.loss.backward();
            got.loss!.backward();
            const grad = dt.grad!;
            expect(placementsOf(grad.placements), `${title} on ${placementsOf(ps)}: the gradient's placements`).toBe(placementsOf(ps));
            expectClose(host(grad.fullTensor()), host(plainLeaf.grad!), 1e-4);
          }
        }));
      }
    });
  }
}
