// Views alias their base and in-place ops write through them, as in PyTorch, in every mode
// and inside tpu.compile; expected values are hand-computed.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

const f32 = (v: number[][] | number[]) => tpu.tensor(v, { dtype: 'float32' });

const cases: { name: string; run: () => Tensor[]; want: number[][] }[] = [
  { name: 'view([4]).copy_ reaches the base', run: () => { const b = f32([[1, 2], [3, 4]]); b.view([4]).copy_(f32([5, 6, 7, 8])); return [b]; }, want: [[5, 6, 7, 8]] },
  { name: 'at(0).copy_ writes a row', run: () => { const b = f32([[1, 2], [3, 4]]); b.at(0).copy_(f32([5, 6])); return [b]; }, want: [[5, 6, 3, 4]] },
  { name: 'T.copy_ writes transposed', run: () => { const b = f32([[1, 2], [3, 4]]); b.T.copy_(f32([[5, 6], [7, 8]])); return [b]; }, want: [[5, 7, 6, 8]] },
  { name: 'a slice view with a step', run: () => { const b = f32([0, 1, 2, 3, 4, 5]); b.at('::2').add_(10); return [b]; }, want: [[10, 1, 12, 3, 14, 5]] },
  { name: 'narrow, permute, unsqueeze and squeeze chains', run: () => { const b = f32([[1, 2, 3], [4, 5, 6]]); b.narrow(1, 1, 2).permute(1, 0).unsqueeze(0).squeeze(0).mul_(2); return [b]; }, want: [[1, 4, 6, 4, 10, 12]] },
  { name: 'a write through one view reaches another view', run: () => { const b = f32([[1, 2], [3, 4]]); const col = b.at(':', 1); const row = b.at(1); row.fill_(0); return [b, col]; }, want: [[1, 2, 0, 0], [2, 0]] },
  { name: 'a write to the base reaches its views', run: () => { const b = f32([1, 2, 3, 4]); const v = b.view([2, 2]).at(1); b.sub_(1); return [v]; }, want: [[2, 3]] },
  { name: 'set on an index', run: () => { const b = f32([[1, 2], [3, 4]]); b.at(1, 0).set(9); b.at(0).set(f32([7])); return [b]; }, want: [[7, 7, 9, 4]] },
  { name: 'add_ sub_ mul_ div_ clamp_', run: () => { const b = f32([1, 2, 3, 4]); b.add_(1).mul_(f32([1, 2, 3, 4])).sub_(2).div_(2).clamp_(0, 6); return [b]; }, want: [[0, 2, 5, 6]] },
  { name: 'zero_ fill_ maskedFill_', run: () => { const a = f32([1, 2, 3]); const b = f32([1, 2, 3]); a.zero_(); b.maskedFill_(tpu.tensor([true, false, true]), -1); const c = f32([5]); c.fill_(7); return [a, b, c]; }, want: [[0, 0, 0], [-1, 2, -1], [7]] },
  // PyTorch's fill_ takes a boolean and a 0-d tensor too
  { name: 'fill_ with a boolean and with a 0-d tensor', run: () => [f32([5, 6]).fill_(true), f32([5, 6]).fill_(tpu.tensor(2.5))], want: [[1, 1], [2.5, 2.5]] },
];

const modes = ['debug', 'strict', 'fused'] as const;

describe('views and in-place ops', () => {
  for (const mode of modes) {
    for (const c of cases) {
      it(`${c.name} (${mode})`, () => {
        tpu.mode(mode);
        const outs = c.run();
        outs.forEach((t, i) => expect(Array.from(t.flatten().dataSync())).toEqual(c.want[i]));
      });
    }
    it(`a compiled function writing through a view (${mode})`, () => {
      tpu.mode(mode);
      const step = tpu.compile((b: Tensor, y: Tensor) => { b.at(0).copy_(y); return b.mul(1); });
      for (const k of [1, 2, 3]) {
        const b = f32([[1, 2], [3, 4]]);
        const out = step(b, f32([k, k]));
        expect(Array.from(out.flatten().dataSync())).toEqual([k, k, 3, 4]);
        expect(Array.from(b.flatten().dataSync())).toEqual([k, k, 3, 4]);
      }
    });
  }

  it('writes PyTorch refuses (an expanded view, view() of a transpose) lose no tensor', () => {
    const b = f32([1, 2]);
    const m = f32([[1, 2], [3, 4]]);
    const e = b.expand([2, 2]);
    const t = m.T;
    const live = tpu.memory().liveTensors;
    expect(() => e.add_(1)).toThrow('unsupported operation: more than one element of the written-to tensor refers to a single memory location');
    expect(() => e.copy_(m)).toThrow('more than one element of the written-to tensor');
    expect(() => t.view([4])).toThrow("view size is not compatible with input tensor's size and stride");
    expect(tpu.memory().liveTensors).toBe(live);
    expect(b.array()).toEqual([1, 2]);
  });

  it('fill_ of a tensor with dims is PyTorch\'s error, naming the shape', () => {
    const a = f32([1, 2]);
    expect(() => a.fill_(tpu.tensor([3, 4]))).toThrow('fill_: value must be a number, a boolean or a 0-d tensor (as PyTorch\'s fill_); got a tensor of shape [2]');
    expect(a.array()).toEqual([1, 2]);
  });

  it('in-place on a leaf that requires grad is an error, except under noGrad', () => {
    const w = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    expect(() => w.add_(1)).toThrow(/a leaf Variable that requires grad is being used in an in-place operation/);
    expect(() => w.at(0).fill_(0)).toThrow(/view of a leaf Variable that requires grad/);
    tpu.noGrad(() => w.add_(1));
    expect(Array.from(w.dataSync())).toEqual([2, 3]);
  });

  it('modifying a value backward needs is an error', () => {
    const w = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    const x = f32([3, 4]);
    const y = w.mul(x).sum();
    x.mul_(2);
    expect(() => y.backward()).toThrow(/modified by an inplace operation/);
  });

  it('a Linear weight updated in place between forward and backward: PyTorch\'s error, in every mode', () => {
    // linear's transpose of the weight shares the weight's version counter, as weight.t() in PyTorch
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.mode(mode);
      try {
        const lin = new tpu.nn.Linear(2, 2);
        const x = tpu.tensor([[1, 2]], { dtype: 'float32', requiresGrad: true });
        const y = lin.forward(x).sum();
        tpu.noGrad(() => lin.weight.add_(1));
        expect(() => y.backward()).toThrow(/modified by an inplace operation: .* is at version 1; expected version 0/);
      } finally {
        tpu.mode('strict');
      }
    }
  });

  it('in-place on a non-leaf records into the graph, as in PyTorch', () => {
    const w = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    const y = w.mul(2);
    y.add_(1);
    expect(y.isLeaf).toBe(false);
    y.sum().backward();
    expect(w.grad!.array()).toEqual([2, 2]);
  });

  it('advanced indexing copies: writes do not reach the base', () => {
    const b = f32([1, 2, 3]);
    b.at([0, 2]).fill_(0);
    expect(Array.from(b.dataSync())).toEqual([1, 2, 3]);
  });
});

describe('views see optimizer steps', () => {
  it('a transposed view of a parameter follows an SGD step', () => {
    const w = tpu.tensor([[1, 2], [3, 4]], { dtype: 'float32', requiresGrad: true });
    const wt = w.T;
    const opt = new tpu.optim.SGD([w], { lr: 0.5 });
    w.sum().backward();
    opt.step();
    expect(Array.from(wt.flatten().dataSync())).toEqual([0.5, 2.5, 1.5, 3.5]);
  });
});

describe('views made each step of a loop updating their base (fused)', () => {
  it('settle into one program, and a view kept from the start reads the latest values', async () => {
    tpu.mode('fused');
    const w = f32([[1, 2], [3, 4]]);
    const x = f32([[1, 0], [0, 1]]);
    const kept = w.T;
    const sums: number[] = [];
    const compiles: number[] = [];
    // 250 steps of 3 dropped views each: more than one region's ops, were they all recomputed.
    // Each step awaits its result (a new job: a WeakRef read in one job keeps its target for it).
    for (let step = 0; step < 250; step++) {
      const y = w.T.matmul(x).add(w.T).sub(w.T); // new views every step, dropped (not yet collected)
      w.mul_(-1);
      sums.push((await y.sum().data())[0]!);
      compiles.push(tpu.stats().programsCompiled);
    }
    expect(sums).toEqual(sums.map((_, step) => (step % 2 ? -10 : 10)));
    // No program per step: the collector's timing may split one region differently now and then
    // (an extra program or two over 250 steps), never once per step.
    expect(compiles.at(-1)! - compiles[3]!).toBeLessThanOrEqual(3);
    expect(kept.array()).toEqual([[1, 3], [2, 4]]); // 250 sign flips
  });
});

describe('a write through a view of a large base', () => {
  for (const mode of ['strict', 'fused'] as const) {
    it(`zeroes exactly the viewed elements of 3000 (${mode})`, () => {
      tpu.mode(mode);
      const values = Array.from({ length: 3000 }, (_, i) => i);
      const b = tpu.tensor(values, { dtype: 'float32' });
      b.view([30, 100]).at('10:20', '::3').zero_();
      const want = values.map((v, i) => (Math.floor(i / 100) >= 10 && Math.floor(i / 100) < 20 && (i % 100) % 3 === 0 ? 0 : v));
      expect(Array.from(b.dataSync())).toEqual(want);
    });
  }
});

describe('tpu.compile: a captured base written through a view', () => {
  for (const mode of modes) {
    it(`each replay adds to the row (${mode})`, () => {
      tpu.mode(mode);
      const b = f32([[1, 2], [3, 4]]);
      const step = tpu.compile((y: Tensor) => { b.at(1).add_(y); return b.sum(); });
      const sums = [1, 2, 3].map((k) => step(f32([k, k])).item());
      expect(sums).toEqual([12, 16, 22]);
      expect(Array.from(b.flatten().dataSync())).toEqual([1, 2, 9, 10]);
    });
  }
});

describe('tpu.compile: views follow PyTorch strides', () => {
  for (const mode of modes) {
    it(`a reshape of a transpose writes a copy, a view of rows writes the base (${mode})`, () => {
      tpu.mode(mode);
      const b = f32([[1, 2, 3], [4, 5, 6]]);
      const step = tpu.compile((y: Tensor) => {
        b.T.reshape([6]).add_(y); // a copy: b keeps its values
        b.narrow(0, 1, 1).view([3]).add_(y.at('0:3')); // a view: row 1 of b changes
        return b.sum();
      });
      const sums = [1, 2].map((k) => step(tpu.full([6], k)).item());
      // hand-computed: 21 + 3·1, then 24 + 3·2
      expect(sums).toEqual([24, 30]);
      expect(Array.from(b.flatten().dataSync())).toEqual([1, 2, 3, 7, 8, 9]);
    });
    it(`view() of a transpose is PyTorch's error (${mode})`, () => {
      tpu.mode(mode);
      const f = tpu.compile((x: Tensor) => x.T.view([6]).sum());
      expect(() => f(f32([[1, 2, 3], [4, 5, 6]]))).toThrow("view size is not compatible with input tensor's size and stride");
    });
  }
});

/**
 * The gradient of sum(h²) with respect to w, for h = x·w + 1 with row 0 of h then tripled,
 * in float64 loops (x: n×k, w: k×m).
 */
function handGrad(x: number[][], w: number[][]): number[] {
  const n = x.length;
  const k = w.length;
  const m = w[0]!.length;
  const scale = (i: number) => (i === 0 ? 3 : 1);
  const h = x.map((row, i) => Array.from({ length: m }, (_, j) => scale(i) * (row.reduce((s, v, t) => s + v * w[t]![j]!, 0) + 1)));
  // d sum(h²)/d (x·w) = 2h · scale (the chain through the tripled row)
  const dpre = h.map((row, i) => row.map((v) => 2 * v * scale(i)));
  const out: number[] = [];
  for (let t = 0; t < k; t++) for (let j = 0; j < m; j++) out.push(Array.from({ length: n }, (_, i) => x[i]![t]! * dpre[i]![j]!).reduce((a, b) => a + b, 0));
  return out;
}

describe('in-place ops on non-leaves inside tpu.compile', () => {
  const xs = [[1, 2], [3, -1], [0.5, 0.25]];
  const ws = [[1, -2, 0.5], [0.25, 3, -1]];
  for (const mode of modes) {
    it(`add_ and a view's mul_ on a hidden value give the hand-computed gradient, on every replay (${mode})`, () => {
      tpu.mode(mode);
      const w = tpu.tensor(ws, { dtype: 'float32', requiresGrad: true });
      const step = tpu.compile((x: Tensor) => {
        const h = x.matmul(w);
        h.add_(1);
        h.at(0).mul_(3);
        h.mul(h).sum().backward();
        return w.grad!.mul(1);
      });
      const want = handGrad(xs, ws);
      for (let k = 0; k < 3; k++) {
        w.grad = null;
        const got = Array.from(step(f32(xs)).flatten().dataSync());
        got.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 3));
      }
    });
  }
});

describe("an in-place op's result must fit the target's dtype kind (PyTorch's can_cast)", () => {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`raises for float into int32, keeps the target and loses no tensor (${mode})`, () => {
      tpu.mode(mode);
      const x = tpu.tensor(new Int32Array([1, 2]));
      const twos = f32([2, 2]);
      const live = tpu.memory().liveTensors;
      expect(() => x.add_(0.5)).toThrow("add_: result type float32 can't be cast to the desired output type int32");
      expect(() => x.div_(2)).toThrow("div_: result type float32 can't be cast to the desired output type int32");
      expect(() => x.clamp_(0.5, 1.5)).toThrow("clamp_: result type float32 can't be cast to the desired output type int32");
      expect(() => x.mul_(twos)).toThrow("mul_: result type float32 can't be cast to the desired output type int32");
      expect(tpu.memory().liveTensors).toBe(live);
      expect(x.array()).toEqual([1, 2]);
      // Within a kind the result is cast, as in PyTorch: int32 stays int32; float32 into bfloat16 rounds.
      expect(x.add_(3).sub_(tpu.tensor(new Int32Array([1, 1]))).array()).toEqual([3, 4]);
      expect(x.dtype).toBe('int32');
      const b = tpu.tensor([1.5], { dtype: 'bfloat16' });
      expect(b.add_(f32([1.00390625])).array()).toEqual([2.5]); // 2.50390625 rounds to bf16's 2.5
    });
  }
});
