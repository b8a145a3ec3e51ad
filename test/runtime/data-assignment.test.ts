// `w.data = v`, as PyTorch users set weights by hand: the values land in w, outside autograd,
// and the next forward and backward use them; v of another dtype gives w that dtype. Expected
// values are worked by hand, and against PyTorch 2.13 for a dtype change's optimizer state.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it("writes v's values into a module's weight and bias, which the forward then uses", () => {
    tpu.mode(mode);
    const layer = new tpu.nn.Linear(3, 2);
    layer.weight.data = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    layer.bias!.data = tpu.tensor([1, -1]);
    // [1, 0, 1] · rows + bias: 1 + 3 + 1 = 5, 4 + 6 - 1 = 9
    expect(layer.forward(tpu.tensor([[1, 0, 1]])).tolist()).toEqual([[5, 9]]);
    expect(layer.weight.requiresGrad).toBe(true);
    expect(layer.weight.isLeaf).toBe(true);
  });

  it('is outside autograd: the leaf keeps requiring grad, and the gradient is computed at the new values', () => {
    tpu.mode(mode);
    const w = tpu.tensor([1, 2], { requiresGrad: true });
    const source = tpu.tensor([3, -4], { requiresGrad: true });
    w.data = source;
    w.mul(w).sum().backward(); // d/dw sum(w²) = 2w at w = [3, -4]
    expect(w.grad!.tolist()).toEqual([6, -8]);
    expect(source.grad).toBeNull();
  });

  it('keeps data() readable as the values', async () => {
    tpu.mode(mode);
    const w = tpu.zeros([2]);
    w.data = tpu.tensor([0.5, 1.5]);
    expect([...(await w.data())]).toEqual([0.5, 1.5]);
  });

  it('refuses a value of another shape, an integer value for a leaf that requires grad, or no tensor, naming what it expected; w is unchanged', () => {
    tpu.mode(mode);
    const w = tpu.tensor([[1, 2], [3, 4]], { requiresGrad: true });
    expect(() => { w.data = tpu.ones([4]); }).toThrow('x.data = v: v must be a tensor of shape [2, 2], as x is; got [4] float32 (make a new tensor to change the shape)');
    // PyTorch: "data set to a tensor that requires gradients must be floating point or complex dtype"
    expect(() => { w.data = tpu.ones([2, 2], { dtype: 'int32' }); }).toThrow('x.data = v: x requires grad, so v must be of a floating-point dtype (float32, bfloat16), as in PyTorch; got [2, 2] int32');
    expect(() => { (w as unknown as { data: unknown }).data = [[0, 0], [0, 0]]; }).toThrow('x.data = v: v must be a tensor of shape [2, 2]; got an object of type Array');
    expect([w.dtype, w.tolist()]).toEqual(['float32', [[1, 2], [3, 4]]]);
  });

  it("v of another dtype gives x that dtype, as in PyTorch: the module computes in it, and a tensor that does not require grad takes an integer dtype", () => {
    tpu.mode(mode);
    const layer = new tpu.nn.Linear(2, 1);
    layer.weight.data = tpu.tensor([[0.5, 3]], { dtype: 'bfloat16' });
    layer.bias!.data = tpu.tensor([1], { dtype: 'bfloat16' });
    expect([layer.weight.dtype, layer.weight.requiresGrad, layer.parameters()[0]]).toEqual(['bfloat16', true, layer.weight]);
    const y = layer.forward(tpu.tensor([[2, 1]], { dtype: 'bfloat16' })); // 0.5·2 + 3·1 + 1 = 5
    expect([y.dtype, y.tolist()]).toEqual(['bfloat16', [[5]]]);
    const t = tpu.zeros([2]);
    t.data = tpu.tensor([7, 8], { dtype: 'int32' });
    expect([t.dtype, t.tolist()]).toEqual(['int32', [7, 8]]);
  });
});

describe("w.data = v of another dtype: .grad and an optimizer's state as PyTorch 2.13 keeps them", () => {
  // One float32 step, then w.data = w.to(bfloat16), a bfloat16 gradient of 0.5 and a second step.
  const cases = {
    SGD: { js: (p: Tensor[]) => new tpu.optim.SGD(p, { lr: 0.1, momentum: 0.9 }), py: 'torch.optim.SGD(p, lr=0.1, momentum=0.9)' },
    RMSprop: { js: (p: Tensor[]) => new tpu.optim.RMSprop(p, { lr: 0.1 }), py: 'torch.optim.RMSprop(p, lr=0.1)' },
    Adagrad: { js: (p: Tensor[]) => new tpu.optim.Adagrad(p, { lr: 0.1 }), py: 'torch.optim.Adagrad(p, lr=0.1)' },
    Adam: { js: (p: Tensor[]) => new tpu.optim.Adam(p, { lr: 0.1 }), py: 'torch.optim.Adam(p, lr=0.1)' },
  };
  const script = `
import json, torch
out = {}
for name, make in [${Object.entries(cases).map(([k, c]) => `('${k}', lambda p: ${c.py})`).join(', ')}]:
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0])); opt = make([w])
    w.grad = torch.tensor([1.0, 0.25, -1.0]); opt.step()
    w.data = w.data.to(torch.bfloat16); w.grad = torch.full((3,), 0.5, dtype=torch.bfloat16)
    try:
        opt.step(); out[name] = {'dtype': str(w.dtype), 'values': w.detach().float().tolist(), 'state': sorted(str(v.dtype) for k, v in opt.state[w].items() if k != 'step')}
    except RuntimeError as e:
        out[name] = {'error': str(e)}
w = torch.nn.Parameter(torch.ones(3)); (w * 2).sum().backward()
w.data = torch.ones(3, dtype=torch.bfloat16); (w * 3).sum().backward()
out['grad'] = {'dtype': str(w.grad.dtype), 'values': w.grad.tolist()}
print(json.dumps(out))`;
  const run = spawnSync('python3', ['-c', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 (torch) failed: ${run.stderr}`);
  const want = JSON.parse(run.stdout) as Record<string, { dtype?: string; values?: number[]; state?: string[]; error?: string }>;
  const torchDType = (d: string) => `torch.${d}`;

  it.each(['debug', 'strict', 'fused'] as const)('%s mode: SGD, RMSprop and Adagrad step with their float32 state; Adam refuses, as PyTorch does', (mode) => {
    tpu.withMode(mode, () => {
      for (const [name, c] of Object.entries(cases)) {
        const w = tpu.tensor([1, -2, 3], { requiresGrad: true });
        const opt = c.js([w]);
        w.grad = tpu.tensor([1, 0.25, -1]);
        opt.step();
        w.data = w.to('bfloat16');
        w.grad = tpu.full([3], 0.5, { dtype: 'bfloat16' });
        const ref = want[name]!;
        if (ref.error !== undefined) {
          expect(ref.error, name).toMatch(/expected dtype float/);
          expect(() => opt.step(), name).toThrow(`${name}.step: its state expAvg of the parameter [3] bfloat16 on tpu:0 is float32 on tpu:0: model.to() and w.data = v convert the parameters`);
          continue;
        }
        opt.step();
        const state = Object.entries(opt.stateDict().state[0]!).filter(([k]) => k !== 'step').map(([, s]) => torchDType((s as Tensor).dtype)).sort();
        expect([torchDType(w.dtype), w.tolist(), state], name).toEqual([ref.dtype, ref.values, ref.state]);
      }
    });
  });

  it('.grad keeps its dtype and the next backward adds to it', () => {
    const w = tpu.ones([3], { requiresGrad: true });
    w.mul(2).sum().backward();
    w.data = tpu.ones([3], { dtype: 'bfloat16' });
    w.mul(3).sum().backward();
    expect([torchDType(w.grad!.dtype), w.grad!.tolist()]).toEqual([want.grad!.dtype, want.grad!.values]);
  });
});
