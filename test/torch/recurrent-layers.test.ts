// tpu.nn.RNN, LSTM, GRU and their cells against PyTorch 2.13's torch.nn ones given the same
// weights (ours copied into PyTorch's parameters() in order): outputs and final states for one
// and two layers, bidirectional, batchFirst, given and absent states, unbatched input, LSTM's
// projSize, inter-layer dropout (p = 1 in training is exact), and the gradients of a loss with
// respect to the input, the states and every parameter, in every mode and under tpu.compile;
// stateDict keys and shapes against PyTorch's state_dict(); bad shapes named.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { torchTier, uniform, type InputSpec, type TorchCase } from './torch-tier.js';

const { nn } = tpu;
type Net = InstanceType<typeof nn.Module>;

interface RecurrentCase {
  name: string;
  /** Our module, and PyTorch's constructor expression. */
  make: () => Net;
  torch: string;
  /** The data inputs (after the parameters): i0, i1, ... on PyTorch's side. */
  data: InputSpec[];
  js: (m: Net, ...data: Tensor[]) => Tensor[];
  /** Lines over m, i0, i1, ... that set `outs`, a list of tensors. */
  py: string;
  /** Also compare the gradients of Σ w·out (w = 1, 2, ... per output) w.r.t. these data inputs and every parameter. */
  gradsOf?: number[];
  train?: boolean;
}

const WEIGHTED_PY = 'sum((o * (torch.arange(o.numel()) + 1).reshape(o.shape).float()).sum() for o in outs).backward()';

/** A case given the module's parameters as inputs x0 .. x(k-1), copied into PyTorch's in parameters() order. */
function recurrent(c: RecurrentCase): TorchCase {
  const shapes = c.make().parameters().map((p) => p.shape);
  const params = shapes.map((s, i) => uniform(s, 100 + i));
  const k = params.length;
  const grads = c.gradsOf ?? null;
  const dataNames = c.data.map((_, i) => `i${i}`);
  return {
    name: c.name,
    inputs: [...params, ...c.data],
    rtol: grads ? 1e-4 : 1e-5,
    atol: grads ? 1e-4 : 1e-5,
    signedZeros: false,
    js: (...xs) => {
      const m = c.make();
      tpu.noGrad(() => m.parameters().forEach((p, i) => (p as Tensor).copy_(xs[i]!)));
      if (!c.train) m.eval();
      const data = xs.slice(k);
      grads?.forEach((i) => data[i]!.requiresGrad_());
      const outs = c.js(m, ...data);
      if (!grads) return outs;
      outs.map((o) => o.mul(tpu.arange(o.numel()).reshape([...o.shape]).add(1).to('float32')).sum()).reduce((a, b) => a.add(b)).backward();
      return [...outs, ...grads.map((i) => data[i]!.grad!), ...m.parameters().map((p) => (p as Tensor).grad!)];
    },
    py: [
      `m = ${c.torch}`,
      `${dataNames.length ? `${dataNames.join(', ')}, = ${c.data.map((_, i) => `x${k + i}`).join(', ')},` : ''}`,
      `with torch.no_grad():\n    for p, v in zip(m.parameters(), [${params.map((_, i) => `x${i}`).join(', ')}]): p.copy_(v)`,
      c.train ? 'm.train()' : 'm.eval()',
      ...(grads ?? []).map((i) => `i${i}.requires_grad_()`),
      c.py,
      ...(grads ? [WEIGHTED_PY, `result = outs + [${grads.map((i) => `i${i}.grad`).join(', ')}${grads.length ? ', ' : ''}*[p.grad for p in m.parameters()]]`] : ['result = outs']),
    ].join('\n'),
  };
}

const SEQ = uniform([5, 2, 3], 1, -2, 2); // [L, N, inputSize]
const SEQ_BATCH_FIRST = uniform([2, 5, 3], 2, -2, 2); // [N, L, inputSize]
const SEQ_UNBATCHED = uniform([5, 3], 3, -2, 2);

const lstmCases: TorchCase[] = [
  recurrent({
    name: 'LSTM, one layer, no state given',
    make: () => new nn.LSTM(3, 4), torch: 'torch.nn.LSTM(3, 4)', data: [SEQ],
    js: (m, x) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!); return [y, h, c]; },
    py: 'y, (h, c) = m(i0)\nouts = [y, h, c]',
  }),
  recurrent({
    name: 'LSTM, two layers, bidirectional, batchFirst, h0 and c0 given, by position',
    make: () => new nn.LSTM(3, 4, 2, { batchFirst: true, bidirectional: true }), torch: 'torch.nn.LSTM(3, 4, 2, True, True, 0.0, True)',
    data: [SEQ_BATCH_FIRST, uniform([4, 2, 4], 4), uniform([4, 2, 4], 5)],
    js: (m, x, h0, c0) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!, [h0!, c0!]); return [y, h, c]; },
    py: 'y, (h, c) = m(i0, (i1, i2))\nouts = [y, h, c]',
  }),
  recurrent({
    name: 'LSTM, two layers, unbatched input with 2-D h0 and c0, no bias',
    make: () => new nn.LSTM(3, 4, 2, { bias: false }), torch: 'torch.nn.LSTM(3, 4, 2, bias=False)',
    data: [SEQ_UNBATCHED, uniform([2, 4], 6), uniform([2, 4], 7)],
    js: (m, x, h0, c0) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!, [h0!, c0!]); return [y, h, c]; },
    py: 'y, (h, c) = m(i0, (i1, i2))\nouts = [y, h, c]',
  }),
  recurrent({
    name: 'LSTM with projSize, two layers, bidirectional',
    make: () => new nn.LSTM(3, 4, 2, { projSize: 2, bidirectional: true }), torch: 'torch.nn.LSTM(3, 4, 2, proj_size=2, bidirectional=True)', data: [SEQ],
    js: (m, x) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!); return [y, h, c]; },
    py: 'y, (h, c) = m(i0)\nouts = [y, h, c]',
  }),
  recurrent({
    name: 'LSTM in training with dropout 1 between layers (exact: the second layer sees zeros)',
    make: () => new nn.LSTM(3, 4, 2, { dropout: 1 }), torch: 'torch.nn.LSTM(3, 4, 2, dropout=1.0)', data: [SEQ], train: true,
    js: (m, x) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!); return [y, h, c]; },
    py: 'y, (h, c) = m(i0)\nouts = [y, h, c]',
  }),
  recurrent({
    name: 'LSTM in eval with dropout 0.5: no dropout',
    make: () => new nn.LSTM(3, 4, 2, { dropout: 0.5 }), torch: 'torch.nn.LSTM(3, 4, 2, dropout=0.5)', data: [SEQ],
    js: (m, x) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!); return [y, h, c]; },
    py: 'y, (h, c) = m(i0)\nouts = [y, h, c]',
  }),
  recurrent({
    name: 'LSTM gradients: input, h0, c0 and every parameter, two layers, bidirectional',
    make: () => new nn.LSTM(3, 4, 2, { bidirectional: true }), torch: 'torch.nn.LSTM(3, 4, 2, bidirectional=True)',
    data: [SEQ, uniform([4, 2, 4], 8), uniform([4, 2, 4], 9)], gradsOf: [0, 1, 2],
    js: (m, x, h0, c0) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!, [h0!, c0!]); return [y, h, c]; },
    py: 'y, (h, c) = m(i0, (i1, i2))\nouts = [y, h, c]',
  }),
  recurrent({
    name: 'LSTM gradients with projSize',
    make: () => new nn.LSTM(3, 4, { projSize: 3 }), torch: 'torch.nn.LSTM(3, 4, proj_size=3)', data: [SEQ], gradsOf: [0],
    js: (m, x) => { const [y, [h, c]] = (m as InstanceType<typeof nn.LSTM>).forward(x!); return [y, h, c]; },
    py: 'y, (h, c) = m(i0)\nouts = [y, h, c]',
  }),
];

const gruAndRnnCases: TorchCase[] = [
  recurrent({
    name: 'GRU, one layer, no state given',
    make: () => new nn.GRU(3, 4), torch: 'torch.nn.GRU(3, 4)', data: [SEQ],
    js: (m, x) => (m as InstanceType<typeof nn.GRU>).forward(x!),
    py: 'outs = list(m(i0))',
  }),
  recurrent({
    name: 'GRU, two layers, bidirectional, batchFirst, h0 given',
    make: () => new nn.GRU(3, 4, 2, { batchFirst: true, bidirectional: true }), torch: 'torch.nn.GRU(3, 4, 2, batch_first=True, bidirectional=True)',
    data: [SEQ_BATCH_FIRST, uniform([4, 2, 4], 10)],
    js: (m, x, h0) => (m as InstanceType<typeof nn.GRU>).forward(x!, h0!),
    py: 'outs = list(m(i0, i1))',
  }),
  recurrent({
    name: 'GRU, unbatched input, two layers, no bias',
    make: () => new nn.GRU(3, 4, 2, { bias: false }), torch: 'torch.nn.GRU(3, 4, 2, bias=False)', data: [SEQ_UNBATCHED, uniform([2, 4], 11)],
    js: (m, x, h0) => (m as InstanceType<typeof nn.GRU>).forward(x!, h0!),
    py: 'outs = list(m(i0, i1))',
  }),
  recurrent({
    name: 'GRU gradients: input, h0 and every parameter, two layers, bidirectional',
    make: () => new nn.GRU(3, 4, 2, { bidirectional: true }), torch: 'torch.nn.GRU(3, 4, 2, bidirectional=True)',
    data: [SEQ, uniform([4, 2, 4], 12)], gradsOf: [0, 1],
    js: (m, x, h0) => (m as InstanceType<typeof nn.GRU>).forward(x!, h0!),
    py: 'outs = list(m(i0, i1))',
  }),
  recurrent({
    name: 'RNN tanh, two layers, bidirectional',
    make: () => new nn.RNN(3, 4, 2, { bidirectional: true }), torch: 'torch.nn.RNN(3, 4, 2, bidirectional=True)', data: [SEQ],
    js: (m, x) => (m as InstanceType<typeof nn.RNN>).forward(x!),
    py: 'outs = list(m(i0))',
  }),
  recurrent({
    name: "RNN relu by position, batchFirst, hx given, no bias",
    make: () => new nn.RNN(3, 4, 1, 'relu', { bias: false, batchFirst: true }), torch: "torch.nn.RNN(3, 4, 1, 'relu', False, True)",
    data: [SEQ_BATCH_FIRST, uniform([1, 2, 4], 13)],
    js: (m, x, h0) => (m as InstanceType<typeof nn.RNN>).forward(x!, h0!),
    py: 'outs = list(m(i0, i1))',
  }),
  recurrent({
    name: 'RNN unbatched, relu by name',
    make: () => new nn.RNN(3, 4, { nonlinearity: 'relu' }), torch: "torch.nn.RNN(3, 4, nonlinearity='relu')", data: [SEQ_UNBATCHED],
    js: (m, x) => (m as InstanceType<typeof nn.RNN>).forward(x!),
    py: 'outs = list(m(i0))',
  }),
  recurrent({
    name: 'RNN gradients: input, hx and every parameter, two layers',
    make: () => new nn.RNN(3, 4, 2), torch: 'torch.nn.RNN(3, 4, 2)', data: [SEQ, uniform([2, 2, 4], 14)], gradsOf: [0, 1],
    js: (m, x, h0) => (m as InstanceType<typeof nn.RNN>).forward(x!, h0!),
    py: 'outs = list(m(i0, i1))',
  }),
];

const STEP = uniform([2, 3], 20, -2, 2);
const cellCases: TorchCase[] = [
  recurrent({
    name: 'LSTMCell: batched with [h, c], unbatched without',
    make: () => new nn.LSTMCell(3, 4), torch: 'torch.nn.LSTMCell(3, 4)', data: [STEP, uniform([2, 4], 21), uniform([2, 4], 22), uniform([3], 23)],
    js: (m, x, h, c, v) => { const cell = m as InstanceType<typeof nn.LSTMCell>; return [...cell.forward(x!, [h!, c!]), ...cell.forward(v!)]; },
    py: 'outs = [*m(i0, (i1, i2)), *m(i3)]',
  }),
  recurrent({
    name: 'GRUCell and RNNCell (relu, no bias)',
    make: () => new nn.GRUCell(3, 4), torch: 'torch.nn.GRUCell(3, 4)', data: [STEP, uniform([2, 4], 24), uniform([3], 25)],
    js: (m, x, h, v) => { const cell = m as InstanceType<typeof nn.GRUCell>; return [cell.forward(x!, h!), cell.forward(v!)]; },
    py: 'outs = [m(i0, i1), m(i2)]',
  }),
  recurrent({
    name: 'RNNCell relu without bias, by position',
    make: () => new nn.RNNCell(3, 4, false, 'relu'), torch: "torch.nn.RNNCell(3, 4, False, 'relu')", data: [STEP, uniform([2, 4], 26)],
    js: (m, x, h) => [(m as InstanceType<typeof nn.RNNCell>).forward(x!, h!)],
    py: 'outs = [m(i0, i1)]',
  }),
  recurrent({
    name: 'LSTMCell gradients over three steps',
    make: () => new nn.LSTMCell(3, 4), torch: 'torch.nn.LSTMCell(3, 4)', data: [uniform([3, 2, 3], 27, -2, 2)], gradsOf: [0],
    js: (m, xs) => {
      const cell = m as InstanceType<typeof nn.LSTMCell>;
      let s = cell.forward(xs!.select(0, 0));
      for (let t = 1; t < 3; t++) s = cell.forward(xs!.select(0, t), s);
      return s;
    },
    py: 's = m(i0[0])\nfor t in range(1, 3): s = m(i0[t], s)\nouts = list(s)',
  }),
  recurrent({
    name: 'GRUCell gradients',
    make: () => new nn.GRUCell(3, 4), torch: 'torch.nn.GRUCell(3, 4)', data: [STEP, uniform([2, 4], 28)], gradsOf: [0, 1],
    js: (m, x, h) => [(m as InstanceType<typeof nn.GRUCell>).forward(x!, h!)],
    py: 'outs = [m(i0, i1)]',
  }),
];

torchTier('tpu.nn.LSTM follows torch.nn.LSTM', lstmCases, { compile: true });
torchTier('tpu.nn.GRU and tpu.nn.RNN follow torch.nn', gruAndRnnCases, { compile: true });
torchTier('tpu.nn.LSTMCell, GRUCell and RNNCell follow torch.nn', cellCases, { compile: true });

describe('tpu.nn recurrent layers', () => {
  it("name their parameters and shape them as PyTorch's state_dict()", () => {
    const ours = {
      lstm: new nn.LSTM(3, 4, 2, { bidirectional: true, projSize: 2 }), gru: new nn.GRU(3, 5, { bias: false }), rnn: new nn.RNN(2, 3, 2),
      lstmCell: new nn.LSTMCell(3, 4), gruCell: new nn.GRUCell(3, 4, { bias: false }), rnnCell: new nn.RNNCell(3, 4),
    };
    const py = `import json, torch
ms = {"lstm": torch.nn.LSTM(3, 4, 2, bidirectional=True, proj_size=2), "gru": torch.nn.GRU(3, 5, bias=False), "rnn": torch.nn.RNN(2, 3, 2),
      "lstmCell": torch.nn.LSTMCell(3, 4), "gruCell": torch.nn.GRUCell(3, 4, bias=False), "rnnCell": torch.nn.RNNCell(3, 4)}
print(json.dumps({k: [[n, list(t.shape)] for n, t in m.state_dict().items()] for k, m in ms.items()}))`;
    const run = spawnSync('python3', ['-c', py], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const theirs = JSON.parse(run.stdout) as Record<string, [string, number[]][]>;
    for (const [k, m] of Object.entries(ours)) {
      expect(Object.entries(m.stateDict()).map(([n, t]) => [n, [...t.shape]]), k).toEqual(theirs[k]);
    }
  });

  it('initializes every parameter in U(-1/√hidden, 1/√hidden)', async () => {
    tpu.manualSeed(1);
    const lstm = new nn.LSTM(3, 16, 2, { projSize: 4 });
    for (const p of lstm.parameters()) {
      const v = await (p as Tensor).data();
      expect(Math.max(...Array.from(v, Math.abs))).toBeLessThanOrEqual(0.25);
      expect(Math.max(...Array.from(v, Math.abs))).toBeGreaterThan(0.2); // spread over the range, not zeros
    }
  });

  it('name a bad input, a bad state shape and bad arguments', () => {
    const lstm = new nn.LSTM(3, 4, 2);
    expect(() => lstm.forward(tpu.zeros([5, 2, 6]))).toThrow(/nn\.LSTM: input's last dim must be inputSize 3; got input of shape \[5, 2, 6\]/);
    expect(() => lstm.forward(tpu.zeros([5]))).toThrow(/nn\.LSTM: input must be 2-D \[L, inputSize\] \(unbatched\) or 3-D \[L, N, inputSize\]; got \[5\]/);
    expect(() => lstm.forward(tpu.zeros([5, 2, 3]), [tpu.zeros([1, 2, 4]), tpu.zeros([2, 2, 4])])).toThrow(/nn\.LSTM: h0 must have shape \[2, 2, 4\] for input of shape \[5, 2, 3\]; got \[1, 2, 4\]/);
    expect(() => lstm.forward(tpu.zeros([5, 3]), [tpu.zeros([2, 4]), tpu.zeros([2, 1, 4])])).toThrow(/nn\.LSTM: c0 must have shape \[2, 4\] for input of shape \[5, 3\]; got \[2, 1, 4\]/);
    expect(() => lstm.forward(tpu.zeros([5, 2, 3]), tpu.zeros([2, 2, 4]) as never)).toThrow(/nn\.LSTM: hx must be \[h0, c0\]/);
    expect(() => new nn.GRU(3, 4, { batchFirst: true }).forward(tpu.zeros([2, 5, 3]), tpu.zeros([1, 5, 4]))).toThrow(/nn\.GRU: hx must have shape \[1, 2, 4\] for input of shape \[2, 5, 3\]; got \[1, 5, 4\]/);
    expect(() => new nn.RNN(3, 4).forward(tpu.zeros([0, 2, 3]))).toThrow(/nn\.RNN: the sequence must have at least one step/);
    expect(() => new nn.RNN(3, 4).forward(tpu.zeros([5, 2, 3], { dtype: 'int32' }))).toThrow(/nn\.RNN: input must be float32 as the layer's weights; got int32/);
    expect(() => new nn.RNN(3, 4, { nonlinearity: 'sigmoid' as never })).toThrow(/nn\.RNN: nonlinearity must be 'tanh' or 'relu'; got "sigmoid"/);
    expect(() => new nn.LSTM(3, 4, { projSize: 4 })).toThrow(/nn\.LSTM: projSize must be smaller than hiddenSize \(4\); got 4/);
    expect(() => new nn.GRU(3, 4, { dropout: 2 })).toThrow(/nn\.GRU: dropout must be a probability in \[0, 1\]; got 2/);
    expect(() => new nn.GRU(3, 0)).toThrow(/nn\.GRU: hiddenSize must be a positive integer; got 0/);
    expect(() => new nn.GRU(3, 4, { batch_first: true } as never)).toThrow(/nn\.GRU: unknown option 'batch_first' \(did you mean 'batchFirst'\?\)/);
    expect(() => new nn.LSTMCell(3, 4).forward(tpu.zeros([2, 3]), [tpu.zeros([2, 4]), tpu.zeros([4])])).toThrow(/nn\.LSTMCell: c must have shape \[2, 4\] for input of shape \[2, 3\]; got \[4\]/);
    expect(() => new nn.GRUCell(3, 4).forward(tpu.zeros([2, 2, 3]))).toThrow(/nn\.GRUCell: input must be 1-D \[inputSize\] or 2-D \[N, inputSize\]; got \[2, 2, 3\]/);
  });

  it("prints as PyTorch's repr, camelCase", () => {
    expect(String(new nn.LSTM(3, 4, 2, { batchFirst: true, bidirectional: true }))).toBe('LSTM(3, 4, numLayers=2, batchFirst=true, bidirectional=true)');
    expect(String(new nn.RNNCell(3, 4, { nonlinearity: 'relu' }))).toBe("RNNCell(3, 4, nonlinearity='relu')");
  });

  it('trains: a compiled LSTM step lowers the loss of a fixed batch', async () => {
    tpu.manualSeed(0);
    const lstm = new nn.LSTM(2, 8, { batchFirst: true });
    const head = new nn.Linear(8, 1);
    const opt = new tpu.optim.Adam([...lstm.parameters(), ...head.parameters()] as Tensor[], { lr: 0.05 });
    const x = tpu.randn([4, 6, 2]);
    const target = x.sum([1, 2]).unsqueeze(1).mul(0.1);
    const step = tpu.compile((x: Tensor) => {
      opt.zeroGrad();
      const [out] = lstm.forward(x);
      const loss = head.forward(out.select(1, -1)).sub(target).square().mean();
      loss.backward();
      opt.step();
      return loss;
    });
    const first = await step(x).item();
    let last = first;
    for (let i = 0; i < 30; i++) last = await step(x).item();
    expect(last).toBeLessThan(first * 0.2);
  });
});
