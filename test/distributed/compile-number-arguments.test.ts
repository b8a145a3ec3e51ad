// A number argument of a tpu.compile function given to a collective (dim, splitDim, concatDim,
// src, shift), a placement (tpu.Shard(d)), a mesh shape, a chip, a DTensor op (topk's k, an
// operand) or clipGradNorm_ over DTensor parameters, on 4 chips: each value called a, b, a, b
// on one compiled function, in debug, strict and fused mode, against values computed here by
// hand; a dim, src, shift or shape is specialized (one trace per value), an operand or
// maxNorm stays a program input (one trace in all). Before, each was refused ("src must be a
// rank in [0, 4) of each group; got 2").
import { describe, expect, it } from 'vitest';
import { mesh } from '../support/meshes.js';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { distributed } = tpu;
const MODES = ['debug', 'strict', 'fused'] as const;

/** Chip c's [4, 4] tensor: 10c + 4i + j. */
const localValue = (c: number, i: number, j: number) => 10 * c + 4 * i + j;
const locals = () => [0, 1, 2, 3].map((c) => tpu.tensor(Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (_, j) => localValue(c, i, j))), { chip: c }));
/** [4, 4]: 4i + j */
const whole = () => tpu.arange(16).float().reshape([4, 4]);
const grid = (rows: number, cols: number, f: (i: number, j: number) => number) => Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => f(i, j)));

interface Case {
  readonly name: string;
  readonly values: readonly [number, number];
  readonly js: (v: number) => Tensor | Tensor[];
  /** Each resulting tensor's chip and values, for the value v. */
  readonly want: (v: number) => { chip: number; values: unknown }[];
  /** A program input: one trace for every value. */
  readonly fed?: boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'allGather({ dim })', values: [0, 1],
    js: (d) => distributed.allGather(locals(), { dim: d, mesh }),
    // rows (dim 0) or columns (dim 1) of chip 0, 1, 2, 3 in turn
    want: (d) => [0, 1, 2, 3].map((chip) => ({ chip, values: d === 0 ? grid(16, 4, (i, j) => localValue(i >> 2, i & 3, j)) : grid(4, 16, (i, j) => localValue(j >> 2, i, j & 3)) })),
  },
  {
    name: 'reduceScatter({ dim })', values: [0, 1],
    js: (d) => distributed.reduceScatter(locals(), { dim: d, mesh }),
    // Σ_c (10c + 4i + j) = 60 + 16i + 4j; chip r keeps row r (dim 0) or column r (dim 1)
    want: (d) => [0, 1, 2, 3].map((r) => ({ chip: r, values: d === 0 ? grid(1, 4, (_, j) => 60 + 16 * r + 4 * j) : grid(4, 1, (i) => 60 + 16 * i + 4 * r) })),
  },
  {
    name: 'allToAll({ splitDim, concatDim })', values: [0, 1],
    js: (d) => distributed.allToAll(locals(), { splitDim: d, concatDim: d, mesh }),
    // chip k gets part k of every chip: row k of chip r as its row r (dim 0), column k as its column r (dim 1)
    want: (d) => [0, 1, 2, 3].map((k) => ({ chip: k, values: d === 0 ? grid(4, 4, (r, j) => localValue(r, k, j)) : grid(4, 4, (i, r) => localValue(r, i, k)) })),
  },
  {
    name: 'broadcast({ src })', values: [1, 3],
    js: (src) => distributed.broadcast(locals(), { src, mesh }),
    want: (src) => [0, 1, 2, 3].map((chip) => ({ chip, values: grid(4, 4, (i, j) => localValue(src, i, j)) })),
  },
  {
    name: 'permute({ shift })', values: [1, 2],
    js: (shift) => distributed.permute(locals(), { shift, mesh }),
    want: (shift) => [0, 1, 2, 3].map((k) => ({ chip: k, values: grid(4, 4, (i, j) => localValue((k - shift + 4) % 4, i, j)) })),
  },
  {
    name: 'tpu.Shard(d)', values: [0, 1],
    js: (d) => tpu.distributeTensor(whole(), mesh, [tpu.Shard(d)]).toLocal(),
    want: (d) => [0, 1, 2, 3].map((r) => ({ chip: r, values: d === 0 ? grid(1, 4, (_, j) => 4 * r + j) : grid(4, 1, (i) => 4 * i + r) })),
  },
  {
    name: 'tpu.initDeviceMesh([n, 4 / n])', values: [2, 4],
    js: (n) => tpu.distributeTensor(whole(), tpu.initDeviceMesh([n, 4 / n]), [tpu.Shard(0), tpu.Shard(1)]).toLocal(),
    // chip k = (a, b) of the mesh holds rows a·R .. and columns b·C .. (R = 4 / n rows, C = n columns)
    want: (n) => [0, 1, 2, 3].map((k) => {
      const [rows, cols, a, b] = [4 / n, n, Math.floor(k / (4 / n)), k % (4 / n)];
      return { chip: k, values: grid(rows, cols, (i, j) => 4 * (a * rows + i) + b * cols + j) };
    }),
  },
  {
    name: 'DTensor.topk(k)', values: [1, 2],
    js: (k) => tpu.distributeTensor(whole(), mesh, [tpu.Shard(0)]).topk(k).values.fullTensor(),
    want: (k) => [{ chip: 0, values: grid(4, k, (i, j) => 4 * i + 3 - j) }],
  },
  {
    name: 'DTensor.mul(v)', values: [0.5, 2.5], fed: true,
    js: (v) => tpu.distributeTensor(whole(), mesh, [tpu.Shard(0)]).mul(v).toLocal(),
    want: (v) => [0, 1, 2, 3].map((r) => ({ chip: r, values: grid(1, 4, (_, j) => (4 * r + j) * v) })),
  },
  {
    name: 'clipGradNorm_(DTensor parameters, maxNorm)', values: [10.5, 100.5], fed: true,
    js: (m) => {
      const p = tpu.distributeTensor(whole(), mesh, [tpu.Shard(0)]).requiresGrad_();
      p.mul(p).sum().backward();
      tpu.nn.utils.clipGradNorm_([p], m);
      return p.grad!.toLocal();
    },
    // the gradient 2p, scaled by min(maxNorm / (‖2p‖ + 1e-6), 1); ‖p‖² = Σ k² for k < 16 = 1240
    want: (m) => {
      const scale = Math.min(m / (2 * Math.sqrt(1240) + 1e-6), 1);
      return [0, 1, 2, 3].map((r) => ({ chip: r, values: grid(1, 4, (_, j) => 2 * (4 * r + j) * scale) }));
    },
  },
  { name: 'x.toChip(c)', values: [1, 3], js: (c) => whole().toChip(c), want: (c) => [{ chip: c, values: grid(4, 4, (i, j) => 4 * i + j) }] },
  { name: 'tpu.full([2], 7, { chip })', values: [1, 2], js: (c) => tpu.full([2], 7, { chip: c }), want: (c) => [{ chip: c, values: [7, 7] }] },
];

const listed = (o: Tensor | Tensor[]) => (Array.isArray(o) ? o : [o]);

function expectValues(got: Tensor | Tensor[], want: { chip: number; values: unknown }[], what: string): void {
  const ts = listed(got);
  expect(ts.map((t) => t.chip), `${what}: chips`).toEqual(want.map((w) => w.chip));
  ts.forEach((t, k) => {
    const flat = (v: unknown): number[] => (Array.isArray(v) ? v.flatMap(flat) : [v as number]);
    const [g, w] = [flat(t.tolist()), flat(want[k]!.values)];
    expect(t.shape, `${what}: shape of piece ${k}`).toEqual(((v: unknown): number[] => { const s: number[] = []; for (let x = v; Array.isArray(x); x = x[0]) s.push(x.length); return s; })(want[k]!.values));
    g.forEach((x, i) => expect(Math.abs(x - w[i]!), `${what}: piece ${k}, element ${i}: ${x} against ${w[i]}`).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(w[i]!))));
  });
}

for (const mode of MODES) {
  describe(`a number argument of a compiled function on 4 chips, in ${mode} mode`, () => {
    it.each(CASES)('$name: each value as by hand, eagerly and compiled (a, b, a, b)', (c) => tpu.withMode(mode, () => {
      const f = tpu.compile((v: number) => c.js(v), { name: c.name });
      const [a, b] = c.values;
      for (const v of [a, b, a, b]) {
        expectValues(c.js(v), c.want(v), `${c.name} with ${v}, eagerly`);
        expectValues(f(v), c.want(v), `${c.name} with ${v}, compiled`);
      }
      expect(f.stats().traces).toBe(c.fed ? 1 : 2);
    }));
  });
}
