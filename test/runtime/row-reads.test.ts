// Reading rows and elements with JS numbers (x.at(i), x.at(i, j), narrow, select, for-of):
// values and gradients against hand-computed ones in every mode, and the row's start fed to
// the program at run time, so a loop over rows compiles a bounded number of programs (not
// one per row), also in fused mode with a sync each row.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const MODES = ['debug', 'strict', 'fused'] as const;
afterEach(() => tpu.mode('strict'));

/** x[i][j] = 6i + j over [4, 6], as float32. */
const grid = () => tpu.arange(24).reshape([4, 6]).to('float32');
const range = (from: number, n: number, step = 1) => Array.from({ length: n }, (_, k) => from + k * step);

describe.each(MODES)('row reads in %s mode', (mode) => {
  it('x.at(i), at(i, j), narrow and select read the elements PyTorch indexing reads, negatives from the end', async () => {
    tpu.mode(mode);
    const x = grid();
    for (const i of [0, 2, 3]) expect(await x.at(i).array()).toEqual(range(6 * i, 6));
    expect(await x.at(-1).array()).toEqual(range(18, 6));
    expect(await x.at(-4).array()).toEqual(range(0, 6));
    expect(await x.at(2, 5).item()).toBe(17);
    expect(await x.at(-3, -2).item()).toBe(10);
    expect(await x.at(1, '::2').array()).toEqual([6, 8, 10]);
    expect(await x.narrow(0, 1, 2).array()).toEqual([range(6, 6), range(12, 6)]);
    expect(await x.narrow(1, -3, 2).array()).toEqual([[3, 4], [9, 10], [15, 16], [21, 22]]);
    expect(await x.select(1, -1).array()).toEqual([5, 11, 17, 23]);
    const sums: number[] = [];
    for (const row of x) sums.push(await row.sum().item());
    expect(sums).toEqual([15, 51, 87, 123]); // 6·6i + 15
  });

  it('positions past bfloat16 precision and int64 rows read the right row', async () => {
    tpu.mode(mode);
    // row r holds r % 7 (exact in bfloat16); 299 is not a bfloat16 number (it rounds to 300)
    const values = Float32Array.from({ length: 600 }, (_, k) => Math.floor(k / 2) % 7);
    const b = tpu.tensor(values).reshape([300, 2]).to('bfloat16');
    expect(await b.at(299).array()).toEqual([299 % 7, 299 % 7]);
    expect(await b.narrow(0, 297, 1).array()).toEqual([[297 % 7, 297 % 7]]);
    const big = tpu.tensor([[1, 2], [3, 2 ** 40]], { dtype: 'int64' });
    expect(await big.at(1, 1).item()).toBe(2 ** 40);
  });

  it('gradients land in the rows and elements read, accumulating', async () => {
    tpu.mode(mode);
    const x = grid().requiresGrad_();
    x.at(1).sum().backward();
    x.at(-1).mul(2).sum().backward();
    x.at(0, -1).mul(10).backward();
    x.narrow(1, 2, 2).sum().mul(100).backward();
    const want = range(0, 4).map((i) => range(0, 6).map((j) =>
      (i === 1 ? 1 : 0) + (i === 3 ? 2 : 0) + (i === 0 && j === 5 ? 10 : 0) + (j === 2 || j === 3 ? 100 : 0)));
    expect(await x.grad!.array()).toEqual(want);

    // a loop over rows: row i weighted by i + 1
    const w = grid().requiresGrad_();
    let loss: Tensor = tpu.zeros([]);
    for (let i = 0; i < 4; i++) loss = loss.add(w.at(i).mul(i + 1).sum());
    loss.backward();
    expect(await w.grad!.array()).toEqual(range(0, 4).map((i) => range(0, 6).map(() => i + 1)));
  });

  it('a row is a view: writes through it reach the base, and it sees the base written', async () => {
    tpu.mode(mode);
    const x = grid();
    const row = x.at(2);
    row.mul_(10);
    expect(await x.at(2).array()).toEqual(range(120, 6, 10));
    expect(await x.at(1).array()).toEqual(range(6, 6));
    x.add_(1);
    expect(await row.array()).toEqual(range(121, 6, 10));
  });

  it('an index out of range is an error naming it and the size, on the host', () => {
    tpu.mode(mode);
    const x = grid();
    expect(() => x.at(4)).toThrow(/index 4 is out of range for dim 0 of size 4/);
    expect(() => x.at(-5)).toThrow(/index -5 is out of range for dim 0 of size 4/);
    expect(() => x.at(0, 6)).toThrow(/index 6 is out of range for dim 1 of size 6/);
    expect(() => x.narrow(0, 3, 2)).toThrow(/narrow: start 3 and length 2 do not fit dim 0 of size 4/);
    expect(() => x.select(1, 6)).toThrow(/select: index 6 out of range/);
  });
});

describe.each(MODES)('a loop over rows compiles a bounded number of programs in %s mode', (mode) => {
  const ROWS = 50;
  /** Row count of the tensors read: one per mode, so no mode finds rows another compiled (debug and strict share programs). */
  const height = ROWS + MODES.indexOf(mode);
  /** Compiles (program cache misses) while `body` runs for rows 1..ROWS-1, after row 0 warmed the cache. */
  async function compilesOverRows(body: (i: number) => Promise<number>): Promise<{ misses: number; values: number[] }> {
    await body(0);
    const before = tpu.stats().cacheMisses;
    const values: number[] = [];
    for (let i = 1; i < ROWS; i++) values.push(await body(i));
    return { misses: tpu.stats().cacheMisses - before, values };
  }

  it('reads each row, element and narrow window, with a sync each row', async () => {
    tpu.mode(mode);
    // x[i][j] = i + j/8 over [height, 8]
    const x = tpu.arange(height * 8).reshape([height, 8]).to('float32').div(8);
    const sums = await compilesOverRows(async (i) => x.at(i).sum().item());
    expect(sums.values).toEqual(range(1, ROWS - 1).map((i) => 8 * i + 3.5)); // Σ_j (i + j/8)
    expect(sums.misses).toBeLessThanOrEqual(2);
    const elements = await compilesOverRows(async (i) => x.at(i, i % 8).item());
    expect(elements.values).toEqual(range(1, ROWS - 1).map((i) => i + (i % 8) / 8));
    expect(elements.misses).toBeLessThanOrEqual(2);
    const windows = await compilesOverRows(async (i) => x.narrow(0, i >> 1, 2).sum().item());
    expect(windows.values).toEqual(range(1, ROWS - 1).map((i) => 16 * (i >> 1) + 15)); // rows s and s + 1
    expect(windows.misses).toBeLessThanOrEqual(2);
  });

  it('trains over rows (backward and SGD each row, loss read each row)', async () => {
    tpu.mode(mode);
    const x = tpu.ones([height, 4]);
    const w = tpu.zeros([4], { requiresGrad: true });
    const opt = new tpu.optim.SGD([w], { lr: 0.01 });
    const steps = await compilesOverRows(async (i) => {
      opt.zeroGrad();
      const loss = x.at(i).mul(w).sum();
      loss.backward();
      opt.step();
      return loss.item();
    });
    expect(steps.misses).toBeLessThanOrEqual(3);
    // d loss / d w = x[i] = 1: w falls by lr each step, so the loss of step s (from 0) is -0.04·s
    expect(steps.values.length).toBe(ROWS - 1);
    steps.values.forEach((v, k) => expect(v).toBeCloseTo(-0.04 * (k + 1), 5));
  });
});
