// Independent float64 references for runtime tests: naive loops over flat row-major data.

export interface Ref {
  shape: number[];
  data: number[];
}

export const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

function strides(shape: readonly number[]): number[] {
  const s = new Array(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

export function broadcastRef(a: Ref, b: Ref, f: (x: number, y: number) => number): Ref {
  const n = Math.max(a.shape.length, b.shape.length);
  const pa = [...Array(n - a.shape.length).fill(1), ...a.shape];
  const pb = [...Array(n - b.shape.length).fill(1), ...b.shape];
  const shape = pa.map((d, i) => Math.max(d, pb[i]));
  const sa = strides(pa);
  const sb = strides(pb);
  const so = strides(shape);
  const data: number[] = [];
  for (let k = 0; k < size(shape); k++) {
    let ia = 0;
    let ib = 0;
    for (let d = 0; d < n; d++) {
      const idx = Math.floor(k / so[d]) % shape[d];
      ia += (pa[d] === 1 ? 0 : idx) * sa[d];
      ib += (pb[d] === 1 ? 0 : idx) * sb[d];
    }
    data.push(f(a.data[ia], b.data[ib]));
  }
  return { shape, data };
}

export function matmulRef(a: Ref, b: Ref): Ref {
  const [m, k] = a.shape;
  const n = b.shape[1];
  const data = new Array(m * n).fill(0);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let t = 0; t < k; t++) s += a.data[i * k + t] * b.data[t * n + j];
    data[i * n + j] = s;
  }
  return { shape: [m, n], data };
}

export function sumRef(a: Ref, dims: number[], keepdim: boolean): Ref {
  const outShape = a.shape.map((d, i) => (dims.includes(i) ? 1 : d));
  const so = strides(outShape);
  const sa = strides(a.shape);
  const data = new Array(size(outShape)).fill(0);
  for (let k = 0; k < size(a.shape); k++) {
    let o = 0;
    for (let d = 0; d < a.shape.length; d++) {
      const idx = Math.floor(k / sa[d]) % a.shape[d];
      if (!dims.includes(d)) o += idx * so[d];
    }
    data[o] += a.data[k];
  }
  return { shape: keepdim ? outShape : a.shape.filter((_, i) => !dims.includes(i)), data };
}

/** Seeded uniform values in [lo, hi) (test data independent of the runtime's generator). */
export function seededValues(n: number, seed: number, lo = -2, hi = 2): number[] {
  let s = seed >>> 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(lo + ((s >>> 8) / 16777216) * (hi - lo));
  }
  return out;
}

export function expectClose(actual: ArrayLike<number>, expected: readonly number[], rel = 1e-5, abs = 1e-6): void {
  if (actual.length !== expected.length) throw new Error(`length ${actual.length} != ${expected.length}`);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i]!;
    const e = expected[i]!;
    if (!(Math.abs(a - e) <= abs + rel * Math.abs(e))) {
      throw new Error(`element ${i}: got ${a}, expected ${e} (rel ${rel})`);
    }
  }
}
