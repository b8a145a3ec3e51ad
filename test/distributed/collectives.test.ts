// tpu.distributed collectives on 4 emulated chips against float64 references computed here,
// on uneven shards, in every mode (debug, strict, fused, inside tpu.compile).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
const mesh2d = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });

/** Deterministic values: chip c, element i. */
const values = (c: number, n: number) => Array.from({ length: n }, (_, i) => Math.round(((c + 1) * 7.31 + i * 3.17) % 11 * 100) / 100 - 5);
const local = (c: number, shape: number[]) => tpu.tensor(values(c, shape.reduce((a, b) => a * b, 1)), { chip: c }).reshape(shape);
const host = (t: Tensor) => Array.from(t.dataSync() as Float32Array);

/** Rows [a, b) of a row-major [rows, cols] array. */
const rows = (v: number[], cols: number, a: number, b: number) => v.slice(a * cols, b * cols);
const chunkSizes = (n: number, k: number) => {
  const c = Math.ceil(n / k);
  return Array.from({ length: k }, (_, i) => Math.max(0, Math.min(c, n - i * c)));
};

type Run = (f: (...xs: Tensor[]) => Tensor[], xs: Tensor[]) => Tensor[];
const MODES: Record<string, Run> = {
  debug: (f, xs) => tpu.withMode('debug', () => f(...xs)),
  strict: (f, xs) => tpu.withMode('strict', () => f(...xs)),
  fused: (f, xs) => tpu.withMode('fused', () => f(...xs)),
  'tpu.compile': (f, xs) => tpu.withMode('strict', () => tpu.compile(f)(...xs)),
};

function expectClose(got: number[], want: number[], tol = 1e-5): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want[i]!))));
}

for (const [mode, run] of Object.entries(MODES)) {
  describe(`collectives in ${mode}`, () => {
    it('allReduce sum, mean, max, min', () => {
      const xs = [0, 1, 2, 3].map((c) => local(c, [3, 5]));
      const v = [0, 1, 2, 3].map((c) => values(c, 15));
      const ref = {
        sum: v[0]!.map((_, i) => v.reduce((s, x) => s + x[i]!, 0)),
        mean: v[0]!.map((_, i) => v.reduce((s, x) => s + x[i]!, 0) / 4),
        max: v[0]!.map((_, i) => Math.max(...v.map((x) => x[i]!))),
        min: v[0]!.map((_, i) => Math.min(...v.map((x) => x[i]!))),
      };
      for (const op of ['sum', 'mean', 'max', 'min'] as const) {
        const out = run((...a) => tpu.distributed.allReduce(a, { op, mesh }), xs);
        expect(out.map((t) => t.chip)).toEqual([0, 1, 2, 3]);
        for (const t of out) expectClose(host(t), ref[op]);
      }
    });

    it('allReduce and reduceScatter product; int32 products wrap', () => {
      const xs = [0, 1, 2, 3].map((c) => local(c, [8, 2]));
      const v = [0, 1, 2, 3].map((c) => values(c, 16));
      const product = v[0]!.map((_, i) => v.reduce((p, x) => p * x[i]!, 1));
      for (const t of run((...a) => tpu.distributed.allReduce(a, { op: 'product', mesh }), xs)) expectClose(host(t), product);
      run((...a) => tpu.distributed.reduceScatter(a, { op: 'product', dim: 0, mesh }), xs).forEach((t, r) => {
        expect(t.shape).toEqual([2, 2]);
        expectClose(host(t), rows(product, 2, 2 * r, 2 * r + 2));
      });
      // 2^16 on every chip: 2^64 wraps to 0; 1·2·3·4 = 24
      const xi = [0, 1, 2, 3].map((c) => tpu.tensor(new Int32Array([2 ** 16, c + 1]), { chip: c }));
      expect(Array.from(run((...a) => tpu.distributed.allReduce(a, { op: 'product', mesh }), xi)[2]!.dataSync(), Number)).toEqual([0, 24]);
    });

    it("bool tensors: 'sum' and 'max' are a logical or, 'product' and 'min' a logical and", () => {
      // per element: true on every chip; false on chip 2 only; true on chip 1 only; false everywhere
      const xs = [0, 1, 2, 3].map((c) => tpu.tensor([1, c === 2 ? 0 : 1, c === 1 ? 1 : 0, 0], { chip: c, dtype: 'bool' }));
      const or = [1, 1, 1, 0];
      const and = [1, 0, 0, 0];
      for (const [op, want] of [['sum', or], ['max', or], ['product', and], ['min', and]] as const) {
        const out = run((...a) => tpu.distributed.allReduce(a, { op, mesh }), xs);
        for (const t of out) {
          expect(t.dtype).toBe('bool');
          expect(Array.from(t.dataSync(), Number)).toEqual(want);
        }
      }
      const scattered = run((...a) => tpu.distributed.reduceScatter(a, { dim: 0, mesh }), xs);
      expect(scattered.map((t) => Array.from(t.dataSync(), Number))).toEqual(or.map((v) => [v]));
    });

    it('allGather of uneven shards (10 rows on 4 chips as torch.chunk)', () => {
      const sizes = chunkSizes(10, 4); // 3, 3, 3, 1
      const xs = sizes.map((n, c) => local(c, [n, 2]));
      const want = sizes.flatMap((n, c) => values(c, n * 2));
      const out = run((...a) => tpu.distributed.allGather(a, { dim: 0, mesh }), xs);
      for (const t of out) {
        expect(t.shape).toEqual([10, 2]);
        expectClose(host(t), want);
      }
    });

    it('reduceScatter sum and mean with uneven chunks', () => {
      const xs = [0, 1, 2, 3].map((c) => local(c, [10, 2]));
      const sum = values(0, 20).map((_, i) => [0, 1, 2, 3].reduce((s, c) => s + values(c, 20)[i]!, 0));
      const sizes = chunkSizes(10, 4);
      const starts = sizes.map((_, k) => sizes.slice(0, k).reduce((a, b) => a + b, 0));
      for (const op of ['sum', 'mean'] as const) {
        const out = run((...a) => tpu.distributed.reduceScatter(a, { op, dim: 0, mesh }), xs);
        out.forEach((t, r) => {
          expect(t.shape).toEqual([sizes[r], 2]);
          expectClose(host(t), rows(sum, 2, starts[r]!, starts[r]! + sizes[r]!).map((x) => (op === 'mean' ? x / 4 : x)));
        });
      }
    });

    it('allToAll: piece k of every chip goes to chip k, joined along concatDim', () => {
      const xs = [0, 1, 2, 3].map((c) => local(c, [8, 3]));
      const out = run((...a) => tpu.distributed.allToAll(a, { splitDim: 0, concatDim: 1, mesh }), xs);
      out.forEach((t, r) => {
        expect(t.shape).toEqual([2, 12]);
        // Row i of the result: row 2r + i of chip 0, 1, 2, 3 side by side.
        const want = [0, 1].flatMap((i) => [0, 1, 2, 3].flatMap((c) => rows(values(c, 24), 3, 2 * r + i, 2 * r + i + 1)));
        expectClose(host(t), want);
      });
    });

    it('broadcast from rank 2 and a ring permute both ways', () => {
      const xs = [0, 1, 2, 3].map((c) => local(c, [4]));
      for (const t of run((...a) => tpu.distributed.broadcast(a, { src: 2, mesh }), xs)) expectClose(host(t), values(2, 4));
      run((...a) => tpu.distributed.permute(a, { shift: 1, mesh }), xs).forEach((t, r) => expectClose(host(t), values((r + 3) % 4, 4)));
      run((...a) => tpu.distributed.permute(a, { shift: -1, mesh }), xs).forEach((t, r) => expectClose(host(t), values((r + 1) % 4, 4)));
    });

    it('along a mesh axis: tp groups [0, 1] and [2, 3], dp groups [0, 2] and [1, 3]', () => {
      const xs = [0, 1, 2, 3].map((c) => local(c, [5]));
      const pairSum = (a: number, b: number) => values(a, 5).map((x, i) => x + values(b, 5)[i]!);
      const tp = run((...a) => tpu.distributed.allReduce(a, { mesh: mesh2d, axis: 'tp' }), xs);
      [pairSum(0, 1), pairSum(0, 1), pairSum(2, 3), pairSum(2, 3)].forEach((w, c) => expectClose(host(tp[c]!), w));
      const dp = run((...a) => tpu.distributed.allGather(a, { mesh: mesh2d.get('dp'), dim: 0 }), xs);
      [[0, 2], [1, 3], [0, 2], [1, 3]].forEach(([a, b], c) => expectClose(host(dp[c]!), [...values(a!, 5), ...values(b!, 5)]));
    });

    it('bfloat16 sums and products round once, int32 sums are exact', () => {
      const xb = [0, 1, 2, 3].map((c) => tpu.tensor([1 / 3, 100 + c], { chip: c, dtype: 'bfloat16' }));
      const b = run((...a) => tpu.distributed.allReduce(a, { mesh }), xb);
      // float32 sum of the bf16 inputs, rounded to bf16 once: 4 × 0.333984375 = 1.3359375; 406 (exact in bf16).
      expect(host(b[3]!)).toEqual([1.3359375, 406]);
      // 0.333984375^4 = 0.01244… rounds to 0.012451171875 (rounded at each step: 0.01239013671875);
      // 100·101·102·103 = 106110600 (exact in float32) rounds to 105906176
      const p = run((...a) => tpu.distributed.allReduce(a, { mesh, op: 'product' }), xb);
      expect(host(p[1]!)).toEqual([0.012451171875, 105906176]);
      const xi = [0, 1, 2, 3].map((c) => tpu.tensor(new Int32Array([2 ** 30, c]), { chip: c }));
      const i = run((...a) => tpu.distributed.allReduce(a, { mesh, op: 'max' }), xi);
      expect(Array.from(i[0]!.dataSync())).toEqual([2 ** 30, 3]);
    });
  });
}

describe('a chip whose input failed', () => {
  for (const mode of ['strict', 'fused'] as const) {
    it(`its peers fail at once naming it, and the interconnect stays in step (${mode})`, () => {
      tpu.withMode(mode, () => {
        const ints = [0, 1, 2, 3].map((c) => tpu.tensor(new Int32Array([4, 8]), { chip: c }));
        // Chip 1 divides by a zero computed on the device: its value fails there.
        const zero = ints[1]!.sub(ints[1]!);
        const inputs = ints.map((x, c) => (c === 1 ? x.fmod(zero) : x));
        const sums = tpu.distributed.allReduce(inputs, { mesh });
        const t0 = Date.now();
        sums.forEach((s, c) => expect(() => s.dataSync()).toThrow(c === 1 ? /fmod/ : 'all_reduce: not run, an earlier error on chip 1: Non-zero status'));
        expect(Date.now() - t0).toBeLessThan(30_000); // not the interconnect's 60 s timeout
        const again = tpu.distributed.allReduce(ints, { mesh });
        expect(Array.from(again[2]!.dataSync())).toEqual([16, 32]);
      });
    });
  }
});

describe('tpu.compile over several chips', () => {
  it('traces once, then replays one program per chip with new inputs', () => {
    const f = tpu.compile((...xs: Tensor[]) => {
      const summed = tpu.distributed.allReduce(xs.map((x) => x.mul(2)), { mesh });
      return [summed[0]!.add(summed[3]!.toChip(0)), summed[2]!];
    });
    for (let call = 0; call < 3; call++) {
      const xs = [0, 1, 2, 3].map((c) => tpu.tensor([c + call, 1], { chip: c }));
      const [a, b] = f(...xs);
      const sum = 2 * (6 + 4 * call);
      expect([a!.chip, b!.chip]).toEqual([0, 2]);
      expect(host(a!)).toEqual([2 * sum, 16]);
      expect(host(b!)).toEqual([sum, 8]);
    }
    expect(f.stats().traces).toBe(1);
    expect(f.stats().calls).toBe(3);
  });

  it('a data-parallel SGD step (grads all-reduced) replays and matches one chip on the global batch', () => {
    const w0 = [[0.5, -1], [2, 0.25], [-0.75, 1.5]];
    const ps = [0, 1, 2, 3].map((chip) => tpu.tensor(w0, { chip, requiresGrad: true }));
    const opts = ps.map((p) => new tpu.optim.SGD([p], { lr: 0.1 }));
    const step = tpu.compile((...xs: Tensor[]) => {
      opts.forEach((o) => o.zeroGrad());
      const losses = xs.map((x, c) => x.matmul(ps[c]!).square().mean());
      losses.forEach((l) => l.backward());
      const grads = tpu.distributed.allReduce(ps.map((p) => p.grad!), { mesh, op: 'mean' });
      ps.forEach((p, c) => void (p.grad = grads[c]!));
      opts.forEach((o) => o.step());
      return tpu.distributed.allReduce(losses.map((l) => l.detach()), { mesh, op: 'mean' })[0]!;
    });
    const q = tpu.tensor(w0, { requiresGrad: true });
    const optQ = new tpu.optim.SGD([q], { lr: 0.1 });
    for (let i = 0; i < 3; i++) {
      const xs = [0, 1, 2, 3].map((c) => tpu.tensor(values(c + 4 * i, 15), { chip: c }).reshape([5, 3]));
      const loss = step(...xs).item();
      optQ.zeroGrad();
      const lq = tpu.concat(xs.map((x) => x.toChip(0)), 0).matmul(q).square().mean();
      lq.backward();
      optQ.step();
      expectClose([loss], [lq.item()]);
      ps.forEach((p) => expectClose(host(p.toChip(0)), host(q)));
    }
    expect(step.stats().traces).toBe(1);
  });
});

describe('moving tensors between chips', () => {
  it('toChip copies in every mode; an op mixing chips names both', () => {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.withMode(mode, () => {
        const x = tpu.tensor([1, 2, 3], { chip: 1 });
        const y = x.mul(2).toChip(3);
        expect(y.chip).toBe(3);
        expect(y.device).toBe('tpu:3');
        expect(host(y.add(tpu.ones([3], { chip: 3 })))).toEqual([3, 5, 7]);
        expect(x.toChip(1)).toBe(x);
        expect(() => x.add(y)).toThrow('add: expected all tensors to be on the same chip, but input is on chip 1 (tpu:1) and other is on chip 3 (tpu:3)');
      });
    }
  });

  it('composed ops and like-creation stay on their chip', () => {
    const x = tpu.tensor([[1, 2], [3, 4]], { chip: 2 });
    expect(tpu.zerosLike(x).chip).toBe(2);
    const s = x.softmax(-1);
    expect(s.chip).toBe(2);
    const e = Math.exp(1);
    expectClose(host(s), [1 / (1 + e), e / (1 + e), 1 / (1 + e), e / (1 + e)]);
    expect(host(x.var())).toEqual([1.6666666269302368]);
  });
});

describe('gradients of collectives (hand-computed)', () => {
  const leaves = (shape: number[]) => [0, 1, 2, 3].map((c) => local(c, shape).detach().requiresGrad_());
  const coeffs = (shape: number[]) => [0, 1, 2, 3].map((c) => tpu.tensor(values(c + 10, shape.reduce((a, b) => a * b, 1)), { chip: c }).reshape(shape));
  /** Σ_c (y_c · w_c).sum(), gathered on chip 0. */
  const total = (ys: Tensor[], ws: Tensor[]) => ys.map((y, c) => y.mul(ws[c]!).sum().toChip(0)).reduce((a, b) => a.add(b));

  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`allReduce sum: every x_j gets Σ_c w_c (${mode})`, () => {
      tpu.withMode(mode, () => {
        const xs = leaves([3]);
        const ws = coeffs([3]);
        total(tpu.distributed.allReduce(xs, { mesh }), ws).backward();
        const want = [0, 1, 2].map((i) => [0, 1, 2, 3].reduce((s, c) => s + values(c + 10, 3)[i]!, 0));
        xs.forEach((x) => expectClose(host(x.grad!), want));
        expect(xs.map((x) => x.grad!.chip)).toEqual([0, 1, 2, 3]);
      });
    });
  }

  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`allReduce product: x_j gets Σ_c w_c · the other chips' product, exact at zeros (${mode})`, () => {
      tpu.withMode(mode, () => {
        // element 0: no zero; element 1: a zero on chip 2; element 2: zeros on chips 0 and 3
        const v = [[1.5, 2, 0], [-2, 0.5, 3], [0.5, 0, 2], [3, 4, 0]];
        const xs = v.map((row, c) => tpu.tensor(row, { chip: c, requiresGrad: true }));
        const ws = coeffs([3]);
        total(tpu.distributed.allReduce(xs, { mesh, op: 'product' }), ws).backward();
        const wsum = [0, 1, 2].map((i) => [0, 1, 2, 3].reduce((s, c) => s + values(c + 10, 3)[i]!, 0));
        xs.forEach((x, j) => {
          const others = [0, 1, 2].map((i) => v.reduce((p, row, c) => (c === j ? p : p * row[i]!), 1));
          expectClose(host(x.grad!), others.map((o, i) => wsum[i]! * o));
        });
        // reduceScatter product: the chunk's weight times the other chips' product
        const full = leaves([4]);
        const parts = coeffs([4]).map((w, c) => w.narrow(0, c, 1));
        total(tpu.distributed.reduceScatter(full, { mesh, dim: 0, op: 'product' }), parts).backward();
        full.forEach((x, j) => {
          const others = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].reduce((p, c) => (c === j ? p : p * values(c, 4)[i]!), 1));
          expectClose(host(x.grad!), others.map((o, i) => values(i + 10, 4)[i]! * o));
        });
      });
    });
  }

  it('allGather: x_j gets the rows j of Σ_c w_c; reduceScatter: x_j gets every w_c in its chunk', () => {
    const sizes = chunkSizes(6, 4); // 2, 2, 2, 0
    const xs = sizes.map((n, c) => local(c, [n, 2]).detach().requiresGrad_());
    const ws = coeffs([6, 2]);
    total(tpu.distributed.allGather(xs, { mesh, dim: 0 }), ws).backward();
    const sum = values(10, 12).map((_, i) => [0, 1, 2, 3].reduce((s, c) => s + values(c + 10, 12)[i]!, 0));
    xs.forEach((x, j) => expectClose(host(x.grad!), rows(sum, 2, 2 * j, 2 * j + sizes[j]!)));

    const full = leaves([6, 2]);
    const parts = coeffs([6, 2]).map((w, c) => w.narrow(0, Math.min(2 * c, 6), sizes[c]!));
    total(tpu.distributed.reduceScatter(full, { mesh, dim: 0 }), parts).backward();
    const want = [0, 1, 2, 3].flatMap((c) => rows(values(c + 10, 12), 2, 2 * c, 2 * c + sizes[c]!));
    full.forEach((x) => expectClose(host(x.grad!), want));
  });

  it('only chip 0 result used: the other chips still take part, with zero gradients', () => {
    const xs = leaves([2]);
    tpu.distributed.allReduce(xs, { mesh, op: 'mean' })[0]!.mul(tpu.tensor([3, 5])).sum().backward();
    xs.forEach((x) => expectClose(host(x.grad!), [0.75, 1.25]));
  });

  it('permute and broadcast send gradients back along the ring and to the source', () => {
    const xs = leaves([2]);
    const ws = coeffs([2]);
    total(tpu.distributed.permute(xs, { mesh, shift: 1 }), ws).backward();
    xs.forEach((x, j) => expectClose(host(x.grad!), values((j + 1) % 4 + 10, 2)));
    const ys = leaves([2]);
    total(tpu.distributed.broadcast(ys, { mesh, src: 1 }), ws).backward();
    const sum = [0, 1].map((i) => [0, 1, 2, 3].reduce((s, c) => s + values(c + 10, 2)[i]!, 0));
    ys.forEach((y, j) => expectClose(host(y.grad!), j === 1 ? sum : [0, 0]));
  });

  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`a tensor used on its chip and copied to two others gets the three gradients summed (${mode})`, () => {
      tpu.withMode(mode, () => {
        const w = tpu.tensor([1, 2, 3], { requiresGrad: true });
        tpu.concat([w.mul(w), w.toChip(1).mul(2).toChip(0), w.toChip(2).mul(3).toChip(0)]).sum().backward();
        expect(host(w.grad!)).toEqual([2 * 1 + 5, 2 * 2 + 5, 2 * 3 + 5]);
      });
    });
  }

  it('toChip passes the gradient back to the source chip', () => {
    const x = tpu.tensor([1, 2], { chip: 2, requiresGrad: true });
    x.toChip(0).mul(tpu.tensor([4, 6])).sum().backward();
    expect(x.grad!.chip).toBe(2);
    expect(host(x.grad!)).toEqual([4, 6]);
  });
});
