// Independent float64 references for runtime tests: naive loops over flat row-major data.

export interface Ref {
  shape: number[];
  data: number[];
}

export const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

export function strides(shape: readonly number[]): number[] {
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

// ---- op catalog references ----

/** Rounds each value to float32 (what a float32 tensor holds). */
export const f32 = (xs: readonly number[]): number[] => Array.from(Float32Array.from(xs));

/** float64 -> bfloat16, round to nearest even (through float32 first, as the device stores it). */
export function bf16(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  if (Number.isNaN(f[0]!)) return NaN;
  u[0] = ((u[0]! + 0x7fff + ((u[0]! >>> 16) & 1)) >>> 16) << 16;
  return f[0]!;
}

export function unravel(k: number, shape: readonly number[]): number[] {
  const idx = new Array(shape.length).fill(0);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = k % shape[d]!;
    k = Math.floor(k / shape[d]!);
  }
  return idx;
}

export function ravel(idx: readonly number[], shape: readonly number[]): number {
  let k = 0;
  for (let d = 0; d < shape.length; d++) k = k * shape[d]! + idx[d]!;
  return k;
}

/** A seeded float32-exact test tensor's data. */
export function refOf(shape: number[], seed: number, lo = -2, hi = 2): Ref {
  return { shape, data: f32(seededValues(size(shape), seed, lo, hi)) };
}

export const mapRef = (a: Ref, f: (x: number, i: number) => number): Ref => ({ shape: [...a.shape], data: a.data.map(f) });

/** Reduces `dims` with fn over the values of each output position (in row-major order). */
export function reduceRef(a: Ref, dims: readonly number[], keepdim: boolean, fn: (values: number[]) => number): Ref {
  const kept = a.shape.map((d, i) => (dims.includes(i) ? 1 : d));
  const groups: number[][] = Array.from({ length: size(kept) }, () => []);
  a.data.forEach((v, k) => {
    const idx = unravel(k, a.shape).map((x, d) => (dims.includes(d) ? 0 : x));
    groups[ravel(idx, kept)]!.push(v);
  });
  return { shape: keepdim ? kept : a.shape.filter((_, i) => !dims.includes(i)), data: groups.map(fn) };
}

export function permuteRef(a: Ref, perm: readonly number[]): Ref {
  const shape = perm.map((p) => a.shape[p]!);
  const data = new Array(size(shape));
  a.data.forEach((v, k) => {
    const idx = unravel(k, a.shape);
    data[ravel(perm.map((p) => idx[p]!), shape)] = v;
  });
  return { shape, data };
}

/** Element (begin + i·step) of each dim, count elements per dim. */
export function sliceRef(a: Ref, begin: readonly number[], step: readonly number[], count: readonly number[]): Ref {
  const shape = [...count];
  const data = Array.from({ length: size(shape) }, (_, k) => {
    const idx = unravel(k, shape).map((i, d) => begin[d]! + i * step[d]!);
    return a.data[ravel(idx, a.shape)]!;
  });
  return { shape, data };
}

/** Naive batched matmul of [..., m, k] x [..., k, n] with equal batch dims. */
export function bmmRef(a: Ref, b: Ref): Ref {
  const [m, k] = a.shape.slice(-2) as [number, number];
  const n = b.shape[b.shape.length - 1]!;
  const batch = a.shape.slice(0, -2);
  const out: number[] = [];
  for (let t = 0; t < size(batch); t++) {
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += a.data[t * m * k + i * k + p]! * b.data[t * k * n + p * n + j]!;
      out.push(s);
    }
  }
  return { shape: [...batch, m, n], data: out };
}

/** float32's unit in the last place at v rounded to float32: 2^-149 below the normal range. */
export function float32Ulp(v: number): number {
  const a = Math.abs(Math.fround(v));
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/** erf by its Taylor series (|x| ≤ 4; beyond, ±1 to float64 precision of float32 use). */
export function erfRef(x: number): number {
  if (Math.abs(x) > 4) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 100; n++) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

export interface ConvRefOptions {
  stride: [number, number];
  padding: [number, number];
  dilation: [number, number];
  groups: number;
}

/** Direct 2-D convolution (cross-correlation, as PyTorch) of x [N, C, H, W] and w [O, C/g, kh, kw]. */
export function conv2dRef(x: Ref, w: Ref, o: ConvRefOptions): Ref {
  const [n, c, h, wd] = x.shape as [number, number, number, number];
  const [oc, cg, kh, kw] = w.shape as [number, number, number, number];
  const ho = Math.floor((h + 2 * o.padding[0] - o.dilation[0] * (kh - 1) - 1) / o.stride[0]) + 1;
  const wo = Math.floor((wd + 2 * o.padding[1] - o.dilation[1] * (kw - 1) - 1) / o.stride[1]) + 1;
  const og = oc / o.groups;
  const data: number[] = [];
  for (let b = 0; b < n; b++) for (let q = 0; q < oc; q++) for (let y = 0; y < ho; y++) for (let z = 0; z < wo; z++) {
    let s = 0;
    const g = Math.floor(q / og);
    for (let ci = 0; ci < cg; ci++) for (let i = 0; i < kh; i++) for (let j = 0; j < kw; j++) {
      const yy = y * o.stride[0] - o.padding[0] + i * o.dilation[0];
      const zz = z * o.stride[1] - o.padding[1] + j * o.dilation[1];
      if (yy < 0 || yy >= h || zz < 0 || zz >= wd) continue;
      s += x.data[ravel([b, g * cg + ci, yy, zz], x.shape)]! * w.data[ravel([q, ci, i, j], w.shape)]!;
    }
    data.push(s);
  }
  return { shape: [n, oc, ho, wo], data };
}

/** Checks shape and values (|a − e| ≤ abs + rel·|e|); equal infinities and NaN vs NaN pass. */
export function expectRef(actual: { shape: readonly number[]; dataSync(): ArrayLike<number | bigint> }, expected: Ref, rel = 1e-5, abs = 1e-6): void {
  if (actual.shape.join() !== expected.shape.join()) throw new Error(`shape [${actual.shape.join(', ')}] != expected [${expected.shape.join(', ')}]`);
  const got = Array.from(actual.dataSync(), Number); // int64 values here are small: exact as numbers
  const same = expected.data.map((e, i) => e === got[i] || (Number.isNaN(e) && Number.isNaN(got[i]!)));
  expectClose(Array.from(got).map((v, i) => (same[i] ? 0 : v)), expected.data.map((e, i) => (same[i] ? 0 : e)), rel, abs);
}
