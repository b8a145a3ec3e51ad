// model(x) runs model.forward(x), as PyTorch's Module.__call__: in every mode, inside a
// forward (`this.fc(x)`), under tpu.compile, and in a cell whose operators are dispatched at
// run time (no types to rewrite the call from). Expected values are worked by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import type { SessionFactory } from '../../kernel/language-session.js';
import { SessionDriver } from '../session/recording-publisher.js';

const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };

const { nn } = tpu;
afterEach(() => tpu.mode('strict'));

class TwoLayer extends nn.Module {
  fc1 = new nn.Linear(2, 2);
  fc2 = new nn.Linear(2, 1);
  forward(x: Tensor): Tensor {
    const call = (m: nn.Linear, v: Tensor) => (m as unknown as (v: Tensor) => Tensor)(v);
    return call(this.fc2, call(this.fc1, x).relu());
  }
}

/** fc1 = [[1, -1], [2, 0]] + [0, -5], fc2 = [1, 1] + 0.5: x = [3, 1] gives relu([2, 1]) = [2, 1], then 3.5. */
function handSet(m: TwoLayer): void {
  tpu.noGrad(() => {
    m.fc1.weight.copy_(tpu.tensor([[1, -1], [2, 0]]));
    m.fc1.bias!.copy_(tpu.tensor([0, -5]));
    m.fc2.weight.copy_(tpu.tensor([[1, 1]]));
    m.fc2.bias!.copy_(tpu.tensor([0.5]));
  });
}

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('model(x) is model.forward(x), also for submodules called inside forward; gradients reach the parameters', () => {
    tpu.mode(mode);
    const m = new TwoLayer();
    handSet(m);
    const call = m as unknown as (x: Tensor) => Tensor;
    const y = call(tpu.tensor([[3, 1]]));
    expect(y.tolist()).toEqual([[3.5]]);
    y.sum().backward();
    // d y / d fc2.weight = relu output [2, 1]; d y / d fc1.weight = fc2.weight · relu'(.) ⊗ x = [[3, 1], [3, 1]]
    expect(m.fc2.weight.grad!.tolist()).toEqual([[2, 1]]);
    expect(m.fc1.weight.grad!.tolist()).toEqual([[3, 1], [3, 1]]);
  });
});

describe('a callable module', () => {
  it('keeps its class, fields, parameters, state dict and display', () => {
    const m = new TwoLayer();
    expect(m).toBeInstanceOf(TwoLayer);
    expect(m).toBeInstanceOf(nn.Module);
    expect(Object.keys(m)).toEqual(['training', 'fc1', 'fc2']);
    expect([...m.namedParameters()].map(([k]) => k)).toEqual(['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']);
    expect(Object.keys(m.stateDict())).toEqual(['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']);
    expect(String(m)).toBe('TwoLayer(\n  (fc1): Linear(inFeatures=2, outFeatures=2, bias=true)\n  (fc2): Linear(inFeatures=2, outFeatures=1, bias=true)\n)');
    expect(inspect(m, { depth: 0 })).toBe('TwoLayer { training: true, fc1: [Linear], fc2: [Linear] }');
    // a module passed where its parameters belong is named by its class, not as a function
    expect(() => new tpu.optim.SGD(m as never, { lr: 0.1 })).toThrow('SGD: params must be an array of tensors (e.g. model.parameters()); got an object of type TwoLayer: give model.parameters()');
  });

  it('runs under tpu.compile, and a replaced submodule re-traces', () => {
    const m = new TwoLayer();
    handSet(m);
    const call = m as unknown as (x: Tensor) => Tensor;
    const f = tpu.compile((x: Tensor) => call(x));
    expect(f(tpu.tensor([[3, 1]])).tolist()).toEqual([[3.5]]);
    const other = new nn.Linear(2, 1);
    tpu.noGrad(() => { other.weight.copy_(tpu.tensor([[0, 0]])); other.bias!.copy_(tpu.tensor([-1])); });
    m.fc2 = other;
    expect(f(tpu.tensor([[3, 1]])).tolist()).toEqual([[-1]]);
    expect(f.stats().lastRetrace).toMatch(/a module tensor or submodule was replaced/);
  });

  it('tpu.compile(model) compiles its forward, as torch.compile(model): an optimizer step reaches the next call without a retrace', () => {
    const m = new TwoLayer();
    handSet(m);
    const compiled = tpu.compile(m as unknown as (x: Tensor) => Tensor);
    const x = tpu.tensor([[3, 1]]);
    expect(compiled(x).tolist()).toEqual([[3.5]]);
    // SGD lr 1 on y = 3.5: fc2.weight [1, 1] - [2, 1] = [-1, 0], fc2.bias 0.5 - 1; fc1 rows [1, -1] - [3, 1], [2, 0] - [3, 1]; biases [0, -5] - [1, 1]
    const opt = new tpu.optim.SGD(m.parameters(), { lr: 1 });
    m.forward(x).sum().backward();
    opt.step();
    // relu(fc1) = relu([-2·3 + -2·1 - 1, -1·3 + -1·1 - 6]) = [0, 0]: y = fc2.bias = -0.5
    expect(compiled(x).tolist()).toEqual([[-0.5]]);
    expect(compiled.stats().traces).toBe(1);
  });

  it('is called as PyTorch code calls it in a cell with %typecheck off (operators dispatched, no types)', async () => {
    const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-callable-')), built.createSession);
    try {
      await driver.value('%typecheck off');
      const cell = 'class Net extends tpu.nn.Module {\n  fc = new tpu.nn.Linear(2, 1);\n  forward(x) { return this.fc(x) * 2; }\n}\n'
        + 'const net = new Net();\ntpu.noGrad(() => { net.fc.weight.fill_(1); net.fc.bias.fill_(0.5); });\nnet(tpu.tensor([[1, 2]])).tolist()';
      expect(await driver.value(cell)).toBe('[ [ 7 ] ]'); // (1 + 2 + 0.5) · 2
    } finally {
      await driver.shutdown();
    }
  });
});
