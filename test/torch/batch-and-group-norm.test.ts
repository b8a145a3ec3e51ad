// batchNorm, groupNorm and their modules against PyTorch 2.13: values, gradients of input,
// weight and bias, running statistics after training steps (biased variance to normalize,
// unbiased to update), eval mode, every mode and tpu.compile (replays included).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const X4 = seq('float32', [2, 3, 2, 3], 0.37, -5);
const X3 = seq('float32', [4, 2, 3], 0.61, -11);
const X2 = f32([[1, -2, 0.5], [3, 4, -1], [0.25, 8, 2], [-3, 1, 1]]);
const W3 = f32([1.5, -0.5, 2]);
const B3 = f32([0.25, 1, -2]);
const RM3 = f32([0.5, -1, 2]);
const RV3 = f32([1.5, 0.25, 4]);
/** Per-element weights of the loss Σ w·y (a gradient spread wrongly shows). */
const lossWeights = (n: number) => `torch.arange(1., ${n + 1}).sin()`;
const jsLossWeights = (n: number) => tpu.arange(1, n + 1).to('float32').sin();

/** Σ w·f(x, weight, bias) backward: gradients of x, weight and bias. */
function grads(name: string, inputs: TorchCase['inputs'], js: (x: Tensor, w: Tensor, b: Tensor) => Tensor, py: string, n: number): TorchCase {
  return {
    name,
    inputs,
    js: (x, w, b) => {
      for (const t of [x!, w!, b!]) t.requiresGrad_();
      const y = js(x!, w!, b!);
      y.reshape([-1]).mul(jsLossWeights(n)).sum().backward();
      return [y, x!.grad!, w!.grad!, b!.grad!];
    },
    py: `for t in (x0, x1, x2): t.requires_grad_()\ny = ${py}\n(y.reshape(-1) * ${lossWeights(n)}).sum().backward()\nresult = (y, x0.grad, x1.grad, x2.grad)`,
    rtol: 1e-4,
    atol: 1e-5,
  };
}

const STEPS = 'for t in (x0, x0 * 2 - 1, x0 * x0):\n    m(t)\n';
const stepsJs = (m: { forward(x: Tensor): Tensor }, x: Tensor) => { for (const t of [x, x.mul(2).sub(1), x.mul(x)]) m.forward(t); };

const cases: TorchCase[] = [
  {
    name: 'batchNorm training [N, C, H, W] updates the running stats in place',
    inputs: [X4, RM3, RV3, W3, B3],
    js: (x, rm, rv, w, b) => [F.batchNorm(x, rm!, rv!, { weight: w, bias: b, training: true, momentum: 0.2 }), rm!, rv!],
    py: 'y = F.batch_norm(x0, x1, x2, x3, x4, training=True, momentum=0.2)\nresult = (y, x1, x2)',
    atol: 1e-5,
  },
  {
    name: 'batchNorm training [N, C, L] and [N, C] with default momentum',
    inputs: [X3, f32([0, 1]), f32([1, 2]), X2, RM3, RV3],
    js: (x, rm, rv, x2, rm3, rv3) => [F.batchNorm(x, rm!, rv!, { training: true }), rm!, rv!, F.batchNorm(x2!, rm3!, rv3!, { training: true, eps: 0.1 }), rm3!, rv3!],
    py: 'a = F.batch_norm(x0, x1, x2, training=True)\nb = F.batch_norm(x3, x4, x5, training=True, eps=0.1)\nresult = (a, x1, x2, b, x4, x5)',
    atol: 1e-5,
  },
  {
    name: 'batchNorm training without running stats',
    inputs: [X4],
    js: (x) => F.batchNorm(x, null, null, { training: true }),
    py: 'F.batch_norm(x0, None, None, training=True)',
    atol: 1e-5,
  },
  {
    name: 'batchNorm eval uses the running stats',
    inputs: [X4, RM3, RV3, W3, B3],
    js: (x, rm, rv, w, b) => [F.batchNorm(x, rm!, rv!, { weight: w, bias: b }), F.batchNorm(x, rm!, rv!, { eps: 0.5 })],
    py: '(F.batch_norm(x0, x1, x2, x3, x4), F.batch_norm(x0, x1, x2, eps=0.5))',
    atol: 1e-5,
  },
  {
    name: 'batchNorm bf16 input',
    inputs: [bf16([[[1.5, -2], [3.25, 0.125]], [[7, 1], [-1, 2]], [[0.5, 4], [2, -3]]]), f32([0, 0]), f32([1, 1])],
    js: (x, rm, rv) => [F.batchNorm(x, rm!, rv!, { training: true }), rm!, rv!],
    py: 'y = F.batch_norm(x0, x1, x2, training=True)\nresult = (y, x1, x2)',
  },
  grads('batchNorm training gradients of input, weight, bias', [X4, W3, B3], (x, w, b) => F.batchNorm(x, null, null, { weight: w, bias: b, training: true }), 'F.batch_norm(x0, None, None, x1, x2, training=True)', 36),
  grads('batchNorm training gradients [N, C]', [X2, W3, B3], (x, w, b) => F.batchNorm(x, null, null, { weight: w, bias: b, training: true }), 'F.batch_norm(x0, None, None, x1, x2, training=True)', 12),
  {
    ...grads('batchNorm eval gradients', [X4, W3, B3], (x, w, b) => F.batchNorm(x, tpu.tensor([0.5, -1, 2]), tpu.tensor([1.5, 0.25, 4]), { weight: w, bias: b }), 'F.batch_norm(x0, torch.tensor([0.5, -1, 2]), torch.tensor([1.5, 0.25, 4]), x1, x2)', 36),
  },
  {
    name: 'BatchNorm2d: running stats after three training steps, then eval',
    inputs: [X4],
    js: (x) => {
      const m = new tpu.nn.BatchNorm2d(3);
      stepsJs(m, x!);
      m.eval();
      return [m.forward(x!), m.runningMean!, m.runningVar!, m.numBatchesTracked!];
    },
    py: `m = torch.nn.BatchNorm2d(3)\n${STEPS}m.eval()\nresult = (m(x0), m.running_mean, m.running_var, m.num_batches_tracked)`,
    atol: 1e-5,
  },
  {
    name: 'BatchNorm1d momentum null: cumulative average',
    inputs: [X3],
    js: (x) => {
      const m = new tpu.nn.BatchNorm1d(2, { momentum: null, affine: false });
      stepsJs(m, x!);
      m.eval();
      return [m.forward(x!), m.runningMean!, m.runningVar!, m.numBatchesTracked!];
    },
    py: `m = torch.nn.BatchNorm1d(2, momentum=None, affine=False)\n${STEPS}m.eval()\nresult = (m(x0), m.running_mean, m.running_var, m.num_batches_tracked)`,
    atol: 1e-5,
  },
  {
    name: 'BatchNorm2d bfloat16: outputs, gradients and running stats',
    inputs: [bf16([[[[1.5, -2], [3.25, 0.125]], [[7, 1], [-1, 2]]], [[[0.5, 4], [2, -3]], [[1, 1.75], [-0.25, 6]]]])],
    js: (x) => {
      const m = new tpu.nn.BatchNorm2d(2, { dtype: 'bfloat16' });
      const y = m.forward(x!);
      y.mul(tpu.tensor([[[[1, -2]]], [[[0.5, 3]]]]).to('bfloat16')).sum().backward();
      return [y, m.weight!.grad!, m.bias!.grad!, m.runningMean!, m.runningVar!];
    },
    py: 'm = torch.nn.BatchNorm2d(2, dtype=torch.bfloat16)\ny = m(x0)\n(y * torch.tensor([[[[1., -2]]], [[[0.5, 3]]]]).bfloat16()).sum().backward()\nresult = (y, m.weight.grad, m.bias.grad, m.running_mean, m.running_var)',
  },
  {
    name: 'BatchNorm1d without running stats normalizes by the batch in eval too',
    inputs: [X2],
    js: (x) => new tpu.nn.BatchNorm1d(3, { trackRunningStats: false }).eval().forward(x!),
    py: 'torch.nn.BatchNorm1d(3, track_running_stats=False).eval()(x0)',
    atol: 1e-5,
  },
  {
    name: 'BatchNorm2d training steps replayed by tpu.compile, then eval',
    inputs: [X4],
    js: (x) => {
      const m = new tpu.nn.BatchNorm2d(3, { momentum: 0.3 });
      const cumulative = new tpu.nn.BatchNorm2d(3, { momentum: null });
      const step = tpu.compile((t: Tensor) => [m.forward(t), cumulative.forward(t)]);
      const outs = [x!, x!.mul(2).sub(1), x!.mul(x!)].flatMap((t) => step(t));
      const stats = [m.runningMean!, m.runningVar!, m.numBatchesTracked!, cumulative.runningMean!, cumulative.runningVar!, cumulative.numBatchesTracked!].map((t) => t.clone());
      m.eval(); // a changed training flag traces again
      cumulative.eval();
      return [...outs, ...stats, ...step(x!.add(1))];
    },
    py: 'm = torch.nn.BatchNorm2d(3, momentum=0.3)\nc = torch.nn.BatchNorm2d(3, momentum=None)\nouts = [y for t in (x0, x0 * 2 - 1, x0 * x0) for y in (m(t), c(t))]\nstats = [t.clone() for t in (m.running_mean, m.running_var, m.num_batches_tracked, c.running_mean, c.running_var, c.num_batches_tracked)]\nm.eval()\nc.eval()\nresult = (*outs, *stats, m(x0 + 1), c(x0 + 1))',
    atol: 1e-5,
  },
  {
    name: 'groupNorm [N, C, H, W] with 1, 3 and C groups',
    inputs: [seq('float32', [2, 6, 2, 2], 0.29, -20), f32([1, -1, 2, 0.5, 1.5, -2]), f32([0, 1, -1, 0.5, 0.25, 2])],
    js: (x, w, b) => [F.groupNorm(x, 1), F.groupNorm(x, 3, { weight: w, bias: b }), F.groupNorm(x, 6, { eps: 0.1 })],
    py: '(F.group_norm(x0, 1), F.group_norm(x0, 3, x1, x2), F.group_norm(x0, 6, eps=0.1))',
    atol: 1e-5,
  },
  { name: 'groupNorm [N, C]', inputs: [X2.values.length ? f32([[1, -2, 0.5, 3], [4, -1, 0.25, 8]]) : X2], js: (x) => F.groupNorm(x, 2), py: 'F.group_norm(x0, 2)', atol: 1e-5 },
  { name: 'groupNorm bf16', inputs: [bf16([[[1.5, -2], [3.25, 0.125], [7, 1], [-1, 2]]])], js: (x) => F.groupNorm(x, 2), py: 'F.group_norm(x0, 2)' },
  grads('groupNorm gradients of input, weight, bias', [seq('float32', [2, 4, 3], 0.41, -9), f32([1, -1, 2, 0.5]), f32([0, 1, -1, 0.5])], (x, w, b) => F.groupNorm(x, 2, { weight: w, bias: b }), 'F.group_norm(x0, 2, x1, x2)', 24),
  {
    name: 'channels-last and transposed inputs: values and strides',
    inputs: [seq('float32', [2, 3, 4, 6], 0.23, -30), X3],
    js: (nhwc, x3) => {
      const x = nhwc!.permute(0, 3, 1, 2);
      const t = x3!.transpose(1, 2).contiguous().transpose(1, 2);
      const ys = [F.batchNorm(x, null, null, { training: true }), F.batchNorm(x, tpu.tensor([1, 2, 3, 4, 5, 6]), tpu.ones([6])), F.groupNorm(x, 3), F.batchNorm(t, null, null, { training: true })];
      return [...ys, ...ys.map((y) => tpu.tensor(y.stride()))];
    },
    py: 'x = x0.permute(0, 3, 1, 2)\nt = x1.transpose(1, 2).contiguous().transpose(1, 2)\nys = [F.batch_norm(x, None, None, training=True), F.batch_norm(x, torch.tensor([1., 2, 3, 4, 5, 6]), torch.ones(6)), F.group_norm(x, 3), F.batch_norm(t, None, None, training=True)]\nresult = (*ys, *[torch.tensor(y.stride(), dtype=torch.float32) for y in ys])',
    atol: 1e-5,
  },
  {
    name: 'GroupNorm module',
    inputs: [seq('float32', [2, 4, 3], 0.41, -9)],
    js: (x) => new tpu.nn.GroupNorm(2, 4).forward(x!),
    py: 'torch.nn.GroupNorm(2, 4)(x0)',
    atol: 1e-5,
  },
];

torchTier('batchNorm and groupNorm against PyTorch', cases, { compile: true });

/**
 * A small CNN block as PyTorch users write it, same weights on both sides: forward, backward,
 * the running statistics after the training step, then an eval forward.
 */
class Block extends tpu.nn.Module {
  conv = new tpu.nn.Conv2d(2, 3, 3, { padding: 1 });
  bn = new tpu.nn.BatchNorm2d(3);
  pool = new tpu.nn.AdaptiveAvgPool2d([2, 1]);
  fc = new tpu.nn.Linear(6, 2);
  forward(x: Tensor): Tensor {
    return this.fc.forward(this.pool.forward(this.bn.forward(this.conv.forward(x)).relu()).flatten(1));
  }
}

const CNN_PY = `
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 3, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(3)
        self.pool = torch.nn.AdaptiveAvgPool2d((2, 1))
        self.fc = torch.nn.Linear(6, 2)
    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.bn(self.conv(x)))).flatten(1))
m = Block()
with torch.no_grad():
    m.conv.weight.copy_(x1); m.conv.bias.copy_(x2); m.bn.weight.copy_(x3); m.bn.bias.copy_(x4); m.fc.weight.copy_(x5); m.fc.bias.copy_(x6)
y = m(x0)
(y * torch.tensor([[1., -2], [0.5, 3]])).sum().backward()
m.eval()
result = (y, m(x0), m.conv.weight.grad, m.conv.bias.grad, m.bn.weight.grad, m.bn.bias.grad, m.fc.weight.grad, m.fc.bias.grad, m.bn.running_mean, m.bn.running_var)
`;

torchTier('a conv2d -> BatchNorm2d -> relu -> AdaptiveAvgPool2d -> linear block against PyTorch', [{
  name: 'CNN block forward, backward, running stats, eval',
  inputs: [
    seq('float32', [2, 2, 5, 4], 0.13, -17), seq('float32', [3, 2, 3, 3], 0.021, -20), f32([0.1, -0.2, 0.3]),
    f32([1.5, 0.5, -1]), f32([0.2, -0.1, 0.4]), seq('float32', [2, 6], 0.17, -5), f32([0.05, -0.05]),
  ],
  js: (x, cw, cb, bw, bb, fw, fb) => {
    const m = new Block();
    m.loadStateDict({ ...m.stateDict(), 'conv.weight': cw!, 'conv.bias': cb!, 'bn.weight': bw!, 'bn.bias': bb!, 'fc.weight': fw!, 'fc.bias': fb! });
    const y = m.forward(x!);
    y.mul(tpu.tensor([[1, -2], [0.5, 3]])).sum().backward();
    m.eval();
    return [y, m.forward(x!), m.conv.weight.grad!, m.conv.bias!.grad!, m.bn.weight!.grad!, m.bn.bias!.grad!, m.fc.weight.grad!, m.fc.bias!.grad!, m.bn.runningMean!, m.bn.runningVar!];
  },
  py: CNN_PY,
  rtol: 1e-4,
  atol: 1e-5,
}], { compile: true });

describe('BatchNorm and GroupNorm state and errors', () => {
  it("stateDict keys are PyTorch's; loadStateDict takes a PyTorch-named state; no running stats, no buffers", async () => {
    const bn = new tpu.nn.BatchNorm2d(2);
    expect(Object.keys(bn.stateDict())).toEqual(['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']);
    expect(bn.numBatchesTracked!.dtype).toBe('int64');
    expect(bn.parameters()).toEqual([bn.weight, bn.bias]);
    bn.loadStateDict({
      weight: tpu.tensor([2, 3]), bias: tpu.tensor([0, 1]), running_mean: tpu.tensor([1, -1]),
      running_var: tpu.tensor([4, 9]), num_batches_tracked: tpu.tensor(new BigInt64Array([7n])).reshape([]),
    });
    bn.eval();
    // (x - mean) / sqrt(var + 1e-5) · weight + bias, by hand: x = 3 in channel 0, 2 in channel 1
    const y = await bn.forward(tpu.tensor([[[[3]], [[2]]]])).data();
    expect(y[0]).toBeCloseTo((2 / Math.sqrt(4 + 1e-5)) * 2, 5);
    expect(y[1]).toBeCloseTo((3 / Math.sqrt(9 + 1e-5)) * 3 + 1, 5);
    expect(await bn.numBatchesTracked!.item()).toBe(7);
    expect(Object.keys(new tpu.nn.BatchNorm1d(3, { trackRunningStats: false, affine: false }).stateDict())).toEqual([]);
    expect(Object.keys(new tpu.nn.GroupNorm(1, 3).stateDict())).toEqual(['weight', 'bias']);
  });

  it('a safetensors file of a trained BatchNorm2d loads into PyTorch, and PyTorch\'s back into it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tpu-batch-norm-'));
    tpu.manualSeed(1);
    const x = tpu.randn([4, 3, 2, 2]);
    const bn = new tpu.nn.BatchNorm2d(3);
    for (const t of [x, x.mul(3).add(1)]) bn.forward(t);
    bn.eval();
    await tpu.save(bn.stateDict(), path.join(dir, 'ours.safetensors'));
    await tpu.save({ x }, path.join(dir, 'x.safetensors'));
    // PyTorch side with a minimal safetensors reader and writer (8-byte header length, JSON header, raw data).
    const py = `
import json, struct, sys, torch
DT = {"F32": torch.float32, "I64": torch.int64}
NAME = {v: k for k, v in DT.items()}
def load(p):
    b = open(p, "rb").read(); n = struct.unpack("<Q", b[:8])[0]; h = json.loads(b[8:8 + n]); h.pop("__metadata__", None)
    return {k: torch.frombuffer(bytearray(b[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]]), dtype=DT[v["dtype"]]).reshape(v["shape"]) for k, v in h.items()}
def save(state, p):
    h, data = {}, b""
    for k, t in state.items():
        raw = t.contiguous().numpy().tobytes(); h[k] = {"dtype": NAME[t.dtype], "shape": list(t.shape), "data_offsets": [len(data), len(data) + len(raw)]}; data += raw
    hb = json.dumps(h).encode(); open(p, "wb").write(struct.pack("<Q", len(hb)) + hb + data)
d = sys.argv[1]
m = torch.nn.BatchNorm2d(3); m.load_state_dict(load(d + "/ours.safetensors"), strict=True); m.eval()
x = load(d + "/x.safetensors")["x"]
y = m(x)
m.train(); m(x * -2 + 0.5)
save(m.state_dict(), d + "/theirs.safetensors")
print(json.dumps({"y": y.reshape(-1).tolist(), "batches": int(m.num_batches_tracked), "mean": m.running_mean.tolist(), "var": m.running_var.tolist()}))
`;
    const run = spawnSync('python3', ['-c', py, dir], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const torchSide = JSON.parse(run.stdout) as { y: number[]; batches: number; mean: number[]; var: number[] };
    const ours = Array.from(await bn.forward(x).data());
    torchSide.y.forEach((v, i) => expect(ours[i]).toBeCloseTo(v, 5));
    const loaded = new tpu.nn.BatchNorm2d(3);
    loaded.loadStateDict(await tpu.load(path.join(dir, 'theirs.safetensors')));
    expect(await loaded.numBatchesTracked!.item()).toBe(torchSide.batches);
    expect(torchSide.batches).toBe(3);
    Array.from(await loaded.runningMean!.data()).forEach((v, i) => expect(v).toBeCloseTo(torchSide.mean[i]!, 5));
    Array.from(await loaded.runningVar!.data()).forEach((v, i) => expect(v).toBeCloseTo(torchSide.var[i]!, 5));
  });

  it('bad inputs are errors naming the argument', () => {
    const x = tpu.zeros([2, 3, 4, 4]);
    expect(() => new tpu.nn.BatchNorm2d(4).forward(x)).toThrow(/BatchNorm2d: input has 3 channels .* numFeatures is 4/);
    expect(() => new tpu.nn.BatchNorm2d(3).forward(tpu.zeros([2, 3, 4]))).toThrow(/BatchNorm2d: input must be 4-D \[N, C, H, W\]; got \[2, 3, 4\]/);
    expect(() => new tpu.nn.BatchNorm1d(3).forward(x)).toThrow(/BatchNorm1d: input must be 2-D \[N, C\] or 3-D \[N, C, L\]/);
    expect(() => F.batchNorm(x, tpu.zeros([4]), tpu.ones([3]))).toThrow(/batchNorm: runningMean must be null or a tensor of shape \[3\]/);
    expect(() => F.batchNorm(x, tpu.zeros([3]), tpu.ones([3]), { weight: tpu.ones([2]) })).toThrow(/batchNorm: weight must be a tensor of shape \[3\]; got \[2\]/);
    expect(() => F.batchNorm(x, null, null)).toThrow(/batchNorm: runningMean and runningVar must be tensors when training is false/);
    expect(() => F.batchNorm(x, null, null, { trainig: true } as never)).toThrow(/batchNorm: unknown option 'trainig'/);
    expect(() => F.batchNorm(tpu.zeros([1, 3]), null, null, { training: true })).toThrow(/batchNorm: expected more than 1 value per channel when training/);
    expect(() => F.batchNorm(x, null, null, { training: true, momentum: null as never })).toThrow(/batchNorm: momentum must be a finite number/);
    expect(() => F.groupNorm(x, 2)).toThrow(/groupNorm: numGroups must be a positive integer dividing the input's 3 channels .*; got 2/);
    expect(() => F.groupNorm(x, 3, { bias: tpu.ones([4]) })).toThrow(/groupNorm: bias must be a tensor of shape \[3\]; got \[4\]/);
    expect(() => F.groupNorm(x, 3, { epsilon: 1 } as never)).toThrow(/groupNorm: unknown option 'epsilon'/);
    expect(() => F.groupNorm(tpu.zeros([3]), 1)).toThrow(/groupNorm: input must be a tensor \[N, C, \*\] of at least 2 dims; got \[3\]/);
    expect(() => new tpu.nn.GroupNorm(4, 6)).toThrow(/GroupNorm: numChannels 6 must be divisible by numGroups 4/);
    expect(() => new tpu.nn.BatchNorm2d(3, { momentun: 0.1 } as never)).toThrow(/nn.BatchNorm2d: unknown option 'momentun'/);
  });

  it('a failed call leaves the running stats as they were', async () => {
    const rm = tpu.tensor([1, 2, 3]);
    expect(() => F.batchNorm(tpu.ones([2, 3]), rm, tpu.ones([3]), { training: true, weight: tpu.ones([2]) })).toThrow(/weight/);
    expect(Array.from(await rm.data())).toEqual([1, 2, 3]);
  });
});
