// Fused regions are recognised by structure (program/region-key.ts) before a signature string
// is built: regions alike hit their program without a compile, and regions that differ only in
// an attribute, the order of operands, an input shape or dtype, or which values are written out
// each get a program of their own, with their own values (references computed here in float64).
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

/** A [rows, cols] matrix of i * cols + j + 1, as nested arrays and as a tensor. */
function counting(rows: number, cols: number, dtype: 'float32' | 'int32' = 'float32') {
  const a = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => i * cols + j + 1));
  return { a, t: tpu.tensor(a, { dtype }) };
}

const compiles = () => tpu.stats().programsCompiled;

describe('fused regions recognised by structure', () => {
  it('a region alike hits its program; one differing in an attribute gets its own', async () => {
    tpu.mode('fused');
    const { a, t } = counting(3, 3);
    // sum over dim 0 and dim 1 of (x * 2 + 1): the same ops, only the attribute differs.
    const run = (dim: number) => t.mul(2).add(1).sum(dim).array() as Promise<number[]>;
    const ref = (dim: number) => [0, 1, 2].map((k) => [0, 1, 2].reduce((s, m) => s + 2 * (dim === 0 ? a[m]![k]! : a[k]![m]!) + 1, 0));
    expect(await run(0)).toEqual(ref(0));
    const before = compiles();
    expect(await run(0)).toEqual(ref(0));
    expect(compiles()).toBe(before); // alike: a hit
    expect(await run(1)).toEqual(ref(1));
    expect(compiles()).toBe(before + 1);
    expect(await run(0)).toEqual(ref(0));
    expect(await run(1)).toEqual(ref(1));
    expect(compiles()).toBe(before + 1);
  });

  it('operand order, input shape and dtype, and the outputs each make a program of their own', async () => {
    tpu.mode('fused');
    const { a: xa, t: x } = counting(2, 4);
    const { a: ya, t: y } = counting(2, 4);
    const y3 = y.mul(3);
    const y3a = ya.map((r) => r.map((v) => 3 * v));
    await tpu.sync();
    const sub = (p: number[][], q: number[][]) => p.map((r, i) => r.map((v, j) => (v - q[i]![j]!) * 2));
    expect(await x.sub(y3).mul(2).array()).toEqual(sub(xa, y3a));
    const before = compiles();
    // Operands numbered as first read, so this is the same program with its inputs swapped...
    expect(await y3.sub(x).mul(2).array()).toEqual(sub(y3a, xa));
    expect(compiles()).toBe(before);
    // ...and this one reads another operand at the end: a program of its own.
    const prod = (p: number[][], q: number[][], r: number[][]) => p.map((row, i) => row.map((v, k) => (v - q[i]![k]!) * r[i]![k]!));
    expect(await x.sub(y3).mul(x).array()).toEqual(prod(xa, y3a, xa));
    expect(await x.sub(y3).mul(y3).array()).toEqual(prod(xa, y3a, y3a));
    expect(compiles()).toBe(before + 2);
    const { a: wa, t: w } = counting(4, 2);
    const { a: va, t: v } = counting(4, 2);
    expect(await w.sub(v).mul(2).array()).toEqual(sub(wa, va)); // another shape
    const { a: ia, t: i } = counting(2, 4, 'int32');
    const { t: j } = counting(2, 4, 'int32');
    const ints = i.sub(j.mul(3)).mul(2);
    expect(ints.dtype).toBe('int32');
    expect(await ints.array()).toEqual(sub(ia, ia.map((r) => r.map((q) => 3 * q)))); // another dtype
    // The same ops with the intermediate written out too (it is read after the sync).
    const d = x.sub(y3);
    const twice = d.mul(2);
    expect(await twice.array()).toEqual(sub(xa, y3a));
    expect(await d.array()).toEqual(sub(xa, y3a).map((r) => r.map((q) => q / 2)));
    // Each of these alike again: hits.
    const settled = compiles();
    expect(await x.sub(y3).mul(2).array()).toEqual(sub(xa, y3a));
    expect(await y3.sub(x).mul(2).array()).toEqual(sub(y3a, xa));
    expect(await x.sub(y3).mul(x).array()).toEqual(prod(xa, y3a, xa));
    expect(await x.sub(y3).mul(y3).array()).toEqual(prod(xa, y3a, y3a));
    expect(await w.sub(v).mul(2).array()).toEqual(sub(wa, va));
    expect(compiles()).toBe(settled);
  });

  it('scalar values are bound per run, never part of the structure', async () => {
    tpu.mode('fused');
    const { a, t } = counting(2, 3);
    for (const s of [0.5, 4, -3]) {
      const before = compiles();
      const got = (await t.mul(s).add(s).array()) as number[][];
      expect(got).toEqual(a.map((r) => r.map((v) => Math.fround(Math.fround(v * s) + s))));
      if (s !== 0.5) expect(compiles()).toBe(before);
    }
  });
});
