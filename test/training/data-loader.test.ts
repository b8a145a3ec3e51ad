// tpu.utils.data (torch.utils.data): batches against rows computed here, shuffles as
// permutations, randomSplit's lengths against PyTorch's random_split, collate against
// PyTorch's default_collate rules, and a training loop against the same loop sliced by hand.
import { spawnSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { settledLiveTensors } from '../support/settle-gc.js';

const { Dataset, TensorDataset, DataLoader, Subset, ConcatDataset, randomSplit, defaultCollate } = tpu.utils.data;
const MODES = ['debug', 'strict', 'fused'] as const;
const initialMode = tpu.mode();
afterEach(() => void tpu.mode(initialMode));

/** n rows: x row i = [2i, 2i + 1] (float32), y i = i (int64). */
function rows(n: number) {
  const x = tpu.arange(2 * n).reshape([n, 2]).float();
  const y = tpu.arange(n);
  return { x, y, ds: new TensorDataset(x, y) };
}
const xRow = (i: number) => [2 * i, 2 * i + 1];
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => a + k);
/** The labels of each batch of one epoch, checking each x row belongs to its label. */
function epochLabels(loader: Iterable<Tensor[]>): number[][] {
  const out: number[][] = [];
  for (const [xb, yb] of loader) {
    const labels = yb!.tolist() as number[];
    expect(xb!.tolist()).toEqual(labels.map(xRow));
    out.push(labels);
  }
  return out;
}

/** Epochs whose batches are dropped undisposed, as natural code does; the rows seen. In a function
 * of its own: the running function's registers may hold its last batch until it returns. */
function dropEpochs(loader: Iterable<Tensor[]>, epochs: number): number {
  let seen = 0;
  for (let epoch = 0; epoch < epochs; epoch++) for (const [xb] of loader) seen += xb!.shape[0]!;
  return seen;
}

describe('DataLoader over a TensorDataset', () => {
  for (const mode of MODES) {
    it(`${mode}: batches are the rows in order, the last one short; dtypes kept`, () => {
      tpu.mode(mode);
      const { ds } = rows(10);
      const loader = new DataLoader(ds, { batchSize: 4 });
      expect(loader.length).toBe(3);
      const batches = [...loader];
      expect(batches.map(([xb]) => xb!.shape)).toEqual([[4, 2], [4, 2], [2, 2]]);
      expect(batches.map(([xb, yb]) => [xb!.dtype, yb!.dtype])).toEqual(Array(3).fill(['float32', 'int64']));
      expect(batches.map(([xb]) => xb!.tolist())).toEqual([range(0, 4), range(4, 8), range(8, 10)].map((r) => r.map(xRow)));
      expect(batches.map(([, yb]) => yb!.tolist())).toEqual([range(0, 4), range(4, 8), range(8, 10)]);
    });

    it(`${mode}: shuffle gives every row once per epoch, a new order each epoch, the same orders for the same seed`, () => {
      tpu.mode(mode);
      const { ds } = rows(10);
      const loader = new DataLoader(ds, { batchSize: 3, shuffle: true });
      const run = () => {
        tpu.manualSeed(7);
        return [0, 1, 2].map(() => epochLabels(loader));
      };
      const epochs = run();
      for (const e of epochs) {
        expect(e.map((b) => b.length)).toEqual([3, 3, 3, 1]);
        expect(e.flat().sort((a, b) => a - b)).toEqual(range(0, 10));
      }
      const orders = epochs.map((e) => e.flat().join());
      expect(new Set(orders).size).toBe(3);
      expect(orders).not.toContain(range(0, 10).join());
      expect(run()).toEqual(epochs);
    });

    it(`${mode}: no device memory is kept across epochs (batches disposed, or dropped and collected)`, async () => {
      tpu.mode(mode);
      const { ds } = rows(50);
      const loader = new DataLoader(ds, { batchSize: 8, shuffle: true });
      await tpu.sync();
      const before = tpu.memory().liveTensors;
      for (let epoch = 0; epoch < 3; epoch++) {
        for (const [xb, yb] of loader) {
          xb!.dispose();
          yb!.dispose();
        }
      }
      await tpu.sync();
      expect(tpu.memory().liveTensors).toBe(before);
      const settled = await settledLiveTensors();
      expect(dropEpochs(loader, 3)).toBe(150);
      expect(await settledLiveTensors()).toBe(settled);
    });
  }

  it('dropLast leaves out the short last batch; length is the number of batches', () => {
    const { ds } = rows(10);
    const dropped = new DataLoader(ds, { batchSize: 4, dropLast: true });
    expect(dropped.length).toBe(2);
    expect([...dropped].map(([, yb]) => yb!.tolist())).toEqual([range(0, 4), range(4, 8)]);
    tpu.manualSeed(3);
    const shuffled = epochLabels(new DataLoader(ds, { batchSize: 4, dropLast: true, shuffle: true }));
    expect(shuffled.map((b) => b.length)).toEqual([4, 4]);
    expect(new Set(shuffled.flat()).size).toBe(8);
    const even = rows(8).ds;
    expect([new DataLoader(even, { batchSize: 4 }).length, new DataLoader(even, { batchSize: 4, dropLast: true }).length]).toEqual([2, 2]);
    expect(new DataLoader(ds).length).toBe(10); // batchSize 1 by default
    expect(new DataLoader(ds, { batchSize: 64 }).length).toBe(1);
    expect(new DataLoader(ds, { batchSize: 64, dropLast: true }).length).toBe(0);
    expect([...new DataLoader(ds, { batchSize: 64, dropLast: true })]).toEqual([]);
  });

  it('a Subset of a TensorDataset batches its rows in the subset order', () => {
    const { ds } = rows(10);
    const sub = new Subset(ds, [7, 2, -1, 0]);
    expect(sub.length).toBe(4);
    expect(epochLabels(new DataLoader(sub, { batchSize: 3 }))).toEqual([[7, 2, 9], [0]]);
    expect(sub.getItem(1).map((t) => t.tolist())).toEqual([xRow(2), 2]);
  });
});

describe('randomSplit', () => {
  const cases: [number, number[]][] = [[10, [0.7, 0.2, 0.1]], [11, [0.7, 0.2, 0.1]], [11, [0.5, 0.5]], [10, [0.34, 0.33, 0.33]], [11, [0.1, 0.1, 0.8]], [7, [0.25, 0.25, 0.25, 0.25]], [3, [0.2, 0.8]]];
  let torchLengths: number[][];
  beforeAll(() => {
    const py = `import json, torch\nfrom torch.utils.data import random_split\ng = torch.Generator().manual_seed(0)\nprint(json.dumps([[len(s) for s in random_split(range(n), f, generator=g)] for n, f in json.loads(${JSON.stringify(JSON.stringify(cases))})]))`;
    const r = spawnSync('python3', ['-c', py], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`PyTorch reference failed: ${r.stderr}`);
    torchLengths = JSON.parse(r.stdout) as number[][];
  });

  it("rounds fractions as PyTorch's random_split does", () => {
    expect(cases.map(([n, f]) => randomSplit(range(0, n), f).map((s) => s.length))).toEqual(torchLengths);
    // PyTorch's documented rule, by hand: floor(11 * [0.7, 0.2, 0.1]) = [7, 2, 1], the 1 left over to the first
    expect(torchLengths[1]).toEqual([8, 2, 1]);
  });

  it('gives disjoint subsets covering the dataset, the same for the same seed, with integer lengths too', () => {
    const { ds } = rows(10);
    tpu.manualSeed(1);
    const [a, b] = randomSplit(ds, [6, 4]);
    const labels = (s: InstanceType<typeof Subset>) => s.indices.map((i) => Number(ds.getItem(i)[1]!.item()));
    expect([...labels(a!), ...labels(b!)].sort((p, q) => p - q)).toEqual(range(0, 10));
    expect([a!.length, b!.length]).toEqual([6, 4]);
    expect(a!.indices).not.toEqual(range(0, 6));
    tpu.manualSeed(1);
    expect(randomSplit(ds, [6, 4]).map((s) => s.indices)).toEqual([a!.indices, b!.indices]);
    // batches of a split are its rows: x rows match their labels
    expect(epochLabels(new DataLoader(b!, { batchSize: 3 })).flat()).toEqual(labels(b!));
  });

  it('names what is wrong with the lengths', () => {
    expect(() => randomSplit(range(0, 10), [5, 4])).toThrow(/lengths must sum to the dataset's length 10 .*got \[5,4\], sum 9/);
    expect(() => randomSplit(range(0, 10), [0.5, 0.4])).toThrow(/lengths\[0\] must be a non-negative integer \(or all lengths fractions summing to 1\); got 0.5/);
    expect(() => randomSplit(range(0, 10), [1.5, -0.5])).toThrow(/fraction at index 0 must be between 0 and 1; got 1.5/);
    expect(() => randomSplit(range(0, 10), [])).toThrow(/lengths must be a non-empty array of numbers/);
  });
});

describe('custom datasets and collate', () => {
  class Squares extends Dataset<[Tensor, number]> {
    get length() {
      return 5;
    }
    getItem(i: number): [Tensor, number] {
      return [tpu.tensor([i, -i]), i * i];
    }
  }

  for (const mode of MODES) {
    it(`${mode}: a Dataset subclass's items are collated: tensors stacked, numbers a float32 tensor`, () => {
      tpu.mode(mode);
      const loader = new DataLoader(new Squares(), { batchSize: 2 });
      expect(loader.length).toBe(3);
      const batches = [...loader];
      expect(batches.map(([xb, sq]) => [xb.tolist(), sq.tolist(), sq.dtype])).toEqual([
        [[[0, -0], [1, -1]], [0, 1], 'float32'],
        [[[2, -2], [3, -3]], [4, 9], 'float32'],
        [[[4, -4]], [16], 'float32'],
      ]);
    });
  }

  it("collates arrays and objects element-wise as PyTorch's default_collate collates tuples and dicts", () => {
    const items = [0, 1, 2].map((i) => ({ image: tpu.full([2, 2], i), label: BigInt(i + 1), mask: i % 2 === 0, name: `n${i}`, pair: [i / 2, tpu.tensor([i])] }));
    const batch = defaultCollate(items);
    expect(Object.keys(batch)).toEqual(['image', 'label', 'mask', 'name', 'pair']);
    expect([batch.image.shape, batch.image.tolist()]).toEqual([[3, 2, 2], [0, 1, 2].map((i) => [[i, i], [i, i]])]);
    expect([batch.label.dtype, batch.label.tolist()]).toEqual(['int64', [1, 2, 3]]); // Python ints: int64
    expect([batch.mask.dtype, batch.mask.tolist()]).toEqual(['bool', [true, false, true]]);
    expect(batch.name).toEqual(['n0', 'n1', 'n2']);
    expect([batch.pair[0].dtype, batch.pair[0].tolist(), batch.pair[1].tolist()]).toEqual(['float32', [0, 0.5, 1], [[0], [1], [2]]]);
    // arrays as datasets; a collateFn gets the list of items
    const loader = new DataLoader([[1, 'a'], [2, 'b'], [3, 'c']] as [number, string][], { batchSize: 2, collateFn: (xs) => xs.map(([n, s]) => `${s}${n}`).join() });
    expect([...loader]).toEqual(['a1,b2', 'c3']);
  });

  it('ConcatDataset reads its datasets in turn', () => {
    const { ds } = rows(3);
    const cat = new ConcatDataset<Tensor[]>([ds, new Subset(ds, [2]), rows(2).ds]);
    expect(cat.length).toBe(6);
    expect(cat.cumulativeSizes).toEqual([3, 4, 6]);
    expect(epochLabels(new DataLoader(cat, { batchSize: 4 }))).toEqual([[0, 1, 2, 2], [0, 1]]);
    expect(() => cat.getItem(6)).toThrow(/ConcatDataset.getItem: index 6 is out of range for 6 items/);
  });
});

describe('a training loop over a loader', () => {
  for (const mode of MODES) {
    it(`${mode}: reaches the weights of the same loop over hand-sliced batches`, () => {
      tpu.mode(mode);
      tpu.manualSeed(5);
      const x = tpu.randn([22, 3]);
      const y = x.matmul(tpu.tensor([[1], [-2], [0.5]])).add(0.25);
      const train = (batches: () => Iterable<Tensor[]>) => {
        tpu.manualSeed(9);
        const model = new tpu.nn.Linear(3, 1);
        const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.05, momentum: 0.9 });
        for (let epoch = 0; epoch < 3; epoch++) {
          for (const [xb, yb] of batches()) {
            opt.zeroGrad();
            tpu.nn.mseLoss(model(xb!), yb!).backward();
            opt.step();
          }
        }
        return model.parameters().map((p) => Array.from(p.dataSync()));
      };
      const loader = new DataLoader(new TensorDataset(x, y), { batchSize: 5 });
      const viaLoader = train(() => loader);
      const bySlicing = train(function* () {
        for (let start = 0; start < 22; start += 5) yield [x.slice(0, start, start + 5), y.slice(0, start, start + 5)];
      });
      expect(viaLoader).toEqual(bySlicing);
      expect(viaLoader.flat().every(Number.isFinite)).toBe(true);
    });
  }
});

describe('errors', () => {
  it('name the argument, what was expected and what came', () => {
    const { x, y, ds } = rows(4);
    expect(() => new DataLoader(ds, { batchSize: 0 })).toThrow(/DataLoader: batchSize must be a positive integer; got 0/);
    expect(() => new DataLoader(ds, { batchSize: 2.5 })).toThrow(/batchSize must be a positive integer; got 2.5/);
    expect(() => new DataLoader(ds, { batch_size: 4 } as never)).toThrow(/DataLoader: unknown option 'batch_size' \(did you mean 'batchSize'\?\)/);
    expect(() => new DataLoader(ds, { batchsize: 4 } as never)).toThrow(/unknown option 'batchsize' \(did you mean 'batchSize'\?\)/);
    expect(() => new DataLoader(ds, { numWorkers: 2 } as never)).toThrow(/unknown option 'numWorkers'; DataLoader accepts 'batchSize', 'shuffle', 'dropLast', 'collateFn'/);
    expect(() => new DataLoader(ds, { shuffle: 1 } as never)).toThrow(/shuffle must be a boolean; got 1/);
    expect(() => new DataLoader(x as never)).toThrow(/DataLoader: dataset must be a Dataset \(getItem\(i\) and length\), an object with both, or an array/);
    expect(() => new TensorDataset(x, tpu.arange(5))).toThrow(/TensorDataset: every tensor needs the same size of dim 0; tensor 1 has shape \[5\] but tensor 0 has \[4, 2\]/);
    expect(() => new TensorDataset()).toThrow(/needs at least one tensor/);
    expect(() => new TensorDataset(x, [1, 2, 3, 4] as never)).toThrow(/argument 1 must be a tensor; got an array/);
    expect(() => ds.getItem(4)).toThrow(/TensorDataset.getItem: index 4 is out of range for 4 items/);
    expect(ds.getItem(-1).map((t) => t.tolist())).toEqual([xRow(3), 3]); // negative from the end, as Python's
    expect(() => new Subset(ds, [0, 4])).toThrow(/Subset: indices\[1\]: index 4 is out of range for 4 items/);
    expect(() => defaultCollate([y, 1])).toThrow(/defaultCollate: item of item 1 is a number but of item 0 a tensor/);
    expect(() => defaultCollate([[1, 2], [3]])).toThrow(/item of item 1 has 1 elements but of item 0 2/);
    expect(() => defaultCollate([new Date(0)])).toThrow(/item is a Date; items hold tensors, numbers/);
    class NoLength extends Dataset<number> {
      declare readonly length: number;
      getItem(i: number) {
        return i;
      }
    }
    expect(() => new DataLoader(new NoLength())).toThrow(/DataLoader: dataset.length must be a non-negative integer \(PyTorch's __len__\); got undefined/);
  });
});
