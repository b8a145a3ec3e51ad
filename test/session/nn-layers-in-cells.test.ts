// The tpu.nn layers as a cell under %typecheck error sees them: typed from the built
// declarations, so a layer and a loss module are called as PyTorch calls them (`model(x)`,
// `criterion(out, y)` become forward calls), ModuleList reads by index and ModuleDict by key.
// Expected values are hand-computed.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-nn-layers-')();

describe('tpu.nn layers in a type-checked cell', () => {
  it('type-check and run, called as modules', async () => {
    await driver.value('%typecheck error');
    const cell = [
      'const { nn } = tpu;',
      'const model = new nn.Sequential(new nn.Flatten(), new nn.LeakyReLU(0.5), new nn.Hardtanh(-3, { maxVal: 1.5 }), new nn.Identity());',
      "const criterion = new nn.MSELoss({ reduction: 'sum' });",
      'const out = model(tpu.tensor([[[-2, 2]], [[-8, 1]]]));', // [[-1, 1.5], [-3, 1]]
      'const loss: number = criterion(out, tpu.zeros([2, 2])).item();', // 1 + 2.25 + 9 + 1
      'const blocks = new nn.ModuleList([new nn.ReLU(), new nn.Softmax(1)]);',
      'const heads = new nn.ModuleDict({ half: new nn.AvgPool2d(2) });',
      'const pooled = heads.get("half")!(tpu.tensor([[[[1, 2], [3, 6]]]])).item();', // 12 / 4
      'const soft = blocks[1](tpu.tensor([[0, 0]])).tolist();',
      '[loss, pooled, soft, blocks.length, [...heads]]',
    ].join('\n');
    expect(await driver.value(cell)).toBe("[ 13.25, 3, [ [ 0.5, 0.5 ] ], 2, [ 'half' ] ]");
  });
});
